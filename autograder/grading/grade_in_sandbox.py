"""Autograde's execution stage: student code in a sandboxed kernel, verdicts in the grader."""

from __future__ import annotations

import ast
import importlib.util
import os
from pathlib import Path

from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Bool, Float, Integer, Unicode

import autograder
import solutions
from autograder.checks.code_rules import bound_names, course_key, statements
from autograder.checks.draws import Draws
from autograder.checks.loader import AssignmentError, load_assignment
from autograder.course.draw_keys import course_secret, notebook_draw
from autograder.course.notebook_record import add_findings, has_record, set_integrity
from autograder.course.shown_outputs import MAX_IMAGE_KB, MAX_IMAGES
from autograder.course.stages import GRADED_FOLDER
from autograder.course.submission_files import CELL_CODE_KB
from autograder.course.time_limits import CELL_SECONDS, NOTEBOOK_SECONDS
from autograder.engine.master_notebooks import master_cells
from autograder.grading.integrity import scan
from autograder.grading.restore_test_cells import release_notebook
from autograder.grading.session import Bounds, Session, judging_order, steps_checked
from autograder.grading.submission_guard import refusal_of, refuse_tests
from autograder.grading.unread_cells import defines_only, unread
from autograder.i18n import config_language, language, t
from autograder.plumbing.hash_seed import seed_of_this_process
from autograder.plumbing.timeline import mark
from autograder.sandbox.kernel import Limits, Settings, message_bytes

KIT_COURSE = "attention_course"  # the kit's own assignments (its assignments/, as installed)


def kit_folders():
    """Where the grader's code, the reference package and the kit's own course are (the
    repository, or site-packages): a student's kernel must not see them. The kit's course
    may be absent (a Gradescope zip carries the course's own assignments, not the kit's)."""
    modules = [solutions, autograder]
    course = importlib.util.find_spec(KIT_COURSE)
    if course is not None and course.origin:
        modules.append(course)
    packages = [Path(getattr(module, "origin", None) or module.__file__).resolve().parent
                for module in modules]
    return sorted({str(p) for p in packages} | {str(p.parent) for p in packages
                                                if (p.parent / "pyproject.toml").exists()})


def defines_an_answer(cell, steps):
    """Is a cell one the time kept for answers is for: locked, a solution cell, or a cell of
    the student's own that binds a step's name (a later definition is the one judged, so it
    must run whenever the first one did, however loaded the machine)?"""
    meta = cell.metadata.get("nbgrader", {})
    if meta.get("locked") or meta.get("solution"):
        return True
    return any(bound_names(node) & set(steps) for node, _ in statements([cell.source], texts=False))


