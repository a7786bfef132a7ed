"""What makes an assignment's hidden checks unfit to grade with, found before anyone is graded:
a test cell that names a step with no checks, a step with nothing that draws fresh inputs,
random cases that are not random, a rule whose probe some draws leave blind (no sequence long
enough to tell a mask), checks that fail the reference itself, and a catalogued mistake the
checks do not catch or do not name. `build` and `validate` refuse such an
assignment; `grade` says so and exits 1 (the step scores 0 for every student until fixed).

Each problem is one line naming the file and the fix. The draws are made under fixed seeds,
so a problem found is found on every run.
"""

from __future__ import annotations

import ast
import difflib

import torch

from autograder.checks.draws import CASES, Draws
from autograder.checks.hidden import references
from autograder.checks.judge import mistake_subject, property_words, step_findings
from autograder.checks.loader import CATALOG, CHECKS, GUIDE, NOTEBOOK
from autograder.checks.probes import MIN_SEQ, case_call, telling
from autograder.checks.subject import LocalSubject
from autograder.i18n import DEFAULT, catalog, language, t

DRAWS = 8  # draws of the random cases compared; a size drawn from 8 values repeats 1 in 8**7
SEEDS = (20240915, 7)  # the draws the reference must pass
PROBE_DRAWS = 256  # draws a probe must see through; one blind in 100 shows here 92 times in 100


def unchecked_steps(assignment, named):
    """A problem per name of `named` ((where, step name) of each test cell) that the
    assignment declares no checks for, and per test cell that names no step."""
    problems = []
    for where, name in named:
        if name is None:
            problems.append(t("{where}: this test cell names no step to check; a graded "
                              "cell checks one step (# %% tests NAME points=N)", where=where))
        elif name not in assignment.steps:
            problems.append(unknown_step(where, name, assignment))
    return problems


def unknown_step(where, name, assignment) -> str:
    """What to say of a test cell naming `name`, a step the assignment's checks lack: the
    steps there are, the one it may have meant, and the fix."""
    known = ", ".join(assignment.steps) or t("none")
    close = difflib.get_close_matches(name, list(assignment.steps), n=1)
    fix = (t("did you mean {close!r}? If not, add a Step named {name!r} to its STEPS",
             close=close[0], name=name) if close else
           t("add a Step named {name!r} to its STEPS", name=name))
    return t("{where}: no hidden checks are declared for {name!r} (the steps of {checks} are "
             "{known}); {fix} ({guide})", where=where, name=name,
             checks=assignment.folder / CHECKS, known=known, fix=fix, guide=t(GUIDE))


def step_problems(assignment):
    """A problem per step whose checks cannot be trusted (see the module's docstring)."""
    problems = []
    where = assignment.folder / CHECKS
    for step in assignment.steps.values():
        problems += [t("{where}: step {name!r}: {problem}", where=where, name=step.name,
                       problem=problem) for problem in problems_of(step, assignment.steps)]
        for mistake in step.mistakes:  # validate proves the rest of it (mistake_problems)
            if (error := unparsed(mistake)) is not None:
                problems.append(t("{where}: mistake {mistake!r} of {name!r}: its code does "
                                  "not run ({kind}: {error}); it must define {name}",
                                  where=where, mistake=mistake.name, name=step.name,
                                  kind=type(error).__name__, error=error))
    return problems


def problems_of(step, steps):
    helpers = references(step, steps)
    draws = [step.random_cases(Draws.seeded(seed).of(step.name, CASES)) for seed in range(DRAWS)]
    if not draws[0]:
        return [t("it has no random case, so every student meets the same inputs and a "
                  "notebook could hard-code the answers; give it random_cases=... drawing "
                  "inputs from the generator it is given ({guide})", guide=t(GUIDE))]
    problems = [t("its random case {label!r} draws the same inputs every time; draw them from "
                  "the generator random_cases is given (randn(gen, ...), sizes(gen, ...)), or, "
                  "if they are fixed on purpose, move the case to fixed_cases", label=label)
                for label in repeated_cases(step, draws)]
    problems += blind_probes(step)
    for seed in SEEDS:
        try:
            found = step_findings(step, LocalSubject(step.reference), helpers,
                                  Draws.seeded(seed))
        except Exception as error:  # noqa: BLE001 - a check of the course's that raises
            found = [f"{type(error).__name__}: {error}"]
        if found:
            text = getattr(found[0], "text", found[0])
            problems.append(t("its hidden checks fail the reference ({finding}); fix the "
                              "check or the reference, they must agree", finding=text))
            break
    return problems


