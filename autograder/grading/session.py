"""Grade one notebook: its code runs in a sandboxed kernel, its steps are judged here.

Student cells run first, in the notebook's order, in the kernel as written. Test cells never
run: once every student cell has run, the grader judges the steps the test cells name
(`check_step("name", ...)` in their hidden part, which the gradebook keeps), in the release's
order whatever order the submission has (a step whose rules read its text first:
`judging_order`), calling the student's functions in the kernel on
inputs drawn for this grading and comparing the plain numbers that come back with the
reference package and the documents. A step's rules are decided on the text the grader reads
from the notebook (checks/code_rules.closure: the step's last definition and every statement
of the student's it needs), and the step is called where only that text has run: judging
begins in a fresh kernel with no file of the notebook's folder, where the release's locked
cells run, then each step's text before its checks. A text that may change what other code
sees (an attribute stored on a module, `global`, setattr) gets the next step a fresh kernel
too, so no step's text stands in for another's.

A notebook whose cells left to run only define (grading/unread_cells.py) starts no kernel
before judging (`first_kernel`): its cells are read as cells that ran, and each step's text
runs where it is judged, as always.

When the kernel dies or runs out of time, what it was doing scores 0: a cell is skipped, a
step fails. A fresh kernel then replays the cells that ran, so the rest of the notebook is
still graded. Where even the replay cannot finish (the notebook's time is spent), the
student's later cells stop: those that define answers are read as cells that ran, the others
are skipped, and every step is judged as always, in a kernel of its own. A cell that leaves
processes running (a fork, a daemon) has them killed and the kernel replaced the same way,
and is itself never replayed (it would start them again).

Time is given so that a step that loops forever costs that step only: the student's cells
share the notebook's budget (a cell, the cell's limit), of which the last third is kept for
the cells that define the answers and the course's locked cells (a cell that does neither,
such as one that shows a result, is not run in it); then each step's checks get one cell's
limit of their own, and each start of the kernel that judges them (the course's cells run in
it, none of the student's) a notebook budget of its own: what a step's checks took, or an
earlier start, is never charged to it. A notebook's grading is so bounded by one budget, and
one limit and at most one start per step, and cells that call a looping function many times
cannot starve the answers defined, or the steps judged, after them. Nothing a notebook
holds (its size, its metadata, what its code returns) can stop the grader: each problem is a
finding of that notebook. What a cell shows is kept as text and PNG images only, bounded
(autograder/grading/shown_outputs.py), and every text the grader writes is in the course's
language (the caller sets it).
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import time
from dataclasses import dataclass

from autograder.checks.code_rules import closure, course_key, helpers_read, judged, without_magics
from autograder.checks.draws import KERNEL, Draws
from autograder.checks.hidden import references
from autograder.checks.judge import error_kind, step_findings, verdict_message
from autograder.checks.model import Finding
from autograder.course.shown_outputs import (
    MAX_IMAGE_KB,
    MAX_IMAGES,
    image_count,
    new_output,
    shown_outputs,
    without_images,
)
from autograder.course.submission_files import CELL_CODE_BYTES
from autograder.grading.raised_cells import defines_unrun, raised, ran_part
from autograder.grading.remote_subject import RemoteSubject
from autograder.i18n import current, t
from autograder.plumbing.timeline import mark
from autograder.sandbox import spare_kernel
from autograder.sandbox.kernel import SCRATCH_PREFIXES, KernelGone, SandboxedKernel, new_scratch
from autograder.sandbox.link import CONVERSE_CELL, GUARD_CELL, Link, StudentError

KEPT_FOR_ANSWERS = 1 / 3  # of the notebook's budget, not given to cells that define no answer
STEP_CALL = re.compile(r"""check_step\(\s*["'](\w+)["']""")


def steps_checked(source):
    """The steps a master test cell names (`check_step("name", ...)`), known to the course
    or not: a name without hidden checks fails (Session.judge)."""
    return STEP_CALL.findall(source)


def judging_order(checked, steps):
    """The indices of test cells (each the names of the steps it checks, in the release's
    order) in the order they are judged: first those that check a step whose rules read its
    text, which is judged where no other step's text ran (Session.judge), so the first of
    them takes the judging kernel as it starts, not a kernel of its own; then the others.
    Each keeps the release's order among its kind, so every grading judges alike."""
    def reads_text(names):
        return any(rule.reads_text for name in names if name in steps
                   for rule in steps[name].rules)
    return sorted(range(len(checked)), key=lambda index: not reads_text(checked[index]))


def forgetting(names):
    """A cell that removes `names` (code_rules.COURSE_HELPERS: the helper cell's own code)
    from the kernel's namespace; run silent, it shows nothing and leaves no name behind."""
    return f"[globals().pop(name, None) for name in {tuple(sorted(names))!r}]"


def helpers_read_in(text, helpers):
    """Why a step's text cannot be graded because it reads names of the helper cell's own
    code (code_rules.helpers_read), or None."""
    if not text or not helpers:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # the rules say so (code_rules.judged)
    return helpers_read(tree, helpers, current())


def why_undefined(name, ran, unfinished, stops=()):
    """Why a step is not defined when a cell of the student's whose text defines it (a def, a
    class or an assignment at its top) shows why: it does not parse (among the cells that
    `ran`), it was stopped midway (`unfinished`: (cell, why)), or it raised before the
    definition (`stops`: Raised); None otherwise."""
    defines = re.compile(rf"^[ \t]*(?:async[ \t]+def|def|class)[ \t]+{re.escape(name)}\b"
                         rf"|^{re.escape(name)}[ \t]*=", re.MULTILINE)
    for source in ran:
        if defines.search(source):
            try:
                ast.parse(without_magics(source))
            except SyntaxError as error:
                return t("the cell that defines it does not run: {kind} on its line {line} "
                         "({message}); fix the cell and run it", kind=type(error).__name__,
                         line=error.lineno, message=error.msg)
            except (ValueError, RecursionError, MemoryError):
                continue
    for source, reason in unfinished:
        if defines.search(source):
            return t("the cell that defines it was stopped midway: {reason}; make it finish "
                     "(an endless loop, or a long run at the top of the cell?)", reason=reason)
    for stop in stops:
        if defines_unrun(stop, defines):
            return t("the cell that defines it raised {kind} on its line {line}, before the "
                     "definition ran; fix the cell and run it", kind=stop.kind, line=stop.line)
    return None


@dataclass(frozen=True)
class Bounds:
    """Sizes one notebook may reach in grading (bytes)."""

    source: int = CELL_CODE_BYTES  # one cell's code
    cell_output: int = 256 << 10  # what one cell shows, images apart
    notebook_output: int = 2 << 20  # what all cells show together, images apart
    reply: int = 64 << 20  # one answer of the kernel, or one stand-in call
    image: int = MAX_IMAGE_KB << 10  # one image (a plot), as a PNG file
    images: int = MAX_IMAGES  # images of the whole notebook


def error_output(name, message):
    return new_output("error", ename=name, evalue=message, traceback=[f"{name}: {message}"])


def stdout(text):
    return new_output("stream", name="stdout", text=text)


def bounded(outputs, limit):
    """(the outputs that fit in `limit` bytes, with a note when some were cut, bytes used):
    of a printed text that does not fit whole, its first part that does. Images count apart
    (Bounds.image, Bounds.images)."""
    kept, used = [], 0
    for output in outputs:
        size = len(json.dumps(without_images(output)))
        if used + size > limit:
            if (head := text_head(output, limit - used)) is not None:
                kept.append(head)
                used += len(json.dumps(head))
            kept.append(stdout(t("[output cut by the grader: a cell may show at most "
                                 "{limit} KB]", limit=limit >> 10) + "\n"))
            break
        kept.append(output)
        used += size
    return kept, used


def text_head(output, room):
    """The printed text `output` (a stream) cut to its first lines that take at most `room`
    bytes as the notebook keeps them, or None (another kind of output, or no room)."""
    text = output.get("text") if output.get("output_type") == "stream" else None
    if not isinstance(text, str) or room <= 0:
        return None
    low, high = 0, min(len(text), room)  # the longest head that fits (escapes take room)
    while low < high:
        middle = (low + high + 1) // 2
        if len(json.dumps({**output, "text": text[:middle]})) <= room:
            low = middle
        else:
            high = middle - 1
    end = text.rfind("\n", 0, low) + 1 or low  # whole lines, where there is one
    return type(output)({**output, "text": text[:end]}) if end else None


def unchecked_finding(name, why=None):
    """The finding of a step the course declares no hidden checks for: it scores 0."""
    return Finding("course", name, t(
        "the course declares no hidden checks for {name} ({why}), so this test cannot be "
        "passed; the instructor must add them to the assignment's checks.py and grade again",
        name=name, why=why or t("its assignment's checks.py has no step of that name")))


# Methods that change the object they are called on in place, as a module's namespace
# (`torch.__dict__.setdefault`, `vars(torch).update`, `sys.modules.setdefault`) or a
# table another step reads can be changed without a store the text shows.
MUTATORS = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "pop",
                      "popitem", "clear", "remove", "discard", "__setitem__", "__delitem__",
                      "__setattr__", "__delattr__"})
