"""Benchmark: is every hidden check decided by the student's code, never by the draw? Issue 62,
item 3.

For every step of the nine assignments, over --draws draws (the hidden cases as that many
students of one course secret meet them: `Draws(draw_key(secret, assignment, student))`):

- the reference, the five honest students of bench/similarity_students.py and the held-out
  correct idioms of bench/idioms.py pass every draw;
- each mistake the step catalogues is caught on every draw, and named on every draw where
  it is caught;
- each fragile formula of bench/idioms.py passes every draw or fails every draw (a fixed
  case decides it, the same for every student).

    PYTHONPATH=. .venv/bin/python bench/draws.py [--draws 50] [--jobs 2] [--steps NAME ...]

Prints one line per step (its subjects, what broke, the seconds of one judging) and, last,
every subject that breaks the three rules above; exits 1 when there is one. One torch thread
per process, --jobs processes (2 at most); the heaviest steps first. About half an hour for
50 draws on this machine's two cores.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import idioms  # noqa: E402
import torch  # noqa: E402
from similarity_calibration import IDS, prelude, read  # noqa: E402
from similarity_students import students  # noqa: E402

from autograder.checks.code_rules import closure  # noqa: E402
from autograder.checks.draws import Draws  # noqa: E402
from autograder.checks.judge import mistake_subject, namespace, step_findings  # noqa: E402
from autograder.checks.subject import LocalSubject  # noqa: E402
from autograder.course.draw_keys import draw_key  # noqa: E402
from autograder.i18n import language  # noqa: E402
from tests.course import ASSIGNMENT_OF, ASSIGNMENTS, helpers_of  # noqa: E402

SECRET = b"bench/draws.py: one course's secret"
HEAVY = {"MultiHeadAttention", "TransformerBlock", "online_attention", "loop_attention",
         "cached_causal_attention"}  # 0.1 s or more a judging

# ---------------------------------------------------------------------------------------------
# Who is judged


@dataclass(frozen=True)
class Subject:
    """One function judged on every draw: its group (reference, student, idiom, mistake,
    fragile), its label, and the function (or why it could not be built)."""

    group: str
    label: str
    function: object


def honest_students():
    """{assignment id: (prelude, {student: {grade id: cell}})} of bench/similarity_students."""
    stubs, heads, order = {}, {}, {}
    for aid in IDS:
        release = read("release", aid)
        heads[aid] = prelude(release)
        cells = [c for c in release.cells if c.metadata.get("nbgrader", {}).get("solution")]
        order[aid] = [c.metadata["nbgrader"]["grade_id"] for c in cells]
        stubs |= {c.metadata["nbgrader"]["grade_id"]: c.source for c in cells}
    made = students(stubs)
    return {aid: (heads[aid], {name: {k: answers[k] for k in order[aid]}
                               for name, answers in made[aid].items()}) for aid in IDS}


def student_function(step, head, answers):
    """A student's function for `step`, as bench/similarity_calibration.failures builds it."""
    names = {"__name__": "__main__"}
    exec(compile(head + "\n\n".join(answers.values()), f"<student {step.name}>", "exec"),  # noqa: S102
         names)
    names.update(helpers_of(step))
    with language("en"):
        text = closure(list(answers.values()), step.name, apart=step.uses) or ""
    return LocalSubject(names[step.name], source=text)


def code_function(step, code, label):
    """A function written as a mistake's code is (it defines the step's name)."""
    names = namespace(helpers_of(step))
    exec(compile(code, f"<{label}>", "exec"), names)  # noqa: S102
    return LocalSubject(names[step.name], source=code)


def built(make, *args):
    try:
        return make(*args)
    except Exception as error:  # noqa: BLE001 - a subject that cannot be built is a finding
        return error


def subjects_of(step, honest):
    head, by_student = honest[ASSIGNMENT_OF[step.name].id]
    out = [Subject("reference", "the reference", LocalSubject(step.reference))]
    out += [Subject("student", name, built(student_function, step, head, answers))
            for name, answers in by_student.items()]
    out += [Subject("mistake", m.name, mistake_subject(m, helpers_of(step)))
            for m in step.mistakes]
    written = {"idiom": list(idioms.IDIOMS.get(step.name, [])),
               "fragile": list(idioms.FRAGILE.get(step.name, []))}
    if step.name in ("MultiHeadAttention", "TransformerBlock"):
        more = idioms.derived(step.name, idioms.reference_source(step))
        written["idiom"] += more["idioms"]
        written["fragile"] += more["fragile"]
    out += [Subject(group, label, built(code_function, step, code, label))
            for group, entries in written.items() for label, code in entries]
    return out


