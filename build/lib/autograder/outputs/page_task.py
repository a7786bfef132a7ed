"""The dask task that writes one feedback page, in a grading worker (the engine's worker.py
prepares its copy of the assignment), and the pipeline it writes it with.

nbgrader's generate_feedback writes the page. Its first stage takes the page's grades as data
(given_grades.py) where the course's pipeline has nbgrader's GetGrades and GetGrades is the
code GivenGrades was written for, here in the worker; elsewhere the worker's copy of the
gradebook takes them first, for nbgrader to read back. The worker then names the steps and
puts the page in the course's words (page_words.py); the client embeds the glyphs.
"""

from __future__ import annotations

import contextlib
import shutil

from nbgrader.api import Gradebook

from autograder.course.stages import stage_names
from autograder.engine.bundle import GRADEBOOK, Bundle, Submission, read_files, write_scores
from autograder.engine.worker import Graded, failure_reason, prepared
from autograder.i18n import language
from autograder.outputs.given_grades import GIVEN_GRADES, given, with_given_grades
from autograder.outputs.page_words import page_in_words
from autograder.plumbing import private_api


def page_pipeline(config) -> dict:
    """The settings a worker writes a course's pages with (`config`: the course's): its
    feedback pipeline with GivenGrades in GetGrades' place, when it can be (given_grades.py);
    none otherwise."""
    stages = with_given_grades(stage_names(config.GenerateFeedback.get("preprocessors") or []))
    return {"GenerateFeedback": {"preprocessors": stages}} if stages else {}


def feedback_page(bundle: Bundle, graded: Submission, scores: dict, version, settings: dict,
                  code="en", note="") -> Graded:
    """The dask task of `feedback`: nbgrader's generate_feedback of one graded submission
    (its autograded folder, in `graded`, and its scores: bundle.scores_of), in this worker's
    copy of the assignment with `settings` (page_pipeline). The page is put in the words of
    the language `code`, opened by `note` (page_words.py). The feedback folder comes back."""
    folder, api = prepared(bundle, settings, version)
    for stage in ("submitted", "autograded", "feedback"):
        shutil.rmtree(folder / stage, ignore_errors=True)
    takes_given = (GIVEN_GRADES in stage_names(api.config.GenerateFeedback.get("preprocessors")
                                               or [])
                   and private_api.applies("grades given"))  # this worker's nbgrader
    if not takes_given:  # GetGrades (GivenGrades given nothing is GetGrades) reads the gradebook
        shutil.copyfile(folder / f".{GRADEBOOK}", folder / GRADEBOOK)
        with Gradebook(f"sqlite:///{folder / GRADEBOOK}") as gradebook:
            write_scores(gradebook, graded.assignment, graded.student, scores)
    Bundle(graded.assignment, graded.files).write(folder)  # autograded/
    with given(scores) if takes_given else contextlib.nullcontext():
        outcome = api.generate_feedback(graded.assignment, graded.student, force=True)
    if not outcome["success"]:
        return Graded(graded.student, graded.assignment, False, failure_reason(outcome))
    page = folder / "feedback" / graded.student / graded.assignment
    shown = page / f"{graded.assignment}.html"
    if shown.exists():
        with language(code):
            shown.write_text(page_in_words(shown.read_text(encoding="utf-8"), note),
                             encoding="utf-8")
    return Graded(graded.student, graded.assignment, True, files=read_files(page))