class GradeInSandbox(NbGraderPreprocessor):
    """Autograde's execution stage, in place of nbgrader's Execute: student code runs in a
    sandboxed kernel, and every verdict is computed here (see autograder/grading/session.py).
    nbgrader's SaveAutoGrades then scores each test cell by the output written here.

    A cell keeps the text it printed and its plots as PNG images, bounded in size and number
    (max_image_kb, max_images); nothing else a kernel sends (HTML, JavaScript, SVG ...) reaches
    the autograded notebook or the feedback page (autograder/grading/shown_outputs.py)."""

    said_random_hashing = False  # this process said it hashes otherwise (say_random_hashing)

    isolation = Unicode("full", help="'full': no network, course and home files out of reach, "
                        "nothing outlives a notebook, built as root, with user namespaces or "
                        "with Landlock, whichever this machine has (grading refuses where none "
                        "is); 'limits': resource limits only, student code runs as the grader "
                        "('auto', of older courses, is 'full')").tag(config=True)
    notebook_timeout = Float(NOTEBOOK_SECONDS, help="seconds the student's cells may take in "
                             "all (and, apart, each start of the kernel that judges the steps)"
                             ).tag(config=True)
    cell_timeout = Float(CELL_SECONDS, help="seconds one cell, or one step's checks, may run"
                         ).tag(config=True)
    sandbox_uid = Integer(61000, help="the first sandbox user id; each grading process "
                          "takes the next free one").tag(config=True)
    memory_limit_mb = Integer(6144, help="address space of one kernel, in MiB (RLIMIT_AS)"
                              ).tag(config=True)
    cpu_limit_seconds = Integer(120, help="CPU seconds one kernel may use in all "
                                "(RLIMIT_CPU)").tag(config=True)
    file_limit_mb = Integer(64, help="largest file a kernel may write, in MiB (RLIMIT_FSIZE)"
                            ).tag(config=True)
    folder_limit_mb = Integer(512, help="most a kernel's working folder may hold, in MiB (the "
                              "notebook's files copied in, and all its code writes there): "
                              "past it the kernel is stopped, as past its time").tag(config=True)
    process_limit = Integer(128, help="processes the sandbox user may run at once "
                            "(RLIMIT_NPROC)").tag(config=True)
    max_file_mb = Integer(16, help="largest file of a notebook's folder copied into its "
                          "sandbox, in MiB; a larger one is not copied, and neither is a link "
                          "or anything but a regular file (each refusal is recorded)"
                          ).tag(config=True)

    max_source_kb = Integer(CELL_CODE_KB, help="KB of code one cell may have; a larger cell "
                            "is not run").tag(config=True)
    max_cell_output_kb = Integer(256, help="KB of output kept of one cell; the rest is cut "
                                 "with a note").tag(config=True)
    max_notebook_output_kb = Integer(2048, help="KB of output kept of all cells together"
                                     ).tag(config=True)
    max_reply_mb = Integer(4, help="MB of one answer of the kernel to the grader, or of one "
                           "call of a stand-in, read at once; a larger one comes in parts, up "
                           "to 16 times this (sandbox/link.py); no message of the kernel may "
                           "pass twice this, or 64 MB").tag(config=True)
    max_image_kb = Integer(MAX_IMAGE_KB, help="KB of one image (a plot, as a PNG file) a "
                           "cell may show; a larger one is replaced by a note").tag(config=True)
    max_images = Integer(MAX_IMAGES, help="images one notebook may show; the ones after are "
                         "replaced by a note").tag(config=True)
    run_unread_cells = Bool(False, help="run every cell as the notebook has it: the "
                            "release's cells that only show or measure (a plot, a printed "
                            "example) though no check reads them, so that the feedback page "
                            "shows what they draw, and a notebook whose cells only define; by "
                            "default the first are left out with a note, and the second runs "
                            "its definitions only where a step is judged, which is faster "
                            "(grading/unread_cells.py)").tag(config=True)

    draw_key = Unicode("", help="the key (hex) this notebook's hidden random cases are "
                       "drawn from, set for each notebook by the kit's grading workers; left "
                       "empty (nbgrader's own autograde), the course's: from .kit/secret, the "
                       "student, the assignment and the draw its last grading recorded "
                       "(autograder/course/draw_keys.py), so every regrade draws the same"
                       ).tag(config=True)

    def draws(self, resources):
        """The notebook's draws (checks/draws.py): from `draw_key`, else the course's."""
        if self.draw_key:
            return Draws(bytes.fromhex(self.draw_key))
        info = resources["nbgrader"]
        root = Path(CourseDirectory(config=self.config).root)
        student, assignment_id = info["student"], info["assignment"]
        secret = course_secret(root, self.log.warning)
        return Draws(notebook_draw(root, secret, student, assignment_id)[1])

    def settings(self):
        limits = Limits(cpu_seconds=self.cpu_limit_seconds,
                        memory_bytes=self.memory_limit_mb << 20,
                        file_bytes=self.file_limit_mb << 20, processes=self.process_limit)
        root = CourseDirectory(config=self.config).root
        return Settings(isolation=self.isolation, uid=self.sandbox_uid, limits=limits,
                        hidden=(root, os.getcwd(), *kit_folders()),
                        max_file_bytes=self.max_file_mb << 20,
                        folder_limit_bytes=self.folder_limit_mb << 20,
                        max_message_bytes=message_bytes(self.max_reply_mb << 20))

    def bounds(self):
        return Bounds(source=self.max_source_kb << 10, cell_output=self.max_cell_output_kb << 10,
                      notebook_output=self.max_notebook_output_kb << 10,
                      reply=self.max_reply_mb << 20, image=self.max_image_kb << 10,
                      images=self.max_images)

    def course_steps(self, assignment_id):
        """(the hidden checks of the assignment by step name, None), or ({}, why) when the
        course's folder for it cannot be read: every test cell then fails, saying why."""
        root = CourseDirectory(config=self.config).root
        try:
            return load_assignment(Path(root), assignment_id).steps, None
        except AssignmentError as error:
            return {}, str(error)

    def preprocess(self, nb, resources):
        """Grade in the course's language (c.Course.language): every text written for the
        student, the checks' messages included, comes out in it."""
        with language(config_language(self.config)):
            self.say_random_hashing()
            return self.grade(nb, resources)

    def say_random_hashing(self):
        """Say once, in a process that hashes strings at random (nbgrader's own `autograde`
        started without PYTHONHASHSEED), that a mistake named to a student may differ from
        one regrade to the next (plumbing/hash_seed.py): the rule the cluster's workers are
        held to (engine/cluster.py). The kit's `grade` and its workers hash as the kernels do."""
        if seed_of_this_process() is not None or GradeInSandbox.said_random_hashing:
            return
        GradeInSandbox.said_random_hashing = True
        self.log.warning(t("this process hashes strings at random: the mistake named to a "
                           "student whose code iterates a set may differ from one regrade to "
                           "the next; start nbgrader with PYTHONHASHSEED=0 in its environment, "
                           "or grade with the kit's `grade`"))

    def grade(self, nb, resources):
        if not has_record(nb):
            raise RuntimeError("GradeInSandbox needs RestoreTestCells first among "
                               "c.Autograde.sanitize_preprocessors (see nbgrader_config.py)")
        refusal = refusal_of(nb)
        if refusal:  # SubmissionExporter refused it: no kernel starts, every test says why
            return refuse_tests(nb, refusal, master_sources(resources)), resources
        folder = resources["nbgrader"].get(GRADED_FOLDER) or \
            resources.get("metadata", {}).get("path") or "."
        release = release_notebook(self.config, resources)
        order = {grade_id(cell): index for index, cell in enumerate(release.cells)
                 if is_graded(cell)}
        masters = master_sources(resources)
        bounds = self.bounds()
        steps, unchecked = self.course_steps(resources["nbgrader"]["assignment"])
        tests = [cell for cell in nb.cells if cell.cell_type == "code" and is_graded(cell)]
        cells = [cell for cell in nb.cells if cell.cell_type == "code" and not is_graded(cell)]
        skipped = set() if self.run_unread_cells else \
            unread([cell.source for cell in cells], shown_only_keys(release))
        given = course_cells(release)  # the setup, the helper cell, the course's data
        locked = set(given)
        first_kernel = self.run_unread_cells or not all(
            index in skipped or cell.source in locked
            or (len(cell.source) <= bounds.source and defines_only(cell.source))
            for index, cell in enumerate(cells))
        with Session(folder, self.settings(), self.notebook_timeout, self.cell_timeout,
                     bounds, steps, unchecked, given, course_texts(release),
                     first_kernel, self.draws(resources), course_helpers(given)) as session:
            for index, cell in enumerate(cells):
                if index in skipped:
                    cell.outputs, cell.execution_count = session.not_run(cell.source), None
                    continue
                if not first_kernel:
                    cell.outputs, cell.execution_count = session.defined(cell.source), None
                    continue
                cell.outputs, cell.execution_count = session.run_cell(
                    cell.source, answer=defines_an_answer(cell, steps))
                cell.source = shown_source(cell.source, bounds.source)
            mark("grading: student's cells run")
            # Every step is judged once all the student's code ran, in judging_order; each
            # test cell's outputs and findings are kept in the release's order.
            tests.sort(key=lambda c: order.get(grade_id(c), len(order)))
            checked = [steps_checked(masters.get(grade_id(cell), cell.source)) for cell in tests]
            judged = {index: session.test_cell(checked[index], grade_id(tests[index]))
                      for index in judging_order(checked, steps)}
            for index, cell in enumerate(tests):
                cell.outputs, findings = judged[index]
                cell.execution_count = None
                add_findings(nb, grade_id(cell), findings)
            mark("grading: steps judged")
            refused = session.refused
        set_integrity(nb, scan(nb) + [{"cell": "", "kind": "file not copied", "reason": why}
                                      for why in refused])
        return nb, resources