# ---------------------------------------------------------------------------------------------
# Judging


@dataclass
class Record:
    """What one subject (its group and label) met over the draws: the draws it failed, those
    where its own mistake was named (mistakes only), and the seconds of each judging."""

    group: str
    label: str
    failed: list[int] = field(default_factory=list)
    named: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    error: str = ""

    def broken(self, draws):
        """Why this subject breaks the rule of its group over `draws` draws ("" if not)."""
        group, failed = self.group, len(self.failed)
        if self.error:
            return f"could not be built: {self.error}"
        if group in ("reference", "student", "idiom") and failed:
            return f"correct, yet failed {failed} of {draws} draws (first: {self.failed[0]})"
        if group == "mistake" and failed < draws:
            return f"caught on {failed} of {draws} draws"
        if group == "mistake" and len(self.named) < failed:
            return f"caught on every draw, named on {len(self.named)} of {failed}"
        if group == "fragile" and 0 < failed < draws:
            return f"decided by the draw: failed {failed} of {draws} draws"
        return ""


def run_step(task):
    """One step's records over its draws (run in a worker process)."""
    name, count, honest = task
    torch.set_num_threads(1)
    step = ASSIGNMENT_OF[name].steps[name]
    aid = ASSIGNMENT_OF[name].id
    records = []
    for subject in subjects_of(step, honest):
        record = Record(subject.group, subject.label)
        records.append(record)
        if isinstance(subject.function, Exception):
            record.error = f"{type(subject.function).__name__}: {subject.function}"
            continue
        for n in range(count):
            draws = Draws(draw_key(SECRET, aid, f"s{n:03d}"))
            started = time.perf_counter()
            with language("en"):
                try:
                    found = step_findings(step, subject.function, helpers_of(step), draws)
                except Exception as error:  # noqa: BLE001 - the judge failing is a finding
                    record.error = f"the judge raised {type(error).__name__}: {error}"
                    break
            record.seconds.append(time.perf_counter() - started)
            if found:
                record.failed.append(n)
            if any(f.mistake == subject.label for f in found):
                record.named.append(n)
    return name, records


def line(name, records, count):
    seconds = sorted(s for r in records for s in r.seconds)
    median = seconds[len(seconds) // 2] if seconds else 0.0
    groups = {}
    for record in records:
        groups[record.group] = groups.get(record.group, 0) + 1
    broken = sum(bool(r.broken(count)) for r in records)
    who = ", ".join(f"{n} {g}" for g, n in groups.items())
    return (f"{ASSIGNMENT_OF[name].id[:2]} {name:<28} {who:<58} "
            f"{'ok' if not broken else f'{broken} broken':<9} {median:.3f} s a judging")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draws", type=int, default=50, help="draws per step (default 50)")
    parser.add_argument("--jobs", type=int, default=2, help="processes, at most 2 (default 2)")
    parser.add_argument("--steps", nargs="*", metavar="NAME",
                        help="only these steps (default: every step of 01-09)")
    args = parser.parse_args(argv)
    names = args.steps or [n for aid in IDS for n in ASSIGNMENTS[aid].steps]
    unknown = [n for n in names if n not in ASSIGNMENT_OF]
    if unknown:
        parser.error(f"no step named {', '.join(unknown)}; the steps are "
                     f"{', '.join(n for aid in IDS for n in ASSIGNMENTS[aid].steps)}")
    names.sort(key=lambda n: n not in HEAVY)  # the slow steps first
    honest = honest_students()
    tasks = [(n, args.draws, honest) for n in names]
    print(f"{len(names)} steps, {args.draws} draws each (one course secret, students "
          f"s000..s{args.draws - 1:03d}), {min(2, max(1, args.jobs))} processes", flush=True)
    results = {}
    with multiprocessing.get_context("fork").Pool(min(2, max(1, args.jobs))) as pool:
        for name, records in pool.imap_unordered(run_step, tasks):
            results[name] = records
            print(line(name, records, args.draws), flush=True)
    broken = [(name, r, r.broken(args.draws)) for name in names for r in results[name]
              if r.broken(args.draws)]
    print()
    if not broken:
        print(f"every step of {len(names)}: the reference, the honest students and the "
              f"idioms pass every one of {args.draws} draws; every catalogued mistake is "
              f"caught and named on every draw; every fragile formula is decided the same "
              f"way on every draw")
        return 0
    print(f"{len(broken)} subject(s) break the rule of their group:")
    for name, record, why in broken:
        print(f"  {name}: {record.group} '{record.label}': {why}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
