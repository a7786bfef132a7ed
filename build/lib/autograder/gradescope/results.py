"""A graded notebook as Gradescope's results.json: data in, the JSON object out.

Gradescope's format (https://gradescope-autograders.readthedocs.io/en/latest/specs/): a
top-level `score`, `execution_time`, `output` and its format, the visibility of the test cases
and of the run's stdout, and `tests`, each with `score`, `max_score`, `status`, `name`,
`number`, `output`, `tags` and `visibility`. Here a test is one test cell of the notebook (one
step, as the course's notebooks have them), its output the verdict the kit's feedback page
shows; every finding of a failed step follows as a test of its own, without points, shown once
the instructor publishes the grades; integrity flags are the instructor's alone. Every text is
plain (`text`): a student's own words (an exception message) are never rendered as markup.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from autograder.i18n import t

VISIBILITIES = ("visible", "after_due_date", "after_published", "hidden")
DETAILS = "after_published"  # every finding of the hidden checks: once the grades are published
INSTRUCTOR = "hidden"  # integrity flags: never shown to students


@dataclass(frozen=True)
class GradedCell:
    """One graded test cell of the notebook, as the grader left it."""

    cell: str  # its grade id
    steps: tuple[str, ...]  # the steps it checks
    max_score: float
    score: float = 0.0
    message: str = ""  # the verdict, as the student reads it
    findings: tuple[str, ...] = ()  # every finding of its steps, one line each


@dataclass(frozen=True)
class Graded:
    """What grading one notebook gave: its test cells, and the notes beside the scores."""

    cells: tuple[GradedCell, ...]
    restored: tuple[str, ...] = ()  # graded cells the student changed, restored
    flags: tuple[str, ...] = field(default=())  # suspicious code, files not copied


def name_of(cell: GradedCell) -> str:
    return ", ".join(cell.steps) or cell.cell


def step_test(number, cell: GradedCell, visibility) -> dict:
    passed = cell.score >= cell.max_score
    return {"name": name_of(cell), "number": str(number), "score": cell.score,
            "max_score": cell.max_score, "status": "passed" if passed else "failed",
            "output": cell.message, "output_format": "text", "tags": [cell.cell, *cell.steps],
            "visibility": visibility}


def note_test(number, name, lines, visibility) -> dict:
    """A test without points that carries notes (Gradescope shows it failed)."""
    return {"name": name, "number": number, "status": "failed", "output": "\n".join(lines),
            "output_format": "text", "tags": [], "visibility": visibility}


def graded_results(graded: Graded, seconds, visibility="visible") -> dict:
    """results.json of a graded notebook."""
    tests = []
    for number, cell in enumerate(graded.cells, start=1):
        tests.append(step_test(number, cell, visibility))
        if cell.findings:
            tests.append(note_test(f"{number}.1", t("{step}: every finding of the hidden "
                                                    "checks", step=name_of(cell)),
                                   [f"- {line}" for line in cell.findings], DETAILS))
    extra = len(graded.cells) + 1
    if graded.restored:
        tests.append(note_test(str(extra), t("graded cells you changed, restored as released"),
                               [f"- {line}" for line in graded.restored], DETAILS))
    if graded.flags:
        tests.append(note_test(str(extra + 1), t("for the instructor: integrity flags (no "
                                                 "score changed)"),
                               [f"- {line}" for line in graded.flags], INSTRUCTOR))
    score = sum(cell.score for cell in graded.cells)
    most = sum(cell.max_score for cell in graded.cells)
    output = t("{score:g} of {most:g} points. Each step of your notebook was graded by the "
               "course's hidden checks, run on your code in a sandbox; below, one test per "
               "step.", score=score, most=most)
    return envelope(score, output, tests, seconds)


def not_graded_results(cells, why, seconds) -> dict:
    """results.json of a notebook that could not be graded: no points, and why, for every
    test cell of the assignment (`cells`: TestCells with their maximum)."""
    tests = [{**step_test(number, cell, "visible"), "score": 0.0, "status": "failed",
              "output": t("not graded: {why}", why=why)}
             for number, cell in enumerate(cells, start=1)]
    return envelope(0.0, t("Your notebook could not be graded: {why}", why=why), tests,
                    seconds)


def envelope(score, output, tests, seconds) -> dict:
    return {"score": score, "execution_time": round(seconds), "output": output,
            "output_format": "text", "test_output_format": "text", "test_name_format": "text",
            "stdout_visibility": "hidden", "tests": tests}