def shown_source(source, limit):
    """A cell's code as the autograded notebook (and the feedback page) keeps it: a cell too
    large to run keeps its beginning and a note (the submitted file keeps it whole), so that
    no page renders megabytes of code."""
    if len(source) <= limit:
        return source
    head = source[:2048]
    return head + "\n# ... " + t("{size} KB more of this cell not shown: it has more than the "
                                 "{limit} KB of code a cell may have and was not run",
                                 size=(len(source) - len(head)) >> 10, limit=limit >> 10)


def master_sources(resources):
    """The source of each cell of the master notebook, by grade id, as the gradebook stores
    it: a test cell's hidden part (`check_step("name", ...)`) names the steps it checks. The
    submission's test cells are the release's, without that part."""
    return {name: source for name, _, source in master_cells(resources)}


# The kinds of a release's code cells, read from their nbgrader metadata here alone.


def flagged(cell, kind):
    """Whether nbgrader's metadata of a cell marks it `kind` ("locked", "solution", "grade")."""
    meta = cell.metadata.get("nbgrader")
    return isinstance(meta, dict) and bool(meta.get(kind))


def is_graded(cell):
    return flagged(cell, "grade")


def course_cells(release):
    """The code of the release's locked cells that are not tests (setup, given helpers, the
    public checks): what runs before a step's text when it is judged."""
    return [cell.source for cell in release.cells if cell.cell_type == "code"
            and flagged(cell, "locked") and not is_graded(cell)]


