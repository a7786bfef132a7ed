"""What a step's rules read in code, and how each kind of rule decides.

Standalone (the standard library only): the grader's rules (checks/common.py) decide with it
on the code grading reads, and the build copies it into every notebook, where `expect_rule`
decides the same rules on the student's own functions in plain Jupyter, so that no rule that
can cost points is a surprise.
"""

import ast
import inspect
import textwrap

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


def rule_broken(kind, params, tree, also_named=()):
    """How code breaks a rule of this kind, or None. `also_named`: names the code reaches
    that its text does not show (the real name of an alias)."""
    names = attribute_names(tree) | set(also_named)
    if kind == "forbids_names":
        used = sorted(names & set(params))
        return f"uses {', '.join(used)}" if used else None
    if kind == "forbids_builtins":
        used = sorted(n for n in names - own_names(tree)
                      if any(fragment in n.lower() for fragment in params))
        return f"uses {', '.join(used)}" if used else None
    if kind == "requires_names":
        return None if names & set(params) else f"does not use {' or '.join(sorted(params))}"
    if kind == "forbids_loops":
        loop = python_loop(tree)
        return f"found a Python loop ({loop})" if loop else None
    if kind == "requires_loop":
        return None if python_loop(tree) else "has no Python loop"
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
    """Assert that the student's `subject` (and the notebook's code it uses) keeps a rule the
    grader checks: the same decision, made on the code in this notebook."""
    source, real_names = notebook_code(subject)
    assert source, f"rule '{rule}': cannot read the code of {subject!r}; define it with def"
    broken = rule_broken(kind, params, ast.parse(source), real_names)
    assert broken is None, f"rule '{rule}': {broken} ({why})"
