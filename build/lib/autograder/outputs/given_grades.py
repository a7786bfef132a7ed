"""Feedback's first stage in a worker: nbgrader's GetGrades, with the grades given as data.

A page shows each cell's score and points, each comment, the notebook's score and its late
penalty. nbgrader's GetGrades reads them from the gradebook, so a worker had to write each
student's scores into its own copy of the assignment's gradebook first, then GetGrades read them
back cell by cell: about half of a page's time in the worker. The client reads the same values
from the course's gradebook anyway, by nbgrader's own expressions (bundle.scores_in, "shown"),
and sends them with the page; GivenGrades writes them into the notebook as GetGrades would.

It reads the gradebook, as GetGrades, where no grades were given (`given` is not around the
page). It leans on GetGrades' own steps (its per-cell methods, what its `preprocess` sets), so
it stands behind a digest of that class (plumbing/private_api.py, "grades given"): the client
names it in the workers' pipeline only where the digest matches (page_task.page_pipeline),
and a worker gives it the grades only where its own GetGrades matches too; otherwise the
worker writes its gradebook, and GivenGrades, given nothing, is GetGrades.
"""

from __future__ import annotations

import contextlib
import contextvars

from nbgrader.api import MissingEntry
from nbgrader.preprocessors import GetGrades

GIVEN_GRADES = "autograder.outputs.given_grades.GivenGrades"  # as a pipeline names it
GET_GRADES = {"nbgrader.preprocessors.GetGrades",  # the kit's pipeline names it so
              "nbgrader.preprocessors.getgrades.GetGrades"}  # a class, named (stage_names)

# The page being written's submission, as bundle.scores_in reads it, or None.
_GIVEN = contextvars.ContextVar("given grades", default=None)


@contextlib.contextmanager
def given(scores: dict):
    """GivenGrades takes the grades of `scores` (bundle.scores_in) while the block runs."""
    token = _GIVEN.set(scores)
    try:
        yield
    finally:
        _GIVEN.reset(token)


def shown_of(scores: dict, notebook: str) -> dict:
    """What the page of `notebook` shows (scores_in's "shown"); MissingEntry, as the
    gradebook's lookups raise, where the submission has no such notebook."""
    try:
        return scores["notebooks"][notebook]["shown"]
    except KeyError:
        raise MissingEntry(f"no notebook {notebook} in the grades given") from None


class GivenGrades(GetGrades):
    """GetGrades, the grades taken from those `given` around the page, when there are."""

    def preprocess(self, nb, resources):
        scores = _GIVEN.get()
        if scores is None:
            return super().preprocess(nb, resources)
        self.shown = shown_of(scores, resources["nbgrader"]["notebook"])
        nb, resources = super(GetGrades, self).preprocess(nb, resources)  # each cell
        late_penalty = self.shown["late_penalty"]
        if late_penalty is None:
            late_penalty = 0
        else:
            self.log.warning(f"Late submission penalty: {late_penalty}")
        resources["nbgrader"]["score"] = self.shown["score"] - late_penalty
        resources["nbgrader"]["max_score"] = self.shown["max_score"]
        resources["nbgrader"]["late_penalty"] = late_penalty
        return nb, resources

    def _get_comment(self, cell, resources):
        if _GIVEN.get() is None:
            return super()._get_comment(cell, resources)
        cell.metadata.nbgrader["comment"] = self._given("comments", cell)

    def _get_score(self, cell, resources):
        if _GIVEN.get() is None:
            return super()._get_score(cell, resources)
        score, points = self._given("grades", cell)
        cell.metadata.nbgrader["score"] = score
        cell.metadata.nbgrader["points"] = points

    def _given(self, kind, cell):
        name = cell.metadata["nbgrader"]["grade_id"]
        try:
            return self.shown[kind][name]
        except KeyError:
            raise MissingEntry(f"no {kind[:-1]} of cell {name} in the grades given") from None


def with_given_grades(stages) -> list | None:
    """A feedback pipeline's stages (dotted names) with GetGrades replaced by GivenGrades;
    None where the pipeline has no GetGrades (a course's own), or GetGrades is not the code
    GivenGrades was written for."""
    from autograder.plumbing import private_api

    if not GET_GRADES & set(stages) or not private_api.applies("grades given"):
        return None
    return [GIVEN_GRADES if name in GET_GRADES else name for name in stages]