def course_helpers(locked):
    """The names of the helper cell's own code that the release's locked cells say grading
    removes before a step's code runs (code_rules.COURSE_HELPERS, as the build wrote it):
    the public check "graded on its own" refuses the same names. A release built before the
    kit removed them has none: nothing is removed."""
    for source in locked:
        for node, _ in statements([source], texts=False):
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] \
                    == ["COURSE_HELPERS"] and isinstance(node.value, ast.Call) and \
                    len(node.value.args) == 1:
                return frozenset(ast.literal_eval(node.value.args[0]))
    return frozenset()


def course_texts(release):
    """The code of every code cell of the release that is not a student's answer: a
    submission's cell with the key (code_rules.course_key) of one is the course's, never
    judged as the student's code; and the kernels find IPython's work on them done."""
    return [cell.source for cell in release.cells if cell.cell_type == "code"
            and not flagged(cell, "solution")]


def shown_only_keys(release):
    """The keys (code_rules.course_key) of the release's code cells that only show: neither
    locked, a solution nor a test (unread_cells.py: grading need not run them)."""
    return frozenset(course_key(cell.source) for cell in release.cells
                     if cell.cell_type == "code" and not any(
                         flagged(cell, kind) for kind in ("locked", "solution", "grade")))


def grade_id(cell):
    return cell.metadata["nbgrader"]["grade_id"]