def blind_probes(step):
    """A problem per rule whose spans probe finds, in some of PROBE_DRAWS draws of the cases,
    no telling sequence: of MIN_SEQ positions or more (on shorter ones a mask scores as few
    spans as a cache: the rule allows one fewer than the positions), of a length no other dim
    of the call has (probes.spans_probe), so that draw's students would keep the step with a
    mask."""
    spans = [rule for rule in step.rules if rule.probe and rule.probe["kind"] == "spans"]
    if not spans:
        return []
    given = [*step.document_cases(), *step.fixed_cases()]
    draws = [step.random_cases(Draws.seeded(seed).of(step.name, CASES))
             for seed in range(PROBE_DRAWS)]
    problems = []
    for rule in spans:
        probe = rule.probe
        short = sum(1 for cases in draws
                    if not any(telling(case_call(case), probe) for case in (*given, *cases)))
        if short:
            problems.append(t(
                "its rule {rule!r} tells a mask from a cache only on a sequence of {least} "
                "positions or more, whose length is no other size of the call (d_in, d_k ...), "
                "and {short} of {draws} draws of its cases have none; draw one case's sequence "
                "so (sizes(gen, 4, low={least}, ...) draws distinct sizes), or add such a "
                "fixed case", rule=rule.name, least=MIN_SEQ, short=short, draws=len(draws)))
    return problems


def repeated_cases(step, draws):
    """The labels of random cases that call the subject with the same arguments in every
    draw."""
    if len({len(cases) for cases in draws}) > 1:
        return []  # the number of cases itself is drawn
    repeated = []
    for index, case in enumerate(draws[0]):
        calls = [arguments_of(cases[index], step) for cases in draws]
        if calls[0] is not None and all(same(calls[0], other) for other in calls[1:]):
            repeated.append(case.label)
    return repeated


class Recorder:
    """The reference as a subject that writes down every call made of it (and of its
    attributes, a class's from_torch ...), in order; of a class, the calls of the objects it
    makes too (`cls(0.25)(scores)`: a case may fix the object's sizes and draw its input)."""

    def __init__(self, target, calls, name="()"):
        self._target, self._calls, self._name = target, calls, name

    def __call__(self, *args, **kwargs):
        self._calls.append((self._name, args, kwargs))
        made = self._target(*args, **kwargs)
        return Recorder(made, self._calls, f"{self._name}()") if isinstance(
            self._target, type) else made

    def seeded(self, seed, *args, burn=0, **kwargs):
        self._calls.append(("seeded", (seed, *args), {"burn": burn, **kwargs}))
        return LocalSubject(self._target).seeded(seed, *args, burn=burn, **kwargs)

    def __getattr__(self, name):
        value = getattr(self._target, name)
        return Recorder(value, self._calls, name) if callable(value) else value


def arguments_of(case, step):
    """Every call the case makes of the subject, as (name, args, kwargs); None when the
    reference fails it (problems_of says so)."""
    calls = []
    try:
        case.run(Recorder(step.reference, calls))
    except Exception:  # noqa: BLE001
        return None
    return calls


def same(a, b):
    """Whether two recorded values are equal: tensors entry by entry, modules by their state,
    containers item by item."""
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)
                and a.shape == b.shape and a.dtype == b.dtype and bool(torch.equal(a, b)))
    if isinstance(a, torch.nn.Module) and isinstance(b, torch.nn.Module):
        return same(a.state_dict(), b.state_dict())
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - objects that cannot be compared are taken as different
        return False


