"""Which notebooks of an assignment share code: the students' own code, fingerprinted as MOSS
does, and the pairs that share the most, ranked.

The fingerprints are copydetect's (winnowing, Schleimer, Wilkerson and Aiken 2003: the
hashes of the text's k-grams, the smallest of each window kept), taken of the text of
similarity_text.py: every name the student binds is one letter, strings another, comments and
blank lines gone. So a renamed variable, a changed comment or blank line changes nothing, and
functions in another order still match passage by passage.

Only the student's own code counts. Of a notebook it reads the solution cells and the cells
the student added; the release's locked cells (the helper cell "public_checks", setup and
test cells: nbgrader's metadata, and only where the release has such a cell) never count, and
every passage of the release's own code (the stubs' signatures and docstrings, the cells that
show results) is removed from the fingerprints, as copydetect's boilerplate is. A passage that
many notebooks of the class share (more than `common`, MOSS's -m) is the course's, not a copy
(a solution the whole class converges on): it is left out of the matching too, but still
counts in the share of the notebook it belongs to, so two notebooks alike only in such code
score low.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

import nbformat
import numpy as np
from copydetect import CodeFingerprint, compare_files
from copydetect.utils import get_token_coverage, winnow

from autograder.checks.loader import assignment_ids, load_assignment
from autograder.checks.model import Similar
from autograder.course.directory import HELPER_CELL
from autograder.course.submission_files import unfollowable
from autograder.i18n import t
from autograder.outputs.similarity_text import bound_names, normalised
from autograder.plumbing.errors import OutputError

NOISE = 25  # copydetect's noise threshold: the shortest match, in characters of filtered code
GUARANTEE = 30  # copydetect's guarantee threshold: a match this long is always found
COMMON = 10  # a passage in more notebooks than this is the course's (MOSS's -m default)
MOST_ALIKE = 5  # pairs listed to read where the code is too short to tell (Similar.tells)


@dataclass(frozen=True)
class Notebook:
    """One student's notebook of an assignment: their own cells (cell index, code)."""

    student: str
    path: Path
    cells: tuple[tuple[int, str], ...]

    @property
    def code(self):
        return "\n\n".join(source for _, source in self.cells)

    def starts(self):
        """Where each cell begins in `code`: [(cell index, offset)]."""
        found, offset = [], 0
        for index, source in self.cells:
            found.append((index, offset))
            offset += len(source) + 2
        return found


@dataclass(frozen=True)
class Pair:
    """Two notebooks and what they share: each one's share of its own code that matches the
    other, the matched characters of filtered code, and the passages in each one's code."""

    first: Notebook
    second: Notebook
    shares: tuple[float, float]
    matched: int
    passages: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]

    @property
    def score(self):
        return max(self.shares)


@dataclass
class Similarity:
    """An assignment's notebooks compared: every pair that shares a passage, ranked."""

    assignment: str
    notebooks: list[Notebook]
    pairs: list[Pair] = field(default_factory=list)
    flag: Similar = field(default_factory=Similar)
    common: int = COMMON
    empty: list[str] = field(default_factory=list)  # students with no code of their own
    left_out: dict = field(default_factory=dict)  # student -> why their notebook was not read

    @property
    def flagged(self):
        return [p for p in self.pairs if self.flag.flags(p.score, p.matched)]

    @property
    def listed(self):
        """The pairs the report shows, each with its page: those flagged, or where the code is
        too short to tell, the most alike, for the instructor to read."""
        return self.flagged if self.flag.tells else self.pairs[:MOST_ALIKE]


def nbgrader_of(cell):
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return meta if isinstance(meta, dict) else {}


def release_cells(release):
    """{grade id: cell} of the release's locked and test cells: the cells never counted."""
    return {nbgrader_of(c).get("grade_id"): c for c in release.cells
            if c.cell_type == "code" and (nbgrader_of(c).get("locked")
                                          or nbgrader_of(c).get("grade"))
            and not nbgrader_of(c).get("solution")}


def is_release_cell(cell, locked):
    """Is this the release's helper, locked or test cell? A cell counts as one only when its
    grade id is one of the release's: metadata a student forges cannot hide code."""
    meta = nbgrader_of(cell)
    grade_id = meta.get("grade_id")
    return grade_id in locked and not meta.get("solution") and (
        meta.get("locked") or meta.get("grade") or grade_id == HELPER_CELL)


