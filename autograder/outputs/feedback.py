"""Feedback pages (nbgrader generate_feedback, with the kit's HideHiddenTests stage, one task
per page on the grading engine) and the CSV export (nbgrader export, with the kit's
ClassCsvExport plugin)."""

from __future__ import annotations

import uuid
from pathlib import Path

from nbgrader.api import MissingEntry

from autograder.course.directory import course_config, open_gradebook, run_nbgrader
from autograder.course.gradebook_guard import check_gradebook
from autograder.course.ledger import chosen
from autograder.engine.bundle import assignment_bundle, graded_submission, replace_folder, scores_of
from autograder.engine.cluster import close_client, run_all, sent_once, start_client
from autograder.engine.progress import Progress
from autograder.engine.run_size import page_workers, pages_in_this_process
from autograder.engine.worker import kit_version
from autograder.i18n import config_language, counted, current, language, t
from autograder.outputs.csv_cells import csv_text
from autograder.outputs.destination import check_destination, same_table
from autograder.outputs.export import COLUMNS
from autograder.outputs.page_task import feedback_page, page_pipeline
from autograder.outputs.page_words import with_page_font
from autograder.outputs.roster import PENDING, REFUSED, not_in_course, removal_note, roster
from autograder.plumbing.errors import OutputError
from autograder.plumbing.kit_command import KIT, as_typed


def graded_students(root: Path, assignment_id):
    """Students with an autograded notebook of the assignment and its scores in the
    gradebook (a page shows both)."""
    folders = {p.parts[-3] for p in
               (root / "autograded").glob(f"*/{assignment_id}/{assignment_id}.ipynb")}
    with open_gradebook(root) as gradebook:
        try:
            scored = {s.student.id for s in gradebook.find_assignment(assignment_id).submissions}
        except MissingEntry:
            scored = set()
    return sorted(folders & scored)


def not_graded(root: Path, assignment_id, graded, students=()):
    """The students (of `students`: ids or globs; all when none) who handed the assignment
    in (a folder in submitted/) and have no graded notebook of it: no page can show them."""
    handed = {p.parent.name for p in (root / "submitted").glob(f"*/{assignment_id}")}
    return sorted(s for s in handed - set(graded) if chosen(s, students))


def write_feedback(root: Path, ids, students=(), log=print, workers=None, scheduler=None,
                   notes=None, warm=True):
    """Feedback pages of the given assignments (of the given students: ids or globs), in the
    course's language, one task per page on the grading engine (`workers` processes of the
    embedded cluster, or the cluster at `scheduler`; a run too small to be worth worker
    processes in this process: engine/run_size.py, where `warm` is what this process
    imported before the call, as a caller of this function has; the command line says when
    it imported them for this run); an assignment with nothing graded is
    skipped and said so. `notes`: {student: a line that opens their pages}. Every page is
    written again: a TA's score changes a page without a new grading, so a page's file time
    cannot tell it is current. Returns the ids done; a page that could not be written keeps
    the old one and ends in an OutputError naming each, as does a student who handed in a
    notebook that is not graded (said per assignment, once the others' pages are written)."""
    root = root.resolve()  # a worker in this process changes its current folder
    check_gradebook(root)
    config = course_config(root)
    with language(config_language(config)):
        todo, pageless = {}, {}
        for assignment_id in ids:
            graded = [s for s in graded_students(root, assignment_id) if chosen(s, students)]
            if left := not_graded(root, assignment_id, graded, students):
                pageless[assignment_id] = left
            if graded:
                todo[assignment_id] = graded
            else:
                log(t("feedback {assignment}: skipped, nothing graded yet for {students}",
                      assignment=assignment_id, students=t(", ").join(students))
                    if students else t("feedback {assignment}: skipped, nothing graded yet",
                                       assignment=assignment_id))
        if not todo:
            say_pageless(pageless, log)
            return []
        counts = [len(graded) for graded in todo.values()]
        # A few pages (a student's regrade, feedback on submit, a small class) are written
        # in this process, sooner than worker processes would start (engine/run_size.py).
        client = start_client(config, page_workers(counts, workers), scheduler,
                              root / "grade.log", log,
                              in_process=pages_in_this_process(counts, workers, warm))
        settings = page_pipeline(config)  # the workers' feedback pipeline
        try:
            failed = [line for assignment_id, graded in todo.items()
                      for line in _write_pages(client, root, assignment_id, graded, log,
                                               notes or {}, settings)]
        finally:
            close_client(client)
        if failed:
            raise OutputError(t("{count} feedback pages could not be written (the old page, "
                                "if any, is kept): {pages}", count=len(failed),
                                pages="; ".join(failed)))
        say_pageless(pageless, log)
    return list(todo)


