"""The demo: a simulated class of 42 students through the whole pipeline.

build -> collect (an LMS zip for the first assignment, folders for the rest) -> grade ->
feedback -> export -> similarity -> report, in a course directory of its own (demo/ by
default); one assignment's class holds planted copies (plant_copies).
"""

from __future__ import annotations

import random
import shutil
import time
import zipfile
from pathlib import Path

import nbformat

from autograder.build import build
from autograder.checks.loader import assignment_ids
from autograder.course.directory import CONFIG, Course
from autograder.grading.parallel import grade
from autograder.i18n import t
from autograder.outputs.collect import collect
from autograder.outputs.feedback import export_grades, write_feedback
from autograder.outputs.report import write_report
from autograder.outputs.similarity_page import write_similarity
from autograder.plumbing.errors import KitError, OutputError
from autograder.tools import simulate

STUDENTS = 42
SHARES = [("correct", 0.45), ("partly_done", 0.2), ("blank", 0.1)]  # the rest: a mistake
SPECIALS = ["crashing", "looping_forever", "syntax_error"]


def plan_class(root, ids, rng):
    """{(student, assignment): what that student hands in}; every catalogued mistake and
    every special failure appears at least once."""
    students = [f"s{n:02d}" for n in range(1, STUDENTS + 1)]
    plan = {}
    for assignment_id in ids:
        mistakes = simulate.mistakes_of(root, assignment_id)
        order = students[:]
        rng.shuffle(order)
        forced = [("mistake", m) for m in mistakes] + [(s, None) for s in SPECIALS]
        for student, kind in zip(order, forced, strict=False):
            plan[(student, assignment_id)] = kind
        for student in order[len(forced):]:
            plan[(student, assignment_id)] = drawn(rng, mistakes)
    return plan


def drawn(rng, mistakes):
    """(kind, mistake) of a notebook the plan does not force: a kind in its SHARES, else one
    of the catalogued `mistakes` (bench/grading.py draws its mixed class so too)."""
    pick = rng.random()
    for kind, share in SHARES:
        if pick < share:
            return kind, None
        pick -= share
    return "mistake", rng.choice(mistakes)


def plant_copies(plan):
    """In each assignment with an independent solution (simulate.INDEPENDENT), the first
    students who hand in the reference hand in other work: one the independent solution, two
    copies of it, disguised (simulate.disguised). The similarity report must rank the copies
    first and leave the independent solution beside the reference alone."""
    for assignment_id in simulate.INDEPENDENT:
        correct = sorted(s for (s, a), (kind, _) in plan.items()
                         if a == assignment_id and kind == "correct")
        for student, kind in zip(correct, ["independent", "copy", "copy"], strict=False):
            plan[(student, assignment_id)] = (kind, assignment_id)  # the id in mistake's place
    return plan


def hand_in(kind, mistake, release, source):
    if kind in ("independent", "copy"):  # plant_copies: `mistake` holds the assignment id
        notebook = simulate.independent(release, source, mistake)
        return notebook if kind == "independent" else simulate.disguised(notebook)
    if kind == "blank":
        return release
    if kind == "mistake":
        return simulate.with_mistake(release, source, mistake)
    return getattr(simulate, kind)(release, source)


def write_inbox(course_root, plan, inbox):
    """The files an LMS would give the instructor: <student>_<id>.ipynb per submission, plus
    two bad files, and the first assignment zipped."""
    shutil.rmtree(inbox, ignore_errors=True)
    ids = sorted({a for _, a in plan})
    for assignment_id in ids:
        folder = inbox / assignment_id
        folder.mkdir(parents=True)
        release = nbformat.read(course_root / "release" / assignment_id /
                                f"{assignment_id}.ipynb", as_version=4)
        source = nbformat.read(course_root / "source" / assignment_id /
                               f"{assignment_id}.ipynb", as_version=4)
        for (student, a), (kind, mistake) in sorted(plan.items()):
            if a == assignment_id:
                notebook = hand_in(kind, mistake, release, source)
                nbformat.write(notebook, folder / f"{student}_{assignment_id}.ipynb")
    first = ids[0]
    (inbox / first / f"s98_{first}.ipynb").write_text("this is not a notebook")
    (inbox / first / "homework final(2).ipynb").write_text("{}")
    archive = inbox / f"{first}.zip"
    with zipfile.ZipFile(archive, "w") as zipped:
        for path in sorted((inbox / first).iterdir()):
            zipped.write(path, f"{first}/{path.name}")
    shutil.rmtree(inbox / first)
    return {first: archive, **{a: inbox / a for a in ids[1:]}}


