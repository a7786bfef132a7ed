"""Does a step that loops forever cost that step only, however many steps loop?

A step whose checks never return runs into the cell's limit, and the kernel that judges the
steps is started again for the next. With a notebook budget smaller than what two looping
steps take together, the step after them must still be judged, on a time of its own, and
earn its points. And does a cell that leaves a process running stay out of every replay of
the notebook's cells?
"""

from __future__ import annotations

import subprocess
import sys
import traceback
from pathlib import Path

import nbformat
import pytest

from autograder.checks.model import Rule, Step
from autograder.course.directory import Course, nbgrader_env
from autograder.engine.worker import JUDGING_FAILED, NOTEBOOK_KERNEL_FAILED, failure_reason
from autograder.grading.grade_in_sandbox import defines_an_answer
from autograder.grading.parallel import fix_for, grade
from autograder.grading.session import (
    JudgingKernelError,
    NotebookKernelError,
    Session,
    changes_shared_state,
    judging_order,
)
from autograder.plumbing.timeline import VARIABLE
from autograder.sandbox.kernel import Settings
from autograder.tools import simulate

ROOT = Path(__file__).resolve().parents[3]
ID = "03_scaled_dot_product"
CELL_TIMEOUT = 6
NOTEBOOK_TIMEOUT = 10  # less than two looping steps' checks (2 x 6 s) and the starts between
ENDLESS_PROJECT = """
def project(x, W):
    while True:
        pass
"""
ENDLESS_SOFTMAX = """
def scaled_softmax(scores, d_k):
    while True:
        pass
"""


