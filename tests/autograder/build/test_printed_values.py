"""Do the notebooks show the documents' printed values exactly as the course's documents.py
holds them, written in readable lines, with no placeholder left?"""

from __future__ import annotations

import ast

import pytest
import torch

from autograder.build.authoring import AuthoringError
from autograder.build.printed_values import WIDTH, literal, with_printed_values
from tests.course import ASSIGNMENTS, ROOT

ANY = ASSIGNMENTS["01_attention_by_hand"]  # its values are the course's documents.py
documents = ANY.module("documents")
CONSTANTS = sorted(name for name in vars(documents) if name.startswith("DOC"))


@pytest.mark.parametrize("name", CONSTANTS)
@pytest.mark.parametrize("column", [0, 12, 44])
def test_a_value_reads_back_as_the_same_float32(name, column):
    """Does each constant's literal, at any column, read back to the very same value (a
    tensor: the same float32 numbers), with no line past the width?"""
    value = getattr(documents, name)
    code = with_printed_values(" " * column + "{{documents." + name + "}}", ANY)
    back = ast.literal_eval(code.strip())
    if isinstance(value, torch.Tensor):
        assert torch.equal(torch.tensor(back, dtype=value.dtype), value), code
    else:
        assert back == value, code
    assert max(len(line) for line in code.splitlines()) <= WIDTH + 3, code  # + "]),"


def test_numbers_keep_the_printed_digits():
    """Are 002's omega and 004's tiny softmax weight written with the document's digits?"""
    assert literal(documents.DOC002_OMEGA_2.tolist(), 0) == (
        "[-57.1016, -85.4889, 160.1854, -144.2133, 58.9875, -80.1705]")
    assert "6.0337e-06" in literal(documents.DOC004_SOFTMAX.tolist(), 0)


def test_an_unknown_name_is_refused_with_the_fix():
    """Is a name no documents.py defines refused, naming the notebook and where values live?"""
    with pytest.raises(AuthoringError, match="notebook.py.*DOC009_NOTHING.*names no value"):
        with_printed_values("x = {{documents.DOC009_NOTHING}}", ANY)


def test_two_values_on_one_line_are_refused():
    """Are two values on one line refused, naming the notebook, the line and the fix?"""
    with pytest.raises(AuthoringError, match="notebook.py: 'x, y = .*one .* per line.* own"):
        with_printed_values("x, y = {{documents.DOC004_KEYS}}, {{documents.DOC004_VALUES}}",
                            ANY)


@pytest.mark.parametrize("folder", ["source", "release"])
def test_no_placeholder_reaches_a_notebook(folder):
    """Is every {{documents.NAME}} of assignments/ filled in the committed notebooks?"""
    left = [p.name for p in (ROOT / folder).glob("*/*.ipynb")
            if "{{documents." in p.read_text(encoding="utf-8")]
    assert left == []
