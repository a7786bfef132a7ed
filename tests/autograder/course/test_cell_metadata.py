"""Does the kit's CheckCellMetadata, which checks each distinct cell metadata once per process,
reach nbgrader's verdict on every notebook, also after it has seen valid cells like the bad
ones?"""

from __future__ import annotations

import copy
from pathlib import Path

import nbformat
import pytest
from nbgrader.nbgraderformat import ValidationError
from nbgrader.preprocessors import CheckCellMetadata as NbgraderCheck

from autograder.course.cell_metadata import CheckCellMetadata

ID = "01_attention_by_hand"
RELEASE = Path(__file__).resolve().parents[3] / "release" / ID / f"{ID}.ipynb"


def verdict(stage, notebook):
    try:
        stage.preprocess(copy.deepcopy(notebook), {})
    except ValidationError as error:
        return str(error)
    return "valid"


def graded_cells(notebook):
    return [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade")]


def with_duplicate_id(notebook):
    first, second = graded_cells(notebook)[:2]
    second.metadata.nbgrader.grade_id = first.metadata.nbgrader.grade_id
    return notebook


def without_points(notebook):
    del graded_cells(notebook)[0].metadata.nbgrader["points"]
    return notebook


def markdown_grade_cell(notebook):
    graded_cells(notebook)[0].cell_type = "markdown"
    return notebook


def unchanged(notebook):
    return notebook


@pytest.mark.parametrize("spoil", [unchanged, with_duplicate_id, without_points,
                                   markdown_grade_cell])
def test_the_verdict_is_nbgraders_after_the_valid_release_was_seen(spoil):
    """The same verdict and message as nbgrader's stage, after the release (whose cells carry
    the same metadata as the spoiled ones) was checked by the same process."""
    release = nbformat.read(RELEASE, as_version=4)
    ours = CheckCellMetadata()
    assert verdict(ours, release) == "valid"
    spoiled = spoil(copy.deepcopy(release))
    expected = verdict(NbgraderCheck(), spoiled)
    assert verdict(ours, spoiled) == expected
    assert verdict(ours, spoiled) == expected  # and again, once it has seen it
    assert (expected == "valid") == (spoil is unchanged)
