"""What IPython needs to show a cell's error, prepared once for all the kernels of a template.

A cell that raises costs its kernel a traceback, made twice (once to show it, once to keep it
for the history), and each time IPython asks inspect which module each frame belongs to:
inspect.getmodule, and again inside getsourcefile and findsource. For a frame of a notebook
cell, whose file is no module's, every one of those calls walks all of sys.modules (some
2,600 with torch) to refresh inspect's file-to-module map, then answers None: about 1.5 ms
a call, 30 ms an error; and the first error of a kernel also imported stack_data and filled
that map from nothing (20 ms more). A notebook of the bench's class raises about 2.2 errors
when graded, so this was about a tenth of its CPU.

Here, imported by the template (zygote.py) before it forks:
  - stack_data and the modules a traceback is drawn with are imported, and inspect's map of
    module files is filled, so every kernel inherits both;
  - inspect.getmodule answers None for the .py file of a frame, a traceback or code that
    is in no module's file it knows, without walking the modules, when its last walk found
    none and no module was imported or removed since (sys.modules has the same size): that
    walk maps each module's file, and a walk now would find the same. Any other object or
    file, and any answer that is a module, is inspect's own.
  - the colours of a traceback are worked out once for each style, not twice an error:
    IPython makes a new pygments style class (stack_data.style_with_executing_node) and a
    new Terminal256Formatter for every traceback it draws, and the formatter matches each of
    the style's colours to the terminal's 256 (about half of an error's cost once the walks
    above were gone). Here the same style and highlight give the same style class, and the
    same options the same formatter (one without line numbers, the only state a
    Terminal256Formatter changes as it formats); the template draws one traceback so that
    every kernel starts with them made.
The tracebacks themselves are IPython's, unchanged.
"""

import contextlib
import functools
import inspect
import os
import sys
import types

import pygments.formatters.terminal256 as terminal256
import stack_data
from IPython.core import ultratb

_getmodule = inspect.getmodule
_walked = None  # len(sys.modules) when inspect last walked them all and found no module


def getmodule(object, _filename=None):
    """inspect.getmodule, without walking every module again for a cell's file."""
    global _walked
    code = code_of(object)
    file = _filename or (code.co_filename if code is not None else None)
    if code is None or not isinstance(file, str) or not file.endswith(".py") or \
            not os.path.isabs(file):
        return _getmodule(object, _filename)
    if _walked == len(sys.modules) and \
            os.path.normcase(os.path.abspath(file)) not in inspect.modulesbyfile:
        return None
    module = _getmodule(object, file)
    if module is None:  # inspect walked every module (an absolute file never fails it)
        _walked = len(sys.modules)
    return module


def code_of(object):
    """The code object whose file inspect reads for a frame, a traceback or code; else None
    (inspect finds anything else, a function or a class, by its module's name). For code of
    a .py file, inspect's answer is the same with or without the file's name given; given,
    inspect does not ask itself again with it before it walks the modules."""
    if isinstance(object, types.TracebackType):
        object = object.tb_frame
    if isinstance(object, types.FrameType):
        object = object.f_code
    return object if isinstance(object, types.CodeType) else None


class KeptTerminal256Formatter(terminal256.Terminal256Formatter):
    """pygments' Terminal256Formatter, made once for the same options: asked again, the one
    made before (its colour table already worked out). A formatter with line numbers, or
    options that cannot be compared, is made anew each time, as pygments makes it."""

    _made = {}  # options (sorted items) -> the formatter made with them

    def __new__(cls, **options):
        made = cls._made.get(options_key(options))
        return made if made is not None else super().__new__(cls)

    def __init__(self, **options):
        key = options_key(options)
        if key is not None and self._made.get(key) is self:
            return  # made with these options before
        super().__init__(**options)
        if key is not None:
            self._made[key] = self


def options_key(options):
    """A formatter's options as a key to find it by; None when it must be made anew."""
    if options.get("linenos"):
        return None
    key = tuple(sorted(options.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def draw_one():
    """Draw one traceback as a kernel's shell does (IPython's default theme and highlight),
    so that the style class and the formatter it needs are made here, once. A warm-up only:
    if it cannot be drawn, each kernel makes them at its first error."""
    with contextlib.suppress(Exception):
        try:
            raise ValueError("the template's own")
        except ValueError as error:
            ultratb.AutoFormattedTB(mode="Context", theme_name="neutral").structured_traceback(
                type(error), error, error.__traceback__)


def install():
    """Prepare what a traceback needs (see the module's docstring)."""
    from IPython.utils import PyColorize  # noqa: F401

    inspect.getmodule = getmodule
    getmodule(compile("", "/the template.py", "exec"))  # inspect maps every module's file
    stack_data.style_with_executing_node = functools.cache(stack_data.style_with_executing_node)
    terminal256.Terminal256Formatter = KeptTerminal256Formatter
    draw_one()
