"""Helpers the test cells use: expect_tensor, expect_close and expect_equal check a result,
expect_rule checks that your code keeps a step's rule, decided by the same functions, on the
same code, as grading decides it. A failing check says what is wrong: the first wrong entry
and the largest difference, or the known mistake your numbers match. Under a failed test cell
you also see the arguments your function had when it raised, and the earlier step to fix
first when this step calls one whose test fails. use_course_font, called by the cells that
plot, sets the fonts their labels are drawn in.

You do not need to read or change this cell: run it, then go on to the steps below. Its
code is packed on one line, so the notebook runs on its own; to read it, open
course_helpers.py beside the notebook, the same code.
"""
import torch

from autograder.i18n.standalone import _t

TOLERANCE = {"rtol": 1e-3, "atol": 1e-4}  # how close a number must be to count as right
MISTAKE_HINTS = {}  # the build writes here the hint of each known mistake a test cell names
COURSE_FONT = "Noto Sans CJK SC"  # the Chinese face of the font package the course installs
OTHER_CJK_FONTS = ("Noto Sans CJK", "Source Han Sans", "WenQuanYi", "Microsoft YaHei",
                   "PingFang", "Heiti", "SimHei", "Droid Sans Fallback")


def expect_tensor(got, shape, what=None, dtype=torch.float32):
    """Assert that `got` is a tensor of this shape and dtype."""
    what = _t("the result") if what is None else what
    assert isinstance(got, torch.Tensor), _t(
        "{what} should be a torch.Tensor, but got a {kind}", what=what,
        kind=type(got).__name__)
    assert tuple(got.shape) == tuple(shape), _t(
        "{what} should have shape {shape}, but got shape {got}", what=what,
        shape=tuple(shape), got=tuple(got.shape))
    assert got.dtype == dtype, _t(
        "{what} should have dtype {dtype}, but got dtype {got}", what=what, dtype=dtype,
        got=got.dtype)


def where_wrong(got, expected):
    """Where two tensors of one shape differ: the first wrong entry, the largest difference."""
    if got.numel() == 1:
        return _t("expected {expected:.4g}, got {got:.4g}", expected=expected.item(),
                  got=got.item())
    if not expected.is_floating_point():
        wrong = got != expected
        first = [int(i) for i in wrong.nonzero()[0]]
        if int(wrong.sum()) == 1:
            return _t("1 of {total} entries differs, at index {index}: expected {expected}, "
                      "got {got}", total=wrong.numel(), index=first,
                      expected=expected[tuple(first)].item(), got=got[tuple(first)].item())
        return _t("{count} of {total} entries differ; the first at index {index}: expected "
                  "{expected}, got {got}", count=int(wrong.sum()), total=wrong.numel(),
                  index=first, expected=expected[tuple(first)].item(),
                  got=got[tuple(first)].item())
    wrong = ~torch.isclose(got, expected, **TOLERANCE)
    first = [int(i) for i in wrong.nonzero()[0]]
    gap = (got - expected).abs().nan_to_num(float("inf"))
    # The first largest gap, in row-major order as argmax finds it (torch.unravel_index would
    # import sympy into the kernel: about a CPU second).
    largest = [int(i) for i in (gap == gap.max()).nonzero()[0]]
    if int(wrong.sum()) == 1:
        return _t("1 of {total} entries differs, at index {index}: expected {expected:.4g}, "
                  "got {got:.4g}", total=wrong.numel(), index=first,
                  expected=expected[tuple(first)].item(), got=got[tuple(first)].item())
    return _t("{count} of {total} entries differ; the first at index {index}: expected "
              "{expected:.4g}, got {got:.4g}; the largest difference is {gap:.4g}, at index "
              "{largest}", count=int(wrong.sum()), total=wrong.numel(), index=first,
              expected=expected[tuple(first)].item(), got=got[tuple(first)].item(),
              gap=gap[tuple(largest)].item(), largest=largest)


def expect_close(got, expected, what=None, mistakes=()):
    """Assert that `got` equals `expected` within TOLERANCE.

    `mistakes` lists (name, the value that mistake gives) for a kinder message.
    """
    what = _t("the result") if what is None else what
    expected = torch.as_tensor(expected, dtype=torch.float32)
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        got = got.detach()
        if got.shape == expected.shape and torch.allclose(got, expected, **TOLERANCE):
            return
        for name, wrong in mistakes:  # a mistake may give another shape: name it first
            wrong = torch.as_tensor(wrong, dtype=torch.float32)
            if wrong.shape == got.shape and torch.allclose(got, wrong, **TOLERANCE):
                raise AssertionError(known_mistake(what, name, numbers=True))
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(_t("{what}: not the expected numbers. {where}", what=what,
                            where=where_wrong(got, expected)))


def known_mistake(what, name, numbers):
    """The message of a result that matches the known mistake `name`, with its hint (the
    grader's words for it) where the course has one."""
    hint = MISTAKE_HINTS.get(name)
    if numbers:
        return (_t("{what}: these are the numbers of the known mistake '{name}': {hint}",
                   what=what, name=name, hint=hint) if hint else
                _t("{what}: these are the numbers of a known mistake: {name}", what=what,
                   name=name))
    return (_t("{what}: these are the entries of the known mistake '{name}': {hint}",
               what=what, name=name, hint=hint) if hint else
            _t("{what}: these are the entries of a known mistake: {name}", what=what,
               name=name))


def expect_equal(got, expected, what=None, mistakes=()):
    """Assert that `got` equals the boolean or integer tensor `expected` exactly; `mistakes`
    as for expect_close."""
    what = _t("the result") if what is None else what
    if isinstance(got, torch.Tensor) and got.dtype == expected.dtype:
        if torch.equal(got, expected):
            return
        for name, wrong in mistakes:
            if torch.equal(got, wrong):
                raise AssertionError(known_mistake(what, name, numbers=False))
    expect_tensor(got, expected.shape, what, expected.dtype)
    raise AssertionError(_t("{what}: not the expected entries. {where}", what=what,
                            where=where_wrong(got, expected)))


def use_course_font():
    """Have matplotlib draw Chinese as well as Latin letters: Latin in its own DejaVu Sans,
    Chinese in the font the course installs (the package noto-cjk-sans-otc) or, without it,
    in a font of this machine that has Chinese. Returns the Chinese font's name, or None (with
    a note saying what to install) when there is none."""
    from matplotlib import font_manager, pyplot

    manager = font_manager.fontManager
    try:
        from noto_cjk_sans_otc import FONT_PATH
        if not any(font.fname == str(FONT_PATH) for font in manager.ttflist):
            manager.addfont(str(FONT_PATH))
    except (ImportError, OSError, RuntimeError):
        pass
    names = {font.name for font in manager.ttflist}
    found = next((name for name in (COURSE_FONT, *sorted(names)) if name in names and (
        name == COURSE_FONT or name.startswith(OTHER_CJK_FONTS))), None)
    if found is None:
        print(_t("no font of this machine draws Chinese, so the plot's Chinese labels show as "
                 "boxes: install one with pip install noto-cjk-sans-otc, then restart the "
                 "kernel"))
        return None
    pyplot.rcParams["font.family"] = ["DejaVu Sans", found]
    return found
