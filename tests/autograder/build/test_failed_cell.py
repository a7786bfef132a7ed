"""Does a failed cell of a notebook explain itself: the arguments the student's function had
when it raised (by shape), the hint to compare shapes only when shapes are the question, and,
under a test cell, the earlier step to fix first when this step calls one whose test fails?
And does nothing a student's object raises while it explains end the kernel?

Run in a real kernel (nbclient), with the helper cell as the build copies it out, in both
languages."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

from autograder.build import failed_cell
from autograder.build.standalone import filled, helper_cell_code

HEADER = {"en": "# {step}: 1 point. The public checks below.",
          "zh": "# {step}：1 分。下面是公开测试。"}
SAID = {
    "en": {"arguments": "scale raised RuntimeError with x=a (2, 3) float32 tensor, d=4",
           "shapes": "compare each operation's shapes with the docstring of scale",
           "key": "lookup raised KeyError with word='sun'",
           "first": "attend calls scale, whose test above fails: fix scale first"},
    "zh": {"arguments": "scale 抛出了 RuntimeError，当时的参数：x=形状为 (2, 3) 的 float32 "
                        "张量、d=4",
           "shapes": "请对照 scale 的文档字符串，逐个核对每步运算的形状",
           "key": "lookup 抛出了 KeyError，当时的参数：word='sun'",
           "first": "attend 调用了 scale，而前面 scale 的测试没有通过：请先把它改好"},
}
WRONG_SCALE = "def scale(x, d):\n    return x @ x / d\n"  # (2, 3) @ (2, 3): shapes do not fit
RIGHT_SCALE = "def scale(x, d):\n    return x / d ** 0.5\n"
ATTEND = "def attend(x):\n    return torch.softmax(scale(x, 4), dim=-1)\n"
LOOKUP = "def lookup(word):\n    return {'the': 0}[word]\n"
STUB = "def stub(x):\n    raise NotImplementedError\n"


def checking(language, step, body):
    return HEADER[language].format(step=step) + "\n" + body


def run(language, sources):
    """Run the helper cell (attend calls scale) then `sources`; each cell's printed text."""
    helper = filled(helper_cell_code(language), "STEP_USES", repr({"attend": ["scale"]}))
    cells = [nbformat.v4.new_code_cell(source) for source in ["import torch", helper, *sources]]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                       "language": "python"}
    NotebookClient(notebook, timeout=60, allow_errors=True).execute()
    return ["".join(output.get("text", "") for output in cell.outputs
                    if output.output_type == "stream") for cell in notebook.cells[2:]]


@pytest.mark.parametrize("language", ["en", "zh"])
def test_a_failed_cell_explains_itself(language):
    """Does a shape error name the arguments and the hint; a KeyError the arguments but no
    shape hint; a later step whose earlier step fails name the one to fix first, and no
    longer once it passes; a stub say nothing?"""
    said = SAID[language]
    x = "torch.ones(2, 3)"
    printed = run(language, [
        WRONG_SCALE, ATTEND, LOOKUP, STUB,
        checking(language, "scale", f"scale({x}, 4)"),  # 4: fails in scale, shapes
        checking(language, "attend", f"assert attend({x}).shape == (3, 3)"),  # 5: scale fails
        checking(language, "lookup", "lookup('sun')"),  # 6: a KeyError
        checking(language, "stub", f"stub({x})"),  # 7: a stub
        RIGHT_SCALE,
        checking(language, "scale", f"assert scale({x}, 4).shape == (2, 3)"),  # 9: passes
        checking(language, "attend", f"assert attend({x}).shape == (3, 3)"),  # 10: fails alone
        "print('no note')",  # 11: a cell that runs
    ])
    assert said["arguments"] in printed[4] and said["shapes"] in printed[4]
    assert said["first"] in printed[5]
    assert said["key"] in printed[6] and said["shapes"] not in printed[6]
    assert printed[7] == printed[9] == printed[10] == ""  # a stub; scale passes; attend's own
    assert printed[11] == "no note\n"


EXITING_LEN = ("class Exiting(list):\n    def __len__(self):\n        raise SystemExit(3)\n\n"
               "def shrink(x):\n    raise RuntimeError('shapes do not fit')\n")


def test_a_systemexit_from_an_argument_leaves_the_kernel_alive():
    """When the failed function's argument raises SystemExit from its __len__ while the hook
    describes it, is the note left out and the kernel still there for the next cell (not
    "the kernel died")?"""
    printed = run("en", [EXITING_LEN, "shrink(Exiting())", "print('still here')"])
    assert printed[1] == "" and printed[2] == "still here\n"


class Raising:
    """A post_run_cell result whose `info` raises `error`, as a student's object can."""

    def __init__(self, error):
        self.error = error

    @property
    def info(self):
        raise self.error


def test_the_hook_lets_only_keyboardinterrupt_through():
    """Does the hook swallow every other BaseException raised while it explains (SystemExit,
    GeneratorExit, an Exception) and let KeyboardInterrupt through, so that the student can
    still stop their kernel?"""
    for error in (SystemExit(3), GeneratorExit(), ValueError("x")):
        assert failed_cell.after_cell(Raising(error)) is None
    with pytest.raises(KeyboardInterrupt):
        failed_cell.after_cell(Raising(KeyboardInterrupt()))