class DemoError(KitError, RuntimeError):
    """The demo cannot start; the message says where to run it."""


MARK = Path(".kit") / "demo"  # in a folder the demo made: a later demo may replace it


def demo_course(project: Path, out: Path, ids, log) -> Course:
    """The demo's own course at `out`: the config and assignments of the course at `project`
    (whose source/ and release/ it leaves as they are; the demo builds its copy). A folder a
    demo made before is replaced; any other folder that holds something is refused, as is
    one that holds the course itself."""
    if out == project or out in project.parents:
        raise DemoError(t("--out {out} holds the course itself: give the demo a folder of its "
                          "own, such as {example}", out=out, example=project / "demo"))
    if out.exists() and any(out.iterdir()):
        if not (out / MARK).is_file():
            raise DemoError(t("--out {out} exists and holds files the demo did not make: it "
                              "would replace them. Give --out a new folder, or remove that "
                              "one yourself", out=out))
        log(t("replacing the demo made before in {out}", out=out))
        shutil.rmtree(out)
    course = Course.create(out, project, ids, sources=False)
    (out / MARK).parent.mkdir(exist_ok=True)
    (out / MARK).write_text("made by python -m autograder demo\n", encoding="utf-8")
    return course


def run_demo(project: Path, out: Path, workers=None, timeout=10, seed=0, log=print):
    started = time.monotonic()
    ids = assignment_ids(project) if (project / CONFIG).is_file() else []
    if not ids:
        raise DemoError(t("{folder} is no course with assignments: run the demo inside one (a "
                          "course `python -m autograder init DIR` made, or the kit's own "
                          "checkout), which it copies into --out", folder=project))
    course = demo_course(project, out, ids, log)
    log(f"== build: {len(ids)} assignments")
    build(out, ids, log=log)
    plan = plant_copies(plan_class(out, ids, random.Random(seed)))
    inputs = write_inbox(out, plan, out / "inbox")
    log(f"== collect: {len(plan)} notebooks of {STUDENTS} students, {len(ids)} assignments")
    problems = []
    for assignment_id, source in inputs.items():
        problems += collect(out, assignment_id, source, log=log)
    log("== grade")
    run = grade(out, ids, workers=workers, timeout=timeout, log=log)
    log("== feedback")
    try:
        write_feedback(out, ids, log=log)
    except OutputError as error:  # the notebooks that could not be graded have no page
        log(str(error))
    log("== export")
    grades = out / "grades.csv"
    export_grades(out, grades, log=log)
    log("== similarity")
    write_similarity(out, ids, out / "similarity", log=log)
    log("== report")
    report = write_report(out, ids, out / "report.html", log=log).path
    minutes, seconds = divmod(int(time.monotonic() - started), 60)
    log(f"\ndemo finished in {minutes} min {seconds} s: {len(run.graded)} notebooks graded, "
        f"{len(run.failed)} could not be graded, {len(problems) + len(run.problems)} "
        "input problems reported")
    log(f"  course folder:  {course.root}  (nbgrader_config.py: {course.root / CONFIG})")
    log(f"  gradebook:      {course.root / 'gradebook.db'}")
    log(f"  feedback pages: {course.root / 'feedback'}/<student>/<assignment>/")
    log(f"  grades (CSV):   {grades}")
    log(f"  class report:   {report}")
    log(f"  similar code:   {course.root / 'similarity'}/<assignment>/index.html")
    return run