def say_pageless(pageless, log):
    """A line per assignment of the students who handed in a notebook that is not graded
    ({assignment: [student]}), then an OutputError: they have no page."""
    for assignment_id, left in pageless.items():
        log(t("feedback {assignment}: no page for {students}: handed in, not graded",
              assignment=assignment_id, students=t(", ").join(left)))
    if pageless:
        raise OutputError(counted(
            sum(map(len, pageless.values())),
            "{count} handed-in notebook has no feedback page, since it is not graded (said "
            "above); run {command}, which says why",
            "{count} handed-in notebooks have no feedback page, since they are not graded (said "
            "above); run {command}, which says why each is not",
            command=as_typed(f"{KIT} grade {' '.join(pageless)}")))


def _write_pages(client, root: Path, assignment_id, graded, log, notes, settings):
    """Write the pages of one assignment; returns a line per page not written."""
    progress = Progress(len(graded), what="pages")
    failed = []

    def keep(student, page):
        if page.ok:
            replace_folder(root / "feedback" / student / assignment_id,
                           with_glyphs(page.files, f"{assignment_id}.html"))
        else:
            failed.append(f"{student}/{assignment_id}: {page.why}")
        progress.advance(f"{student}/{assignment_id}")

    feedback_all(client, root, assignment_id, graded, keep, notes, settings)
    written = len(graded) - len(failed)
    log(t("feedback {assignment}: {count} page in feedback/", assignment=assignment_id,
          count=written) if written == 1 else
        t("feedback {assignment}: {count} pages in feedback/", assignment=assignment_id,
          count=written))
    return failed


def feedback_all(client, root: Path, assignment_id, students, keep, notes, settings):
    """Feedback pages of `students` (graded) on the cluster (page_task.py), each in the
    current language and opened by the student's line of `notes` when there is one, each
    worker's pipeline set by `settings` (page_task.page_pipeline): `keep(student, Graded)` in
    this process as each page's folder comes back."""
    bundle = sent_once(client, assignment_bundle(root, assignment_id))
    scores = scores_of(root, assignment_id, students)

    def task(student):
        return client.submit(feedback_page, bundle,
                             graded_submission(root, assignment_id, student), scores[student],
                             kit_version(), settings, current(), notes.get(student, ""),
                             pure=False, key=f"feedback-{student}-{uuid.uuid4().hex}")

    run_all(client, students, task, keep)


def with_glyphs(files: dict, name) -> dict:
    """A page's folder ({path: bytes}) with the glyphs of its page `name` embedded (the
    worker put its words in the course's language: page_words.py)."""
    if name not in files:
        return files
    return {**files, name: with_page_font(files[name].decode("utf-8")).encode("utf-8")}


KIT_EXPORT = "autograder.outputs.export.ClassCsvExport"  # the kit's CSV, through nbgrader's export


def export_grades(root: Path, destination: Path, log=print, ids=None):
    """The kit's CSV (outputs/export.py) at `destination`, written by nbgrader's `export`
    with the kit's plugin for this command alone: `nbgrader export` itself stays nbgrader's.
    `ids`: only these assignments' rows (all when None). Returns the rows of notebooks handed
    in and not graded (not gradable, or not graded yet), each said: the file shows them 0."""
    if not destination.resolve().parent.is_dir():
        raise OutputError(t("{folder}: no such folder; create it or export elsewhere (--to)",
                            folder=destination.parent))
    check_destination(root, destination, same_table(csv_text([COLUMNS])))
    check_gradebook(root)
    run_nbgrader(root, "export", f"--to={destination.resolve()}",
                 f"--ExportApp.plugin_class={KIT_EXPORT}",
                 *(f"--ExportPlugin.assignment={i}" for i in ids or ()))
    log(t("grades: {path}", path=destination))
    with open_gradebook(root) as gradebook:
        gone = not_in_course(root, gradebook)
        for assignment_id in gone:
            log(t("warning: {message}", message=removal_note(assignment_id)) + " "
                + t("(every student shows as missing there)"))
        unsettled = [e for e in roster(root, gradebook, ids) if e.student
                     and e.status in (REFUSED, PENDING) and e.assignment not in gone]
    for entry in unsettled:
        log(t("warning: {student} {assignment}: {status}, its score in the file is not final "
              "until it is graded: {note}", student=entry.student, assignment=entry.assignment,
              status=t(entry.status), note=entry.note or t("run grade")))
    return unsettled