MADE_HERE = (ast.Call, ast.ListComp, ast.DictComp, ast.SetComp)  # make a value of its own


def changes_shared_state(text):
    """Whether running a step's text may change what another step's code sees: an attribute
    or item stored on something it did not make (a module, a class), setattr or delattr, a
    method that changes such a thing in place (MUTATORS), a `global` statement. `self.w =
    ...`, `rows.append(...)` on a list it made, and stores on a function's own new objects
    do not."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    scopes = [(tree, set())] + [(f, own_objects(f)) for f in ast.walk(tree)
                                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    for scope, own in scopes:
        for node in nodes_of(scope):
            if isinstance(node, ast.Global):
                return True
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in \
                    {"setattr", "delattr"}:
                return True
            if isinstance(node, ast.Attribute | ast.Subscript) and \
                    isinstance(node.ctx, ast.Store | ast.Del) and not owned(node.value, own):
                return True
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in MUTATORS and not owned(node.func.value, own):
                return True
    return False


def owned(target, own):
    """Is `target` (what is stored into, or changed in place) reached from a name of `own`?
    `vars(torch)` or `globals()` is not: what a call returns may be anything's."""
    while isinstance(target, ast.Attribute | ast.Subscript):
        target = target.value
    return isinstance(target, ast.Name) and target.id in own