def test_looping_steps_do_not_starve_the_step_after_them(tmp_path):
    """With `project` and `scaled_softmax` looping forever, does the notebook still earn
    every point of the step after them? Neither the time their checks took nor a slow start
    of the judging kernel before (a loaded machine's) is charged to the next start: all three
    once shared one notebook budget, and the last step, or on a loaded machine every step
    after the first loop, scored 0 as its kernel could not be started."""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    with open(course.root / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write(f"\nc.GradeInSandbox.notebook_timeout = {NOTEBOOK_TIMEOUT}\n")
    course.generate(ID)
    hand_in(course, ID, "looping", {"project": ENDLESS_PROJECT, "scaled_softmax": ENDLESS_SOFTMAX})

    run = grade(course.root, [ID], workers=1, timeout=CELL_TIMEOUT, log=lambda _: None)

    assert not run.failed, run.failed
    scores = course.cell_scores(ID, "looping")
    assert sorted(scores) == ["test_project", "test_scaled_dot_product_attention",
                              "test_scaled_softmax"], "03's steps changed: choose them anew"
    for looping in ("test_project", "test_scaled_softmax"):
        assert scores[looping].score == 0, f"{looping} loops forever and still scored"
    last = scores["test_scaled_dot_product_attention"]
    assert last.score == last.max_score, \
        "the step after two looping ones lost its points: " + said_under(
            course.root / "autograded" / "looping" / ID / f"{ID}.ipynb",
            "test_scaled_dot_product_attention")


def hand_in(course, assignment, student, answers):
    """Submit the correct notebook of `assignment` for `student`, each step of `answers`
    redefined right after its cell by its code."""
    release = nbformat.read(course.root / "release" / assignment / f"{assignment}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / assignment / f"{assignment}.ipynb", 4)
    notebook = simulate.correct(release, source)
    for step, code in answers.items():
        notebook = simulate.after_cell(notebook, step, code)
    course.submit(student, assignment, notebook)


def said_under(path, grade_id):
    """The text the graded notebook at `path` shows under its cell `grade_id`."""
    notebook = nbformat.read(path, 4)
    cell = next(c for c in notebook.cells
                if c.get("metadata", {}).get("nbgrader", {}).get("grade_id") == grade_id)
    return " | ".join(str(o.get("text", "")) + str(o.get("evalue", "")) for o in cell.outputs)


def test_a_cell_that_redefines_a_step_is_an_answer():
    """Does the time kept for answers go to a student's own cell that binds a step's name (a
    later definition is the one judged), and not to one that only shows a result? Under
    load, the redefinition was skipped and the earlier definition judged in its place."""
    steps = {"project": None, "scaled_softmax": None}
    plain = nbformat.v4.new_code_cell
    assert defines_an_answer(plain(ENDLESS_PROJECT), steps)
    assert defines_an_answer(plain("scaled_softmax = lambda s, d: s"), steps)
    assert not defines_an_answer(plain("print(project(x, W))"), steps)
    assert not defines_an_answer(plain("def helper(x):\n    return x"), steps)
    assert not defines_an_answer(plain("this is not python"), steps)


DAEMON_CELL = """import subprocess
subprocess.Popen(["sleep", "60"], start_new_session=True)
left = 2
"""


def shown(outputs):
    return "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")


def test_a_cell_that_leaves_a_process_running_is_never_replayed(tmp_path):
    """A cell that starts a daemon and defines a name: is the daemon stopped, is the cell
    told so under its output, and is the kernel started again with the cells before it only
    (the name gone); and after a later cell crashes the kernel, is the replay still without
    that cell, while the cells before and after it are replayed?"""
    settings = Settings(hidden=(str(ROOT),))
    with Session(tmp_path, settings, notebook_timeout=60, cell_timeout=10) as session:
        session.run_cell("before = 1")
        outputs, _ = session.run_cell(DAEMON_CELL)
        assert "left processes running" in shown(outputs)
        assert session.kernel.kill_strays() == 0  # the daemon is gone
        assert shown(session.run_cell("after = 3\nprint(before, 'left' in globals())")[0]) \
            == "1 False\n"
        crashed, _ = session.run_cell("import os\nos._exit(1)")
        assert [o.get("ename") for o in crashed] == ["KernelDied"]
        outputs, _ = session.run_cell("print(before, after, 'left' in globals())")
        assert shown(outputs) == "1 3 False\n"
        assert session.kernel.kill_strays() == 0 and not session.broken


def test_a_notebook_that_only_defines_starts_no_kernel_before_judging(tmp_path):
    """With first_kernel off, does the session start no kernel on the notebook's folder, yet
    say what of the folder a kernel would not have been given (a link), read each cell as
    one that ran, and start the judging kernel when judging begins?"""
    (tmp_path / "notes.txt").symlink_to("/etc/hostname")
    settings = Settings(hidden=(str(ROOT),))
    with Session(tmp_path, settings, notebook_timeout=60, cell_timeout=10,
                 first_kernel=False) as session:
        assert session.kernel.pid is None
        assert session.refused == ["notes.txt: a symbolic link, not copied"]
        assert session.defined("def f():\n    return 3") == []
        assert session.ran == ["def f():\n    return 3"] and session.kernel.pid is None
        session.begin_judging()
        assert session.kernel.pid is not None and not session.broken


# Cells of the student's own that no step reads. The first runs long, within the cell's limit;
# the second never ends, and once it is stopped the notebook has less time left (the part kept
# for answers) than a replay of the first needs.
EXPLORING = ["import time\ntime.sleep(5)\nprint('explored')", "while True:\n    pass"]
ID_01 = "01_attention_by_hand"


def test_slow_cells_of_the_student_s_own_cost_no_step(tmp_path):
    """With cells that only explore (no step reads them) using up the notebook's budget, so
    that after one runs out of time even the replay of the cells before it cannot finish, are
    the steps whose cells come after still judged, and a correct notebook given every point?
    """
    course = Course.create(tmp_path / "course", ROOT, [ID_01])
    with open(course.root / "nbgrader_config.py", "a", encoding="utf-8") as config:
        config.write("\nc.GradeInSandbox.notebook_timeout = 12\n")  # 4 s kept for answers
    course.generate(ID_01)
    release = nbformat.read(course.root / "release" / ID_01 / f"{ID_01}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID_01 / f"{ID_01}.ipynb", 4)
    notebook = simulate.correct(release, source)
    for code in reversed(EXPLORING):  # right after the first step: the others come later
        notebook = simulate.after_cell(notebook, "project_qkv", code)
    course.submit("exploring", ID_01, notebook)

    run = grade(course.root, [ID_01], workers=1, timeout=6, log=lambda _: None)

    assert not run.failed, run.failed
    graded = nbformat.read(course.root / "autograded" / "exploring" / ID_01 / f"{ID_01}.ipynb",
                           4)
    said = "".join(shown(cell.outputs) + "".join(o.get("evalue", "") for o in cell.outputs)
                   for cell in graded.cells if cell.cell_type == "code")
    assert "could not be brought back" in said, "the budget was not used up: no test here"
    scores = course.cell_scores(ID_01, "exploring")
    lost = {name: s.score for name, s in scores.items() if s.score != s.max_score}
    assert not lost, f"steps that were right lost points: {lost}"


def test_a_judging_kernel_the_machine_refuses_leaves_the_notebook_not_graded(tmp_path):
    """When the kernel that judges the steps cannot start (here: it may not take the time a
    start takes), is that the machine's failure, raised so the notebook is not graded (not a
    0 for every step), and told apart as such: the worker's reason and the fix it gets?"""
    settings = Settings(hidden=(str(ROOT),), start_timeout=0.001)
    with Session(tmp_path, settings, notebook_timeout=60, cell_timeout=10,
                 first_kernel=False) as session:
        with pytest.raises(JudgingKernelError):
            session.begin_judging()
        assert session.broken is None
    why = failure_reason({"error": f"autograder.grading.session.JudgingKernelError: "
                                   f"{'the sandboxed kernel did not answer within 0.001 s'}"})
    assert why == JUDGING_FAILED
    assert fix_for(why).startswith("the machine failed, not the notebook")
    assert fix_for("the kernel died (os._exit, a crash or memory exhausted)").startswith(
        "fix the notebook")


def test_the_course_s_cells_in_a_judging_kernel_are_not_held_to_a_cell_s_limit(tmp_path):
    """A locked cell of the course's that runs past a cell's limit in the judging kernel (as
    on a loaded machine, where one lost a notebook of 08 a named mistake on a regrade): is
    the kernel still started, no step left unjudged for what is not the student's code?"""
    settings = Settings(hidden=(str(ROOT),))
    with Session(tmp_path, settings, notebook_timeout=60, cell_timeout=1,
                 course_cells=["import time\ntime.sleep(2)\nslept = True"],
                 first_kernel=False) as session:
        session.begin_judging()
        assert not session.broken, session.broken
        outputs, status = session.kernel.execute("print(slept)", 5)
        assert status == "ok" and outputs[0]["text"] == "True\n", (status, outputs)


def test_a_notebook_kernel_the_machine_refuses_is_the_machines_failure(tmp_path):
    """When the kernel that runs the notebook's cells cannot start, twice (here: it may not
    take the time a start takes), before any code of the student's ran: is that raised as
    the machine's failure, with what failed, and does the instructor get the machine's
    reason and fix rather than "fix the notebook"?"""
    settings = Settings(hidden=(str(ROOT),), start_timeout=0.001)
    with pytest.raises(NotebookKernelError, match="did not answer within 0.001 s") as raised:
        with Session(tmp_path, settings, notebook_timeout=60, cell_timeout=10):
            pass
    nbgrader_error = "".join(traceback.format_exception(raised.value))
    why = failure_reason({"error": nbgrader_error, "log": ""})
    assert why == NOTEBOOK_KERNEL_FAILED
    assert fix_for(why).startswith("the machine failed, not the notebook")


STASHING_PROJECT = """
def project(x, W):
    torch.__dict__.setdefault("left_by_project", []).append(1)
    return x @ W
"""
SEEING_SOFTMAX = """
def scaled_softmax(scores, d_k):
    if "left_by_project" in torch.__dict__:
        return scores
    return torch.softmax(scores / d_k ** 0.5, dim=-1)
"""


def test_what_a_step_leaves_in_torch_in_place_is_gone_for_the_next(tmp_path):
    """A project that leaves a value in torch's namespace in place (no store the text shows:
    `torch.__dict__.setdefault(...).append`), and a scaled_softmax that answers wrong when it
    finds it there: is scaled_softmax judged in a kernel where project's judging left nothing,
    and earns its points? (Steps share a judging kernel unless a text may change what others
    see; such calls were not counted as that.)"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    hand_in(course, ID, "stashing", {"project": STASHING_PROJECT,
                                     "scaled_softmax": SEEING_SOFTMAX})

    run = grade(course.root, [ID], workers=1, log=lambda _: None)

    assert not run.failed, run.failed
    scores = course.cell_scores(ID, "stashing")
    assert scores["test_project"].score == scores["test_project"].max_score
    softmax = scores["test_scaled_softmax"]
    assert softmax.score == softmax.max_score, "scaled_softmax saw what project's judging left"


SHARING = {  # a step's text -> whether the next step needs a judging kernel of its own
    "def f(x):\n    vars(torch).update(k=x)\n    return x\n": True,
    "def f(x):\n    sys.modules.setdefault('k', x)\n    return x\n": True,
    "def f(x):\n    globals().update(k=x)\n    return x\n": True,
    "def f(x):\n    object.__setattr__(torch, 'k', x)\n    return x\n": True,
    "def f(x):\n    holder = [torch]\n    holder[0].k = x\n    return x\n": True,
    "def f(x):\n    torch.k = x\n    return x\n": True,
    "def f(x):\n    rows = []\n    rows.append(x)\n    return rows\n": False,
    "def f(x):\n    seen = {}\n    seen['a'] = x\n    return x\n": False,
    "class M:\n    def forward(self, x):\n        self.kept.append(x)\n        return x\n": False,
    "def f(x):\n    out = torch.zeros(3)\n    out.add_(1)\n    return out\n": False,
}


@pytest.mark.parametrize("text", sorted(SHARING))
def test_a_text_that_may_change_what_others_see_is_told_apart(text):
    """Is a text that changes a module or a table another step reads, in place or by a
    store, told from one that fills only lists, dicts and objects of its own?"""
    assert changes_shared_state(text) is SHARING[text]


LOOP_BOUND_BY_A_DEFAULT = """
def bilinear_score(k, q, W, _=(fast := lambda X, W_Q, W_K, W_V: torch.stack(
        [(W_V @ X) @ torch.softmax((W_K @ X).T @ (W_Q @ X)[:, i] / math.sqrt(W_Q.shape[0]),
                                   dim=0) for i in range(X.shape[1])], dim=1))):
    return torch.dot(k, W @ q)
"""
CALLS_WHAT_AN_EARLIER_TEXT_BOUND = """
def vectorized_attention(X, W_Q, W_K, W_V):
    return fast(X, W_Q, W_K, W_V)
"""


def test_a_loop_an_earlier_steps_text_bound_does_not_pass_a_rule_on_the_text(tmp_path):
    """06: bilinear_score (no rule) binds a per-query loop `fast` through a walrus in its
    default value, and vectorized_attention only calls `fast`. Is vectorized_attention judged
    where bilinear_score's text never ran, so that it earns no more than the plain loop,
    instead of passing "no Python loop" on a text of two lines (found by a helper playing a
    cheating student: 12 of 12, the plain loop 9)?"""
    assignment = "06_scoring_functions"
    course = Course.create(tmp_path / "course", ROOT, [assignment])
    course.generate(assignment)
    hand_in(course, assignment, "walrus", {
        "bilinear_score": LOOP_BOUND_BY_A_DEFAULT,
        "vectorized_attention": CALLS_WHAT_AN_EARLIER_TEXT_BOUND})
    hand_in(course, assignment, "honest", {})

    run = grade(course.root, [assignment], workers=1, log=lambda _: None)

    assert not run.failed, run.failed
    honest = course.cell_scores(assignment, "honest")
    attack = course.cell_scores(assignment, "walrus")
    step = "test_vectorized_attention"
    assert honest[step].score == honest[step].max_score
    assert attack[step].score < attack[step].max_score, "the loop bound elsewhere passed"
    assert attack["test_bilinear_score"].score == attack["test_bilinear_score"].max_score


def test_steps_with_a_rule_on_their_text_are_judged_first():
    """Are the test cells that check a step whose rules read its text put first, each kind
    in the release's order, and a cell naming a step the course does not know left among the
    others?"""
    plain = Step("plain", reference=None)
    on_text = Step("on_text", reference=None,
                   rules=(Rule("no loop", lambda _: None, (), reads_text=True),))
    on_calls = Step("on_calls", reference=None, rules=(Rule("calls", lambda _: None, ()),))
    steps = {step.name: step for step in (plain, on_text, on_calls)}
    checked = [["plain"], ["on_calls"], ["unknown"], ["plain", "on_text"], ["on_text"]]
    assert judging_order(checked, steps) == [3, 4, 0, 1, 2]
    assert judging_order([["plain"], ["on_calls"]], steps) == [0, 1]


def test_a_correct_notebook_with_a_rule_on_a_text_begins_judging_once(tmp_path):
    """06's vectorized_attention, whose rule reads its text, is the release's last step: is it
    judged first, in the judging kernel as it starts, so that a correct notebook starts one
    judging kernel and not a second for that step (some 0.1 CPU s of the notebook's 0.7), and
    still earns every point? Graded as an instructor grades, the command's processes writing
    their timeline."""
    assignment = "06_scoring_functions"
    course = Course.create(tmp_path / "course", ROOT, [assignment])
    course.generate(assignment)
    hand_in(course, assignment, "honest", {})
    timeline = tmp_path / "timeline.txt"

    done = subprocess.run([sys.executable, "-m", "autograder", "grade", assignment,
                           "--workers", "1"], cwd=course.root, capture_output=True, text=True,
                          env=dict(nbgrader_env(), **{VARIABLE: str(timeline)}), timeout=600)

    assert done.returncode == 0, done.stdout + done.stderr
    scores = course.cell_scores(assignment, "honest")
    assert scores and all(s.score == s.max_score for s in scores.values()), scores
    begun = [line for line in timeline.read_text().splitlines()
             if line.endswith("grading: a judging kernel begins")]
    assert len(begun) == 1, begun


def test_a_step_whose_cell_fails_says_why_it_is_not_defined(tmp_path):
    """project's cell has a syntax error, and scaled_softmax's cell defines it and then runs
    forever: is each step's verdict the cause (the error and its line; the time limit), not
    "run the cell that defines it" (a student on Gradescope sees the verdict alone)?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    notebook = simulate.correct(release, source)
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id == "project":
            cell.source = "def project(x, W):\n    return x @ W)\n"
        elif grade_id == "scaled_softmax":
            cell.source += "\n\nwhile True:\n    pass\n"
    course.submit("ned", ID, notebook)
    run = grade(course.root, [ID], workers=1, timeout=CELL_TIMEOUT, log=lambda _: None)
    assert not run.failed, run.failed
    graded = course.root / "autograded" / "ned" / ID / f"{ID}.ipynb"
    said = said_under(graded, "test_project")
    assert "project is not defined: the cell that defines it does not run: SyntaxError on " \
        "its line 2 (unmatched ')')" in said, said
    said = said_under(graded, "test_scaled_softmax")
    assert "scaled_softmax is not defined: the cell that defines it was stopped midway: ran " \
        f"past the time limit ({CELL_TIMEOUT} s)" in said, said


def with_cell(notebook, grade_id, edit):
    """The notebook with the source of its cell `grade_id` changed by `edit`."""
    for cell in notebook.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == grade_id:
            cell.source = edit(cell.source)
    return notebook


def test_a_definition_below_an_error_of_its_cell_is_not_graded(tmp_path):
    """A correct `project` below a failing import in its cell, once of a module no kernel has
    (a kernel runs the notebook's cells) and once of a name torch lacks (a notebook that only
    defines): does it score 0 in both, saying where the cell stopped, as the student's own
    notebook leaves it undefined? And does a correct `scaled_softmax` whose cell raises only
    after defining it keep its points?"""
    course = Course.create(tmp_path / "course", ROOT, [ID])
    course.generate(ID)
    release = nbformat.read(course.root / "release" / ID / f"{ID}.ipynb", 4)
    source = nbformat.read(ROOT / "source" / ID / f"{ID}.ipynb", 4)
    imports = {"kim": "import no_such_module_here\n", "lee": "from torch import no_such_name\n"}
    for student, line in imports.items():
        notebook = with_cell(simulate.correct(release, source), "project",
                             lambda text, line=line: line + text)
        if student == "kim":
            notebook = with_cell(notebook, "scaled_softmax",
                                 lambda text: text + "\n\nscaled_softmax(torch.ones(2, 3), 4)[5]\n")
        course.submit(student, ID, notebook)

    run = grade(course.root, [ID], workers=1, log=lambda _: None)

    assert not run.failed, run.failed
    for student, kind in (("kim", "ModuleNotFoundError"), ("lee", "ImportError")):
        scores = course.cell_scores(ID, student)
        graded = course.root / "autograded" / student / ID / f"{ID}.ipynb"
        said = said_under(graded, "test_project")
        assert scores["test_project"].score == 0, f"{student}: {said}"
        assert f"project is not defined: the cell that defines it raised {kind} on its line " \
            "1, before the definition ran" in said, said
        last = scores["test_scaled_dot_product_attention"]
        assert last.score == last.max_score, said_under(graded,
                                                         "test_scaled_dot_product_attention")
    kept = course.cell_scores(ID, "kim")["test_scaled_softmax"]
    assert kept.score == kept.max_score, said_under(
        course.root / "autograded" / "kim" / ID / f"{ID}.ipynb", "test_scaled_softmax")
