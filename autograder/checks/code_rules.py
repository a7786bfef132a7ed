"""How expect_rule reads your code to decide a step's rule, such as "no Python loop" or "no
built-in softmax". Grading decides each rule the same way, so a rule that would cost you
points fails here first, in your own notebook.
"""

import ast
import inspect
import textwrap

from autograder.i18n.standalone import _t

LOOP_NODES = (ast.For, ast.While, ast.AsyncFor, ast.ListComp, ast.SetComp, ast.DictComp,
              ast.GeneratorExp)
LOOP_CALLS = {"map", "filter", "reduce", "starmap", "accumulate"}


def attribute_names(tree):
    """Every name, attribute name and imported name a piece of code mentions."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            names.add(node.attr)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.update(node.name.split("."))
    return names


def own_names(tree):
    """The names the code itself defines: functions, classes, parameters, variables."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def python_loop(tree):
    """The first Python loop of the code (a statement, a comprehension or map/filter/reduce),
    or None."""
    for node in ast.walk(tree):
        if isinstance(node, LOOP_NODES):
            return type(node).__name__
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in LOOP_CALLS:
                return f"{name}()"
    return None


def uses(names, language=None):
    """'uses a, b' for the forbidden names the code uses, None when it uses none."""
    return _t("uses {names}", language, names=_t(", ", language).join(names)) if names else None


def rule_broken(kind, params, tree, also_named=(), language=None):
    """How code breaks a rule of this kind, or None. `also_named`: names the code reaches
    that its text does not show (the real name of an alias). `language`: that of the
    message (None: the course's)."""
    names = attribute_names(tree) | set(also_named)
    if kind == "forbids_names":
        return uses(sorted(names & set(params)), language)
    if kind == "forbids_builtins":
        return uses(sorted(n for n in names - own_names(tree)
                           if any(fragment in n.lower() for fragment in params)), language)
    if kind == "requires_names":
        return None if names & set(params) else _t(
            "does not use {names}", language, names=_t(" or ", language).join(sorted(params)))
    if kind == "forbids_loops":
        loop = python_loop(tree)
        return _t("found a Python loop ({loop})", language, loop=loop) if loop else None
    if kind == "requires_loop":
        return None if python_loop(tree) else _t("has no Python loop", language)
    raise ValueError(f"no rule of kind {kind!r}")


def code_of(item):
    """The source of a function, or of a class's methods (with its bases' names)."""
    try:
        return textwrap.dedent(inspect.getsource(item))
    except (OSError, TypeError):
        if not inspect.isclass(item):
            return ""
    parts = [f"class {item.__name__}({', '.join(b.__name__ for b in item.__bases__)}): pass"]
    for member in vars(item).values():
        function = getattr(member, "__func__", member)
        if inspect.isfunction(function):
            parts.append(code_of(function))
    return "\n".join(parts)


def notebook_code(subject):
    """The code of `subject` with every function and class of the notebook it uses, and the
    real names of the other things it calls by another name (sm = F.softmax gives softmax)."""
    sources, real_names, seen, todo = [], set(), set(), [subject]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        source = code_of(item)
        sources.append(source)
        functions = [item] + [getattr(m, "__func__", m) for m in vars(item).values()] \
            if inspect.isclass(item) else [item]
        space = {}
        for function in functions:
            space.update(getattr(function, "__globals__", {}))
        for name in attribute_names(ast.parse(source)) if source else ():
            value = space.get(name)
            if value is None:
                continue
            if (inspect.isfunction(value) or inspect.isclass(value)) and \
                    getattr(value, "__module__", "") == "__main__":
                todo.append(value)
            elif callable(value):
                real_names.add(getattr(value, "__name__", ""))
    return "\n".join(sources), real_names


def expect_rule(subject, kind, params, rule, why):
    """Assert that your `subject` (and the notebook's code it uses) keeps a rule of its step,
    decided as grading decides it."""
    source, real_names = notebook_code(subject)
    assert source, _t("rule '{rule}': cannot read the code of {subject!r}; define it with def",
                      rule=rule, subject=subject)
    broken = rule_broken(kind, params, ast.parse(source), real_names)
    assert broken is None, _t("rule '{rule}': {broken} ({why})", rule=rule, broken=broken,
                              why=why)