def nodes_of(scope):
    """The nodes of a module or function outside its nested functions."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            todo += ast.iter_child_nodes(node)


def own_objects(function):
    """Names whose objects a function made or was given to fill: its first parameter (self)
    and locals bound to what a call returns (a new module, a new tensor), a comprehension, or
    an empty list, dict or set."""
    params = function.args.posonlyargs + function.args.args
    own = {params[0].arg} if params else set()
    for node in nodes_of(function):
        if isinstance(node, ast.Assign) and made_here(node.value):
            own.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return own


def made_here(value):
    """A new object, nothing else's inside it: a call's result, a comprehension, or an empty
    list, dict or set written out (`[torch]` holds a module another step sees)."""
    return isinstance(value, MADE_HERE) or (
        isinstance(value, ast.List | ast.Set | ast.Tuple) and not value.elts) or (
        isinstance(value, ast.Dict) and not value.keys)


class NotebookKernelError(RuntimeError):
    """The kernel that runs the notebook's cells could not be started, twice: the machine
    refused it (a limit on processes or memory, the sandbox), before any code of the
    student's ran in it. The notebook is not graded (engine/worker.py), and the instructor is
    told to look at the machine, not at the notebook."""


class JudgingKernelError(RuntimeError):
    """The kernel that judges the steps could not be started: the machine refused it (a
    limit on processes or memory, the sandbox), before any code of the student's ran in it.
    The notebook is not graded (engine/worker.py), rather than scored 0 for the machine's
    failure."""


class Session:
    """One notebook's grading. `steps`: the hidden checks of its assignment, by name;
    `unchecked`: why the course has none when it has none (its checks.py cannot be read)."""

    def __init__(self, folder, settings, notebook_timeout, cell_timeout, bounds=Bounds(),
                 steps=None, unchecked=None, course_cells=(), course_texts=(),
                 first_kernel=True, draws=None, course_helpers=frozenset()):
        self.first_kernel = first_kernel  # False: no cell runs before judging (defined)
        self.steps = steps or {}
        self.draws = draws or Draws()  # the notebook's (checks/draws.py): its hidden inputs
        self.unchecked = unchecked
        self.course_cells = list(course_cells)  # the release's locked cells: run to judge
        self.course_texts = list(course_texts)  # the release's cells: never the student's
        self.course_keys = frozenset(map(course_key, self.course_texts))
        self.course_helpers = course_helpers  # the helper cell's names no step may read
        self.forget_cell = forgetting(course_helpers) if course_helpers else None
        # what the template prepares (sandbox/cell_cache.py): the cells every kernel runs
        self.warmed = [*self.course_texts, *filter(None, [self.forget_cell]), GUARD_CELL,
                       CONVERSE_CELL]
        self.kernel = SandboxedKernel(folder, settings)
        self.empty_folder = None  # where the judging kernel runs: no file of the notebook's
        self.notebook_timeout = notebook_timeout
        self.deadline = time.monotonic() + notebook_timeout  # of what runs now
        self.judging = False  # the student's cells are done: steps are being judged
        self.cell_timeout = cell_timeout
        self.bounds = bounds
        self.link = Link(self.kernel, self.timeout, bounds.reply)
        self.ran = []  # cells that ran, in order: replayed after a crash, read by closure
        self.unfinished = []  # (cell, why) of cells stopped midway: a step they define is said
        self.raised = []  # Raised: cells that stopped at an error, only their start in `ran`
        self.unreplayed = set()  # indices in `ran` of cells not run again after a crash:
        # those that left processes running, and those not run at all (not_run)
        self.refused = []  # files of the notebook's folder not copied, and why
        self.shared = False  # a judged text may have changed what the next step's code sees
        self.used = False  # a step's text ran in the judging kernel since it started
        self.shown = 0  # bytes of output kept so far, images apart
        self.images = 0  # images kept so far
        self.broken = None  # why the steps cannot be judged
        self.preparing = False  # the course's code runs in the judging kernel, none of the
        # student's yet: its runs have the start's whole budget, not a cell's limit
        self.stopped = None  # why the student's cells no longer run (judging goes on)

    def timeout(self, kept=0.0):
        """Seconds the next run may take: the cell's limit, within what is left of the
        current budget beyond the `kept` seconds."""
        left = self.deadline - time.monotonic() - kept
        if left <= 0:
            raise KernelGone(t("the notebook's time limit was reached"))
        return left if self.preparing else min(self.cell_timeout, left)

    def __enter__(self):
        if not self.first_kernel:  # no kernel before judging: what start would refuse
            self.refused = self.kernel.refusals()
            return self
        try:
            # The template prepares the course's cells first (only once per assignment): a
            # template that died doing it is started again below, like a failed start.
            self.kernel.warm(self.warmed)
            self.kernel.start()
        except Exception:  # noqa: BLE001 - once more: a start can fail for reasons of the moment
            self.kernel.stop()
            self.start_again(NotebookKernelError)
        self.refused = list(self.kernel.refused)
        return self  # no agent yet: each step makes it anew in the judging kernel (judge)

    def __exit__(self, *exc):
        self.kernel.stop()
        if self.empty_folder:
            shutil.rmtree(self.empty_folder, ignore_errors=True)
        spare_kernel.prepare(self.kernel.settings)  # for the next notebook, where one is kept

    def begin_judging(self):
        """A fresh kernel, in a folder with none of the notebook's files, guarded before
        anything else runs in it (sandbox/guard.py), where only the release's locked cells
        have run: each step's text then runs in it before its checks, every operation of the
        student's recorded from its first line. Each start and the course's cells get a
        notebook budget of their own, a cell's limit not applying to the course's code: a
        loaded machine's slow start, or the time an earlier step's checks took, never leaves a
        later step unjudged (a course cell run past the cell's 10 s on a loaded machine once
        lost a notebook of 08 a named mistake on a regrade)."""
        mark("grading: a judging kernel begins")
        self.judging = True
        self.deadline = time.monotonic() + self.notebook_timeout
        self.shared = self.used = False
        if self.empty_folder is None:
            self.empty_folder = new_scratch(SCRATCH_PREFIXES[1])
        self.kernel.folder = self.empty_folder
        self.preparing = True
        try:
            # Done already, unless no kernel ran before judging.
            self.kernel.warm(self.warmed)
            self.kernel.stop()
            spare = spare_kernel.take(self.kernel.settings)  # started ahead, in serve
            if spare is not None:
                self.kernel.take_over(spare)
            else:
                self.start_judging_kernel()
            self.link.guard(self.draws.seed(KERNEL))
            for source in self.course_cells:
                self.kernel.execute(source, self.timeout(), silent=True)
            if self.forget_cell:  # the checks' own code is not the student's to call
                self.kernel.execute(self.forget_cell, self.timeout(), silent=True)
            with self.link.talking():  # what ran so far was the course's; now the student's
                self.link.configure(student=True)
        except JudgingKernelError:
            raise  # the machine's failure, not the notebook's: it is not graded
        except KernelGone as gone:
            if time.monotonic() >= self.deadline:  # no code of the student's ran in it yet:
                raise JudgingKernelError(gone.reason) from gone  # a machine too busy
            self.broken = t("the kernel that judges the steps could not be started ({error})",
                            error=gone.reason)  # it died: with resource limits only, the
            # student's earlier cells may have killed its template (engine/worker.py)
        except (RuntimeError, StudentError) as error:
            self.broken = t("the kernel that judges the steps could not be started ({error})",
                            error=getattr(error, "reason", error))
        finally:
            self.preparing = False

    def start_judging_kernel(self):
        """Start the judging kernel, once more when a start fails (as the first kernel's);
        JudgingKernelError when the second fails too."""
        try:
            self.kernel.start()
        except Exception:  # noqa: BLE001 - once more: a start can fail for reasons of the moment
            self.kernel.stop()
            self.start_again(JudgingKernelError)

    def start_again(self, failure):
        """The kernel's second start, after a failed one; `failure` (NotebookKernelError,
        JudgingKernelError) when it fails too, whatever the error: no code of the student's
        ran in the kernel yet, so the machine failed, not the notebook."""
        try:
            self.kernel.start()
        except BaseException as error:
            self.kernel.stop()  # nothing of a kernel that never ran is left behind
            if isinstance(error, Exception):
                raise failure(f"{type(error).__name__}: {error}") from error
            raise

    def recover(self, gone):
        """A fresh kernel with every cell that ran so far; on failure the student's later
        cells stop (`stopped`), not the judging. While judging, a fresh judging kernel
        (begin_judging)."""
        if self.judging:
            self.begin_judging()
            return
        try:
            self.kernel.restart()
            for index, source in enumerate(self.ran):
                if index not in self.unreplayed:
                    self.kernel.execute(source, self.timeout(), silent=True)
        except (KernelGone, RuntimeError) as again:
            # Only the student's later cells stop: the steps are judged in a kernel of their
            # own, on a budget of their own, from what the cells define (begin_judging).
            self.stopped = t("{reason}, and the kernel could not be brought back ({error})",
                             reason=gone.reason, error=again)

    def clear_strays(self, cell=None):
        """Kill what a cell or a check left running (a daemon, or a copy of the kernel made by
        os.fork, which shares its sockets and its share of processes); then, as after a crash,
        a fresh kernel replays the cells that ran, and what the replay starts again is killed
        too. The student's cell that left them (`cell`, its index in `ran`) is not replayed,
        then or after a later crash: run again, it would start them again (a fork bomb forks
        until the machine refuses, which can take longer than a cell may). Whether processes
        were left; a notebook that leaves nothing running pays nothing but the look."""
        if self.broken:
            return False
        try:
            if not self.kernel.kill_strays():
                return False
        except RuntimeError:
            pass
        if cell is not None:
            self.unreplayed.add(cell)
        self.recover(KernelGone(t("it left processes running (a fork or a daemon)")))
        if not self.broken:
            self.kernel.kill_strays()
        return True

    def run_cell(self, source, answer=True):
        """(outputs, execution count or None) of a code cell; `answer` when it defines an
        answer or is locked: a cell that is neither does not run in the time kept for those."""
        if self.broken:
            return [error_output("NotRun", self.broken)], None
        if self.stopped:
            return self.after_stop(source, answer), None
        if len(source) > self.bounds.source:
            return [error_output("NotRun", t(
                "this cell has {size} KB of code, more than the {limit} KB a cell may have; "
                "it was not run", size=len(source) >> 10, limit=self.bounds.source >> 10))], None
        kept = 0.0 if answer else self.notebook_timeout * KEPT_FOR_ANSWERS
        if self.deadline - time.monotonic() <= kept:
            return [error_output("NotRun", t(
                "the notebook's time is running out, and what is left is kept for the cells "
                "that define your answers; this cell was not run"))], None
        try:
            outputs, status = self.kernel.execute(source, self.timeout(kept))
        except KernelGone as gone:
            self.unfinished.append((source, gone.reason))
            self.recover(gone)
            return [error_output("KernelDied", t("{reason}; this cell was skipped",
                                                 reason=gone.reason))], None
        # What ran of a student's cell is what it defines (raised_cells.py); the course's own
        # cells stay whole, known by their key, never read as the student's text.
        stop = None if course_key(source) in self.course_keys else raised(source, outputs,
                                                                         status)
        if stop is not None:
            self.raised.append(stop)
        self.ran.append(source if stop is None else ran_part(stop))
        if self.clear_strays(cell=len(self.ran) - 1) and not (self.broken or self.stopped):
            outputs.append(stdout(t(
                "[this cell left processes running (a fork or a daemon): the grader stopped "
                "them and started the kernel again with the cells before this one, so what "
                "this cell did is not kept for the cells after it]") + "\n"))
        count = next((o.get("execution_count") for o in outputs
                      if o.get("execution_count")), None)
        outputs = shown_outputs(outputs, self.bounds.image, self.bounds.images, self.images)
        limit = min(self.bounds.cell_output, self.bounds.notebook_output - self.shown)
        outputs, used = bounded(outputs, max(limit, 0))
        self.shown += used
        self.images += image_count(outputs)
        return outputs, count

    def after_stop(self, source, answer):
        """The outputs of a cell after the student's cells stopped (`stopped`): it does not
        run, but a cell that defines an answer (or is the course's) is read as a cell that
        ran, as `defined` reads one, so its steps are judged on it in the judging kernel. A
        cell that does neither is skipped, saying why."""
        if not answer:
            return [error_output("NotRun", self.stopped)]
        self.ran.append(source)
        return [stdout(t("[not run here: {why}; what this cell defines runs where each step "
                         "is judged]", why=self.stopped) + "\n")]

    def not_run(self, source):
        """The outputs of a release's cell that only shows (grading/unread_cells.py): it is
        not run, but closure reads it as a cell that ran, as it did in the student's notebook
        (the course's cells are never the student's text, but what they bind ends an earlier
        binding of the student's), so each step is judged on the same text as when it ran."""
        self.ran.append(source)
        self.unreplayed.add(len(self.ran) - 1)
        return [stdout(t("[not run in grading: no check reads what this cell makes; run it in "
                         "your notebook to see what it shows]") + "\n")]

    def defined(self, source):
        """The outputs of a cell that only defines (GradeInSandbox: `defines_only`), in a
        notebook whose grading runs nothing before judging: it is not run, but is a cell
        that ran, as closure reads it, and its definitions run where a step needs them, in
        the judging kernel. It shows nothing, as it would have shown nothing run."""
        self.ran.append(source)
        return []

    def judge(self, name):
        """The Findings of one step (empty when it passes). Nothing the student's code does
        makes this raise: a failure of the grader's own is a finding too."""
        step = self.steps.get(name)
        if step is None:
            return [unchecked_finding(name, self.unchecked)]
        if self.broken:
            return [Finding("error", name, self.broken)]
        # Judging begins, or starts afresh: after a text that may have changed what others
        # see, and for a step whose rules read its text, once another step's text ran (a
        # function an earlier text bound, by whatever means, would run unread by its rules).
        if not self.judging or self.shared or (
                self.used and any(rule.reads_text for rule in step.rules)):
            self.begin_judging()
        if self.broken:
            return [Finding("error", name, self.broken)]
        self.deadline = time.monotonic() + self.cell_timeout  # this step's text and checks
        text = closure(self.ran, name, self.course_keys)  # what runs: with what it calls
        # What the rules read: without the earlier steps it uses, which the references
        # stand in for while it is judged (a rule break there costs only that step).
        subject = RemoteSubject(self.link, name, source=closure(
            self.ran, name, self.course_keys, apart=step.uses))
        self.link.records = subject.records  # from the step's text on, every reply's record
        try:
            return self.checked(step, subject, text)
        finally:
            self.link.records = None
            # A step that tampered with the recording may have left the kernel changed: the
            # next one is judged in a fresh kernel, so that it pays for nothing of this one's.
            self.shared = self.shared or any(r["tampered"] for r in subject.records)

    def checked(self, step, subject, text):
        """The Findings of a step's text run in the judging kernel and its checks. A text
        that reads the helper cell's own names (removed in the judging kernel) is not run:
        it loses the step as the public check "graded on its own" says."""
        name = step.name
        reason = helpers_read_in(subject.source, self.course_helpers)
        if reason:
            return [Finding("error", name, t("{name} cannot be graded on its own: {reason}",
                                             name=name, reason=reason))]
        try:
            failure = self.run_text(text) if text else None
            with self.link.talking():  # the step's requests: one run in the kernel
                if not self.link.request("defined", None, name=name):
                    why = judged("forbids_names", (), text, current()) if text else None
                    cause = why_undefined(name, self.ran, self.unfinished, self.raised)
                    return [Finding("error", name, (t(
                        "{name} is not defined: {cause}", name=name, cause=cause) if cause
                        else t("{name} is not defined: run the cell that defines it, and keep "
                               "its name", name=name)) + "".join(f" ({reason})" for reason
                                                                 in [why] if reason)
                        + (" " + failure if failure else ""))]
                helpers = references(step, self.steps)
                with self.link.stand_ins(helpers):
                    return step_findings(step, subject, helpers, self.draws)
        except KernelGone as gone:
            self.recover(gone)
            return [Finding("error", name, t("checking {name}: {reason}", name=name,
                                             reason=gone.reason))]
        except StudentError as error:
            return [Finding("error", name, t("the grader could not call your code: {error}",
                                             error=error))]
        except Exception as error:  # noqa: BLE001 - one notebook never stops the grader
            return [Finding("error", name, t("the grader could not check {name} ({kind}: "
                                             "{message})", name=name, kind=error_kind(error),
                                             message=str(error)[:200]))]

    def run_text(self, text):
        """Run a step's text in the judging kernel; what went wrong, said for the student, or
        None. A text that may change what others see gets the next step a fresh kernel."""
        self.shared = self.shared or changes_shared_state(text)
        self.used = True
        outputs, status = self.kernel.execute(text, self.timeout())
        if status != "error":
            return None
        error = next((o for o in outputs if o.get("output_type") == "error"), {})
        return t("(Your code for it, run on its own after the course's cells, raised "
                 "{kind}: {message}; graded code may use only the course's cells, what it "
                 "defines itself and the libraries.)", kind=str(error.get("ename", "")),
                 message=str(error.get("evalue", ""))[:200])

    def test_cell(self, names, cell_id=""):
        """(outputs, findings) of a test cell that names these steps: the first failing
        step's verdict as an error, else a line per step that passed. A cell that names no
        step fails: nothing would be checked."""
        if not names:
            finding = Finding("course", cell_id.removeprefix("test_"), t(
                "the course's master notebook names no step for this test cell to check, so "
                "it cannot be passed; the instructor must rebuild the assignment"))
            return [error_output("AssertionError", finding.text)], [finding]
        findings = {}
        for name in names:
            findings[name] = self.judge(name)
            self.clear_strays()  # a step's checks never leave the next one a crowded kernel
        outputs = []
        for name in names:
            message = verdict_message(name, findings[name])
            outputs.append(error_output("AssertionError", message) if message
                           else stdout(t("{name}: every hidden check passed", name=name)
                                       + "\n"))
        errors = [o for o in outputs if o.output_type == "error"][:1]
        return errors or outputs, [f for name in names for f in findings[name]]