def student_cells(notebook, release):
    """(index, code) of the notebook's code cells that are the student's: solution cells and
    cells they added or changed; blank ones and those the release holds as they are left
    out."""
    locked = release_cells(release)
    as_released = {c.source.strip() for c in release.cells if c.cell_type == "code"}
    return tuple((i, cell.source) for i, cell in enumerate(notebook.cells)
                 if cell.cell_type == "code" and isinstance(cell.source, str)
                 and cell.source.strip() not in as_released | {""}
                 and not is_release_cell(cell, locked))


@dataclass(frozen=True)
class Release:
    """What of the release is never the student's: the code of its cells a student may edit
    (stubs, cells that show results), and the names its cells bind."""

    code: str
    bound: frozenset


def release_parts(release):
    """The release's code a student may edit, and the names all its code cells bind (each
    cell read alone: one with a magic does not hide the others')."""
    locked = release_cells(release)
    cells = [c for c in release.cells if c.cell_type == "code"]
    editable = "\n\n".join(c.source for c in cells if not is_release_cell(c, locked))
    return Release(editable, frozenset().union(*(bound_names(c.source) for c in cells)))


def handed_in(root: Path, assignment_id):
    """{student: the notebook to read}: the autograded one (its graded cells already the
    release's again) where grading wrote it, else the submitted one."""
    found = {}
    for stage in ("submitted", "autograded"):
        for path in sorted((root / stage).glob(f"*/{assignment_id}/{assignment_id}.ipynb")):
            found[path.parts[-3]] = path
    return found


def unreadable(error):
    """Why a notebook's code is left out: the kind of error reading it met (its message may
    quote the student's text, which need not even be printable)."""
    return t("its code cannot be read for comparison ({error})", error=type(error).__name__)


def read_notebooks(root: Path, assignment_id, release):
    """(every student's notebook of the assignment, as their own cells; {student: why theirs
    is left out}): a submission grade would not read (a symbolic link on the way, or in its
    folder: submission_files.unfollowable), a file that is not a notebook, or one whose cells
    cannot be read (a code cell without its source)."""
    notebooks, left_out = [], {}
    for student, path in sorted(handed_in(root, assignment_id).items()):
        why = unfollowable(path)
        if why:
            left_out[student] = why
            continue
        try:
            notebook = nbformat.read(path, as_version=4)
        except Exception as error:  # noqa: BLE001 - nbformat raises many kinds of errors
            left_out[student] = t("not a Jupyter notebook ({error})",
                                  error=type(error).__name__)
            continue
        try:
            notebooks.append(Notebook(student, path, student_cells(notebook, release)))
        except Exception as error:  # noqa: BLE001 - one notebook never stops the report
            left_out[student] = unreadable(error)
    return notebooks, left_out


def kgram_hashes(text, k):
    """A hash of each k-gram of `text`, the same in every run (copydetect's uses Python's
    hash(), which changes from one process to the next, and with it the fingerprints each
    window keeps: a pair's share moved by a few points between two runs). 52 bits: copydetect's
    winnowing compares them as floats."""
    return np.array([int.from_bytes(hashlib.blake2b(text[i:i + k].encode(), digest_size=8)
                                    .digest(), "big") >> 12
                     for i in range(len(text) - k + 1)], dtype=np.int64)


def fingerprint(code, bound):
    """copydetect's fingerprints of the code's text (similarity_text, kept as `text`): the
    k-grams' hashes winnowed by copydetect, less those spanning two top-level statements."""
    text = normalised(code, bound)
    hashes, places = winnow(kgram_hashes(text.text, NOISE), GUARANTEE - NOISE + 1,
                            remove_duplicates=False)
    boundaries = np.array(text.starts, dtype=int)
    hash_idx = {}
    for hash_value, i in zip(hashes.tolist(), places.tolist(), strict=True):
        if not np.any((boundaries > i) & (boundaries < i + NOISE)):
            hash_idx.setdefault(hash_value, []).append(i)
    prints = CodeFingerprint.__new__(CodeFingerprint)  # its fields, as its __init__ sets them
    prints.filename, prints.raw_code, prints.filtered_code = "notebook.py", code, text.text
    prints.offsets, prints.k, prints.text = np.array([]), NOISE, text
    prints.hashes, prints.hash_idx = set(hash_idx), hash_idx
    prints.token_coverage = get_token_coverage(hash_idx, NOISE, len(text.text))
    return prints