def unparsed(mistake):
    """The SyntaxError (or ValueError) of a mistake's code that does not parse, else None."""
    try:
        compile(mistake.code, f"<mistake {mistake.name!r}>", "exec")
    except (SyntaxError, ValueError) as error:
        return error
    return None


def mistake_problems(assignment):
    """A problem per catalogued mistake that passes the checks, or fails them without being
    named (its code does not give the outputs it is recognised by); one whose code does not
    parse is step_problems'."""
    problems = []
    where = assignment.folder / CHECKS
    for step in assignment.steps.values():
        helpers = references(step, assignment.steps)
        for mistake in step.mistakes:
            if unparsed(mistake) is not None:
                continue
            try:
                subject = mistake_subject(mistake, helpers)
                found = step_findings(step, subject, helpers, Draws.seeded(SEEDS[0]))
            except Exception as error:  # noqa: BLE001 - the mistake's code does not run
                problems.append(t("{where}: mistake {mistake!r} of {name!r}: its code does "
                                  "not run ({kind}: {error}); it must define {name}",
                                  where=where, mistake=mistake.name, name=step.name,
                                  kind=type(error).__name__, error=error))
                continue
            if not found:
                problems.append(t("{where}: mistake {mistake!r} passes every check of "
                                  "{name!r}: add a case or property that it fails, or remove it",
                                  where=where, mistake=mistake.name, name=step.name))
            elif not {mistake.name, t(mistake.name)} & {f.mistake for f in found}:
                problems.append(t("{where}: mistake {mistake!r} fails {name!r} but is never "
                                  "named: no failing case gives its numbers (a property or a "
                                  "rule catches it); add a case it gets wrong", where=where,
                                  mistake=mistake.name, name=step.name))
    return problems


def test_cells_of_specs(assignment, specs):
    """(where, step name) of each test cell of an authoring file's specs."""
    return [(f"{assignment.folder / NOTEBOOK}:{spec.line}", spec.names[0])
            for spec in specs if spec.kind == "tests"]


def untranslated_texts(assignment, code):
    """A problem per text of the assignment's hidden checks that a course in language `code`
    would show its students in English: a text a step declares (declared_texts), a literal
    its modules pass to t(). `validate` refuses them; each names the zh.py to add it to."""
    if code == DEFAULT:
        return []
    known = catalog(code, within=assignment.folder.parent)  # this course's, not another's
    texts = [text for step in assignment.steps.values() for _, text in declared_texts(step)]
    for path in sorted(assignment.folder.glob("*.py")):
        if path.name not in (NOTEBOOK, CATALOG):
            texts += [text for _, text in t_literals(path)]
    where = assignment.folder / CATALOG
    return [t("{where}: no {language} text for {english!r}: add it to CATALOG there (the "
              "students of this course would read it in English)", where=where,
              language=code, english=text)
            for text in dict.fromkeys(texts) if text and text not in known]


def declared_texts(step):
    """(what, English text) of every text the step declares as data, translated where a
    finding shows it: its mistakes' names and hints, its rules' names and reasons, its
    properties' words."""
    texts = []
    for mistake in step.mistakes:
        texts += [(f"{step.name}: mistake name", mistake.name),
                  (f"{step.name}: hint of {mistake.name!r}", mistake.hint)]
    with language(DEFAULT):
        texts += [(f"{step.name}: property {prop.__name__}", property_words(prop))
                  for prop in step.properties]
    for rule in step.rules:
        texts += [(f"{step.name}: rule name", rule.name),
                  (f"{step.name}: why of {rule.name!r}", rule.public[2])]
    return texts


def t_literals(path):
    """(line, text) of each literal text the module at `path` passes to t(), in the order
    they are written; none where it does not parse (said where the module is loaded)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:
        return []
    return [(node.lineno, node.args[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "t"
            and node.args and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)]
