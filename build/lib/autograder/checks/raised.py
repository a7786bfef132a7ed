"""How an error raised in your code is told: the arguments your function had, each shown by
its shape, and a hint to compare shapes only when shapes are what the error is about. The
notebook's test cells and the grader's hidden checks tell it with these same functions.
"""

import re

import torch

from autograder.i18n.standalone import _t

# The errors PyTorch raises when two shapes do not fit together ("mat1 and mat2 shapes cannot
# be multiplied", "The size of tensor a (3) must match ...", "Dimension out of range ...").
SHAPE_KINDS = frozenset({"RuntimeError", "IndexError", "ValueError"})
SHAPE_WORDS = re.compile(r"shape|size|dimension|\bdim\b|mat1|mat2|broadcast|expand", re.I)
LISTED_ARGUMENTS = 6
SHORT_TEXT = 40


def about_shapes(kind, message):
    """Is an error of this kind and message about shapes that do not fit?"""
    return kind in SHAPE_KINDS and bool(SHAPE_WORDS.search(str(message)))


def shape_of(value, language=None):
    """A value as an error message shows it: a tensor by its shape and dtype."""
    if isinstance(value, torch.Tensor):
        return _t("a {shape} {dtype} tensor", language, shape=tuple(value.shape),
                  dtype=str(value.dtype).removeprefix("torch."))
    if isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= SHORT_TEXT else value[:SHORT_TEXT - 3] + "...")
    if isinstance(value, list | tuple):
        return _t("a {kind} of {count}", language, kind=type(value).__name__,
                  count=len(value))
    return _t("a {kind}", language, kind=type(value).__name__)


def called_with(named, language=None):
    """'queries=a (2, 4) float32 tensor, d_k=4' for [(name, value), ...] (a name of None for a
    positional value without one)."""
    shown = [shape_of(value, language) if name is None
             else f"{name}={shape_of(value, language)}" for name, value in named]
    if len(shown) > LISTED_ARGUMENTS:
        shown = shown[:LISTED_ARGUMENTS] + ["..."]
    return _t(", ", language).join(shown)


def raised(kind, message, arguments=None, language=None, shapes=None):
    """'raised Kind: message', with the arguments of the call (when known) and the hint to
    compare shapes when the error is about shapes (`shapes`, where the message shown is not
    the error's own)."""
    text = _t("raised {kind}: {message}", language, kind=kind, message=message)
    if arguments is not None:
        text += _t(" (called with {arguments})", language, arguments=arguments)
    if about_shapes(kind, message) if shapes is None else shapes:
        text += _t("; compare each operation's shapes with the step's docstring", language)
    return text