def without(prints, hashes, coverage=None):
    """The fingerprints less `hashes`; their coverage recounted, or set to `coverage`."""
    kept = copy.copy(prints)
    kept.hashes = prints.hashes - hashes
    kept.hash_idx = {h: i for h, i in prints.hash_idx.items() if h not in hashes}
    kept.token_coverage = coverage if coverage is not None else get_token_coverage(
        kept.hash_idx, prints.k, len(prints.filtered_code))
    return kept


def common_hashes(prints, common):
    """The hashes found in more than `common` notebooks."""
    counts = Counter(h for p in prints for h in p.hashes)
    return {h for h, n in counts.items() if n > common}


def as_passages(slices, text):
    """copydetect's slices of the text as spans of the code."""
    return tuple(text.code_span(int(start), int(end)) for start, end in zip(*slices, strict=True))


def compare(first, second, prints):
    """The pair, or None when the two share no passage."""
    matched, shares, (slices1, slices2) = compare_files(prints[0], prints[1])
    if not matched:
        return None
    return Pair(first, second, (float(shares[0]), float(shares[1])), int(matched),
                (as_passages(slices1, prints[0].text), as_passages(slices2, prints[1].text)))


def own_prints(notebook, release):
    """The notebook's fingerprints less every passage of the release's code."""
    bound = release.bound | bound_names(notebook.code)
    return without(fingerprint(notebook.code, bound), fingerprint(release.code, bound).hashes)


def texts_of(notebooks, release):
    """({student: own_prints}, {student: why the text of theirs could not be made}): one
    notebook's code the text cannot read is left out, never the class's report."""
    own, unread = {}, {}
    for notebook in notebooks:
        try:
            own[notebook.student] = own_prints(notebook, release)
        except Exception as error:  # noqa: BLE001 - one notebook never stops the report
            unread[notebook.student] = unreadable(error)
    return own, unread


def compare_class(notebooks, release, common=COMMON):
    """Every pair of notebooks that shares a passage, the highest share first; the students
    whose notebooks hold no code of their own; and {student: why} of those whose code could
    not be read (left out). `release`: release_parts."""
    own, unread = texts_of(notebooks, release)
    notebooks = [n for n in notebooks if n.student in own]
    empty = [s for s, p in own.items() if not p.token_coverage]
    shared = common_hashes(own.values(), common)
    rare = {s: without(p, shared, coverage=p.token_coverage) for s, p in own.items()}
    pairs = [pair for a, b in combinations([n for n in notebooks if n.student not in empty], 2)
             if (pair := compare(a, b, (rare[a.student], rare[b.student])))]
    pairs.sort(key=lambda p: (-p.score, -p.matched, p.first.student, p.second.student))
    return pairs, empty, unread


def declared_flag(root: Path, assignment_id) -> Similar:
    """When the assignment flags a pair: its checks.py's SIMILARITY, else the kit's default
    (also for an assignment made in source/ without a folder in assignments/)."""
    if assignment_id not in assignment_ids(root):
        return Similar()
    return load_assignment(root, assignment_id).similar


def similarity(root: Path, assignment_id, flag: Similar | None = None, common=COMMON):
    """The assignment's notebooks in the course at `root` compared, flagged by `flag` (the
    assignment's own when none is given)."""
    path = root / "release" / assignment_id / f"{assignment_id}.ipynb"
    if not path.exists():
        raise OutputError(t("{path}: no such release notebook; the similarity report needs "
                            "it to tell the release's code from the students' (run build)",
                            path=path))
    flag = flag or declared_flag(root, assignment_id)
    release = nbformat.read(path, as_version=4)
    notebooks, left_out = read_notebooks(root, assignment_id, release)
    pairs, empty, unread = compare_class(notebooks, release_parts(release), common)
    return Similarity(assignment_id, [n for n in notebooks if n.student not in unread], pairs,
                      flag, common, empty, left_out | unread)
