"""What a failed cell adds under its error, in your notebook: the arguments your function
had when it raised (each by its shape), and, under a test cell, the earlier step to fix first
when this step calls one whose test failed.

It runs after each cell (IPython's post_run_cell event) and speaks only under a cell that
failed; the build writes which earlier steps each step calls into STEP_USES.
"""

import re

from autograder.build.public_checks import expect_close
from autograder.checks.code_rules import after_every_cell
from autograder.checks.raised import about_shapes, called_with
from autograder.i18n.standalone import _t

STEP_USES = {}  # the build writes here, for each step, the earlier steps it calls
TEST_HEADER = re.compile(r"#\s*(\w+)\s*[:：]")  # a test cell's first line names its step
step_passed = {}  # step -> did its test cell pass the last time it ran


def step_of(cell_text):
    """The step a test cell checks (None for another cell)."""
    match = TEST_HEADER.match(cell_text.lstrip())
    return match.group(1) if match else None


def failing_frame(error, namespace):
    """The innermost call of a function defined in the notebook (not in this helper cell)
    that the error went through, or None."""
    helpers = expect_close.__code__.co_filename
    found, trace = None, error.__traceback__
    while trace is not None:
        frame = trace.tb_frame
        code = frame.f_code
        if frame.f_globals is namespace and code.co_name != "<module>" and \
                code.co_filename != helpers:
            found = frame
        trace = trace.tb_next
    return found


def arguments_of(frame):
    """'name=shape, ...' of a frame's parameters as they were when the error was raised."""
    code = frame.f_code
    count = code.co_argcount + code.co_kwonlyargcount
    names = [name for name in code.co_varnames[:count] if name != "self"]
    return called_with([(name, frame.f_locals.get(name)) for name in names])


def notes(step, error, namespace):
    """The lines to print under a failed cell (a test cell of `step`; None for another)."""
    if isinstance(error, NotImplementedError):  # a stub not written yet: nothing to explain
        return []
    lines = []
    frame = failing_frame(error, namespace) if error is not None else None
    if frame is not None:
        kind, message = type(error).__name__, str(error)
        lines.append(_t("{function} raised {kind} with {arguments}", function=frame.f_code.co_name,
                        kind=kind, arguments=arguments_of(frame)))
        if about_shapes(kind, message):
            lines.append(_t("compare each operation's shapes with the docstring of {function}",
                            function=frame.f_code.co_name))
    failing = [used for used in STEP_USES.get(step, ()) if step_passed.get(used) is False]
    if failing:
        lines.append(_t("{step} calls {earlier}, whose test above fails: fix {earlier} first "
                        "(this test may then pass as it is)", step=step,
                        earlier=_t(", ").join(failing)))
    return lines


def after_cell(result):
    """IPython's post_run_cell: remember whether a test cell passed; explain a cell that
    failed in a function of the notebook, and a test cell whose earlier step fails."""
    try:
        from IPython import get_ipython

        step = step_of(getattr(result.info, "raw_cell", "") or "")
        if step is not None:
            step_passed[step] = bool(result.success)
        lines = [] if result.success else notes(step, result.error_in_exec,
                                                get_ipython().user_ns)
    except KeyboardInterrupt:  # the student stopping their kernel: it stops
        raise
    except BaseException:  # noqa: BLE001 - an explanation never breaks the notebook, not even
        return  # by a SystemExit from an argument's __len__, which would end the kernel
    for line in lines:
        print(line)


def listen():
    """Explain failed test cells from now on (in IPython only; once per kernel)."""
    after_every_cell(after_cell)


listen()
