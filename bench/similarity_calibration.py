"""Benchmark: does the similarity report's flag (each assignment's checks.py SIMILARITY, a share
of one notebook's own code and characters of code in common) separate honest pairs from
disguised copies? Issue 49, item 4 and "Similarity calibration".

For each of the nine assignments (IDS): the honest students are the reference (solutions/, as
simulate.correct hands it in), simulate.INDEPENDENT where there is one, and the five students
of bench/similarity_students.py; each is checked by every step's hidden
checks in-process (as tests/autograder/checks/test_operation_rules.findings_of does) and dropped
if it fails. The copier takes bruno's work (he writes helpers) and the reference, and hands in
one copy of each kind of COPIES; each copy is checked the same way (a copy that loses marks is
no copy a copier hands in). Each pair is scored alone by the kit's own compare_class (a class of
two: MOSS's common-passage limit plays no part), as the notebooks simulate.fill makes of them.

    PYTHONPATH=. .venv/bin/python bench/similarity_calibration.py [ID ...] [--pairs]

Prints, per assignment, every honest pair's score and every copy's, the highest honest score,
the lowest copy score, the pairs on the wrong side of the assignment's flag, and the shares that
separate the two (none when the highest honest score reaches the lowest copy score: the
assignment's code is too short to tell). No kernel, one process, light on CPU.
"""

from __future__ import annotations

import argparse
import ast
import io
import itertools
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import nbformat  # noqa: E402
from similarity_students import INLINED, Methods, students  # noqa: E402

from autograder.build.proof import solution_cells  # noqa: E402
from autograder.checks.code_rules import closure  # noqa: E402
from autograder.checks.draws import Draws  # noqa: E402
from autograder.checks.judge import step_findings  # noqa: E402
from autograder.checks.loader import load_assignment  # noqa: E402
from autograder.checks.model import Similar  # noqa: E402
from autograder.checks.subject import LocalSubject  # noqa: E402
from autograder.i18n import language  # noqa: E402
from autograder.outputs.similarity import (  # noqa: E402
    Notebook,
    compare_class,
    release_parts,
    student_cells,
)
from autograder.outputs.similarity_text import offsets  # noqa: E402
from autograder.tools import simulate  # noqa: E402
from tests.course import ASSIGNMENTS, helpers_of  # noqa: E402

IDS = tuple(sorted(ASSIGNMENTS))  # all nine
ORIGINALS = ("bruno", "reference")  # whose work the copier takes


def read(stage, assignment_id):
    return nbformat.read(ROOT / stage / assignment_id / f"{assignment_id}.ipynb", as_version=4)


def prelude(release):
    """The notebook's imports (its setup cell), matplotlib aside, and the functions it gives
    (its given_ cells: 02's split_words, which build_vocab and encode call)."""
    ids = [c.metadata.get("nbgrader", {}).get("grade_id") or "" for c in release.cells]
    setup = next(c.source for c, i in zip(release.cells, ids, strict=True) if i == "setup_01")
    given = [c.source for c, i in zip(release.cells, ids, strict=True) if i.startswith("given_")]
    imports = "\n".join(line for line in setup.splitlines() if "matplotlib" not in line)
    return "\n\n".join([imports, *given]) + "\n"


# ---------------------------------------------------------------------------------------------
# Is a student correct? Every step's hidden checks, in-process, on the whole of their code.

def failures(assignment_id, answers, head):
    """{step: [finding texts]} of the steps whose hidden checks fail; {} when all pass. The
    rules read the step's text as grading does (code_rules.closure of the cells: the step and
    what it calls, without the earlier steps it uses). One draw, the same every run: with a
    fresh one, a disguised copy of 07 failed a property on a rare draw and was dropped."""
    code = "\n\n".join(answers.values())
    failed = {}
    for name, step in ASSIGNMENTS[assignment_id].steps.items():
        namespace = {"__name__": "__main__"}
        try:
            exec(compile(head + code, f"<student {name}>", "exec"), namespace)  # noqa: S102
            namespace.update(helpers_of(step))
            with language("en"):
                text = closure(list(answers.values()), name, apart=step.uses) or ""
                found = step_findings(step, LocalSubject(namespace[name], source=text),
                                      helpers_of(step), Draws.seeded(0))
        except Exception as error:  # noqa: BLE001 - a student's code may raise anything
            found = [type("F", (), {"text": f"{type(error).__name__}: {error}"})()]
        if found:
            failed[name] = [f.text for f in found]
    return failed


# ---------------------------------------------------------------------------------------------
# The copier's kinds of disguise. Each takes {grade id: cell} (the notebook's order) and gives
# the copy's {grade id: cell}.

STEP_NAMES = {name for a in ASSIGNMENTS.values() for name in a.steps}
KEPT = STEP_NAMES | {"self", "cls", "as_additive", "torch", "nn", "F", "math"}


def functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def renamed(answers):
    """Every local variable and helper function renamed (token by token: comments, layout
    and parameters as they were)."""
    trees = [ast.parse(c) for c in answers.values()]
    params = {a.arg for t in trees for f in functions(t) for a in ast.walk(f.args)
              if isinstance(a, ast.arg)}
    local = {n.id for t in trees for f in functions(t) for n in ast.walk(f)
             if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    helpers = {d.name for t in trees for d in t.body if isinstance(d, ast.FunctionDef)}
    methods = {m.name for t in trees for c in ast.walk(t) if isinstance(c, ast.ClassDef)
               for m in c.body if isinstance(m, ast.FunctionDef)}
    names = sorted((local | helpers) - params - KEPT)
    mapping = {n: f"{'fn' if n in helpers else 'tmp'}_{i}_{n[::-1].strip('_')}"
               for i, n in enumerate(names)}
    return {k: rename_tokens(c, mapping, methods) for k, c in answers.items()}


def rename_tokens(code, mapping, methods=()):
    """`code` with each name of `mapping` renamed where it stands for a variable or a helper:
    not an attribute, a keyword argument or a method's name in its def (08's reference has
    a local `attention` beside its method `attention`), and inside f-strings' fields too."""
    lines = offsets(code)
    found = list(tokenize.generate_tokens(io.StringIO(code).readline))
    out, at, depth = [], 0, 0
    for before, token, after in zip([None, *found], found, [*found[1:], None], strict=False):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        keyword_arg = depth > 0 and after is not None and after.string == "="
        start = lines[token.start[0] - 1] + token.start[1]
        end = lines[token.end[0] - 1] + token.end[1]
        method = before is not None and before.string == "def" and token.string in methods
        if (token.type == tokenize.NAME and token.string in mapping and not keyword_arg
                and not method and not (before is not None and before.string == ".")):
            out += [code[at:start], mapping[token.string]]
            at = end
        elif token.type == tokenize.STRING and "f" in FSTRING.match(token.string)[1].lower():
            out += [code[at:start], renamed_fstring(token.string, mapping)]
            at = end
    return "".join(out) + code[at:]


FSTRING = re.compile(r"([A-Za-z]*)")
FIELD = re.compile(r"(?<!\{)\{(?!\{)([^{}!:]*)")  # a replacement field's expression
IDENTIFIER = re.compile(r"(?<![.\w])[A-Za-z_]\w*")


def renamed_fstring(text, mapping):
    """An f-string (one token up to Python 3.11) with the names of its fields renamed."""
    def field(match):
        expression = IDENTIFIER.sub(lambda m: mapping.get(m[0], m[0]), match[1])
        return "{" + expression
    return FIELD.sub(field, text)


PHRASES = ["compute this part", "shape check done above", "as in the lecture",
           "this is the important bit", "keep the dims right", "from my notes"]


class NoDocstrings(ast.NodeTransformer):
    def visit_FunctionDef(self, node):  # noqa: N802 - ast's name
        self.generic_visit(node)
        if (node.body and isinstance(node.body[0], ast.Expr)
                and isinstance(node.body[0].value, ast.Constant)
                and isinstance(node.body[0].value.value, str) and len(node.body) > 1):
            node.body = node.body[1:]
        return node

    visit_ClassDef = visit_FunctionDef  # noqa: N815


def recommented(answers):
    """Comments and docstrings gone, other comments and blank lines put in (the code as
    ast.unparse writes it: layout as a formatter leaves it)."""
    out = {}
    for n, (key, cell) in enumerate(answers.items()):
        code = ast.unparse(NoDocstrings().visit(ast.parse(cell)))
        lines = []
        for i, line in enumerate(code.splitlines()):
            indent = line[:len(line) - len(line.lstrip())]
            if line.strip() and (i + n) % 2 == 0:
                lines += ["", f"{indent}# {PHRASES[(i + n) % len(PHRASES)]}"]
            lines.append(line)
        out[key] = "\n".join(lines) + "\n"
    return out


def moved(answers):
    """Every definition of every solution cell put into the first one, in reverse order (the
    other cells left with a comment): the functions in another order, cells moved."""
    definitions = []
    for cell in answers.values():
        tree = ast.parse(cell)
        definitions += [ast.get_source_segment(cell, d) for d in tree.body]
    keys = list(answers)
    return {keys[0]: "\n\n\n".join(reversed(definitions)) + "\n",
            **{k: "# see the first cell\n" for k in keys[1:]}}


def rw(statement):
    """(names read, names written, barrier) of a statement, conservatively."""
    reads, writes, barrier = set(), set(), False
    for node in ast.walk(statement):
        if isinstance(node, ast.Name):
            (writes if isinstance(node.ctx, ast.Store | ast.Del) else reads).add(node.id)
        elif isinstance(node, ast.Attribute | ast.Subscript):
            base = node
            while isinstance(base, ast.Attribute | ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name) and isinstance(node.ctx, ast.Store):
                writes.add(base.id)
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("super", "print"):
                barrier = True
            if (func.attr if isinstance(func, ast.Attribute) else name(func)) in RANDOM:
                barrier = True  # draws from the global generator: the order of draws counts
            if isinstance(func, ast.Attribute) and func.attr.endswith("_"):
                barrier = True  # in place
    return reads, writes, barrier


RANDOM = {"manual_seed", "rand", "randn", "randint", "randperm", "Embedding", "Linear",
          "Parameter"}  # calls that draw, or hold what was drawn, in the order they are made


def movable(statement):
    return isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign)


def swappable(a, b):
    if not (movable(a) and movable(b)):
        return False
    ra, wa, xa = rw(a)
    rb, wb, xb = rw(b)
    return not (xa or xb or wa & (rb | wb) or wb & ra)


class SwapStatements(ast.NodeTransformer):
    def visit_FunctionDef(self, node):  # noqa: N802
        self.generic_visit(node)
        body, i = list(node.body), 0
        while i + 1 < len(body):
            if swappable(body[i], body[i + 1]):
                body[i], body[i + 1] = body[i + 1], body[i]
                i += 2
            else:
                i += 1
        node.body = body
        return node


def reordered(answers):
    """Independent statements of each function body swapped, pair by pair."""
    return {k: ast.unparse(SwapStatements().visit(ast.parse(c))) + "\n"
            for k, c in answers.items()}


METHODS = {"exp", "sum", "softmax", "transpose", "reshape", "amax", "max", "mean",
           "masked_fill", "unsqueeze", "permute", "matmul", "bmm", "chunk", "split", "div",
           "flatten", "swapaxes", "t", "repeat_interleave", "nan_to_num"}
TUPLED = {"reshape", "permute"}  # torch.f(x, shape) but x.f(*shape)
MODULES = {"torch", "nn", "F", "math", "self", "cls"}


def name(node):
    return node.id if isinstance(node, ast.Name) else None


class SwapCalls(ast.NodeTransformer):
    """a @ b <-> torch.matmul(a, b); torch.f(x, ...) <-> x.f(...); F.softmax -> torch."""

    def visit_BinOp(self, node):  # noqa: N802
        self.generic_visit(node)
        if isinstance(node.op, ast.MatMult):
            return ast.Call(ast.Attribute(ast.Name("torch"), "matmul"), [node.left, node.right],
                            [])
        return node

    def visit_Call(self, node):  # noqa: N802
        self.generic_visit(node)
        func = node.func
        if not isinstance(func, ast.Attribute) or func.attr not in METHODS:
            return node
        owner = name(func.value)
        if owner in ("torch", "F") and node.args and func.attr != "split":
            x, *rest = node.args
            if func.attr in TUPLED and len(rest) == 1 and isinstance(rest[0], ast.Tuple):
                rest = rest[0].elts
            return ast.Call(ast.Attribute(x, func.attr), rest, node.keywords)
        if owner in MODULES or (isinstance(func.value, ast.Call)
                                and name(func.value.func) == "super"):
            return node
        args = node.args
        if func.attr in TUPLED and len(args) > 1:
            args = [ast.Tuple(args, ast.Load())]
        return ast.Call(ast.Attribute(ast.Name("torch"), func.attr), [func.value, *args],
                        node.keywords)


def swapped_calls(answers):
    return {k: ast.unparse(ast.fix_missing_locations(SwapCalls().visit(ast.parse(c)))) + "\n"
            for k, c in answers.items()}


def swapped_calls_light(answers):
    """The calls of every other function swapped (the first, the third ...)."""
    out, n = {}, 0
    for k, c in answers.items():
        tree = ast.parse(c)
        for f in [f for f in functions(tree) if not any(
                isinstance(g, ast.FunctionDef) and g is not f for g in ast.walk(f))]:
            if n % 2 == 0:
                f.body = [SwapCalls().visit(s) for s in f.body]
            n += 1
        out[k] = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    return out


class DeadCode(ast.NodeTransformer):
    def __init__(self, prints=True):
        self.prints = prints

    def visit_FunctionDef(self, node):  # noqa: N802
        self.generic_visit(node)
        body = []
        for statement in node.body:
            body.append(statement)
            if self.prints and isinstance(statement, ast.Assign) and isinstance(
                    statement.targets[0], ast.Name):
                body += ast.parse(f"if _debug:\n    print('{statement.targets[0].id}', "
                                  f"{statement.targets[0].id})").body
        node.body = [*ast.parse("_debug = False").body, *body]
        return node


def dead_code(answers):
    """A debug flag and a print after each assignment, never run."""
    return {k: ast.unparse(ast.fix_missing_locations(DeadCode().visit(ast.parse(c)))) + "\n"
            for k, c in answers.items()}


class Temporaries(ast.NodeTransformer):
    def visit_FunctionDef(self, node):  # noqa: N802
        self.generic_visit(node)
        body = []
        for statement in node.body:
            if isinstance(statement, ast.Return) and statement.value is not None and not \
                    isinstance(statement.value, ast.Name | ast.Constant | ast.Tuple):
                body += ast.parse("result = 0\nreturn result").body
                body[-2].value = statement.value
            else:
                body.append(statement)
        node.body = body
        return node


def dead_code_light(answers):
    """One dead line at the top of each function."""
    return {k: ast.unparse(ast.fix_missing_locations(DeadCode(prints=False).visit(
        ast.parse(c)))) + "\n" for k, c in answers.items()}


def temporaries(answers):
    """Each returned expression first put in a variable."""
    return {k: ast.unparse(ast.fix_missing_locations(Temporaries().visit(ast.parse(c)))) + "\n"
            for k, c in answers.items()}


def inlined(answers, assignment_id):
    """bruno's helpers inlined by hand (similarity_students.INLINED)."""
    out = dict(answers)
    for key, cell in INLINED[assignment_id].items():
        if isinstance(cell, Methods):  # his class with some methods rewritten, helpers gone
            tree = ast.parse(answers[key])
            new = {d.name: d for d in ast.parse("class X:\n" + cell.code).body[0].body}
            tree.body = [d for d in tree.body if getattr(d, "name", "") not in cell.drop]
            module = next(d for d in tree.body if isinstance(d, ast.ClassDef))
            module.body = [new.get(getattr(d, "name", ""), d) for d in module.body
                           if getattr(d, "name", "") not in cell.drop]
            cell = ast.unparse(tree) + "\n"
        out[key] = cell
    return out


def all_at_once(answers):
    """Every mechanical kind in turn."""
    for kind in (renamed, swapped_calls, reordered, temporaries, dead_code, recommented,
                 moved):
        answers = kind(answers)
    return answers


COPIES = {  # kind -> answers -> answers ("kit's disguise": simulate.disguised, on the notebook)
    "renamed": renamed,
    "comments and blank lines": recommented,
    "functions moved and reordered": moved,
    "statements reordered": reordered,
    "swapped calls, every other function": swapped_calls_light,
    "swapped equivalent calls, every call": swapped_calls,
    "dead code, a line per function": dead_code_light,
    "dead code, a print after each assignment": dead_code,
    "temporaries introduced": temporaries,
    "helpers inlined": None,  # bruno's only: by hand
    "kit's disguise (simulate.disguised)": None,
    "all of the above at once": all_at_once,
}


# ---------------------------------------------------------------------------------------------

def as_notebook(release, answers, student):
    """(the notebook handed in, the kit's Notebook of it)."""
    handed = simulate.fill(release, answers)
    return handed, Notebook(student, Path(student), student_cells(handed, release))


def score(first, second, release):
    """The pair's score, as the report ranks and flags it (Pair.score); its matched characters
    of filtered code (Pair.matched) kept in MATCHED."""
    pairs, _, unread = compare_class([first, second], release)
    assert not unread, unread
    MATCHED[(first.student, second.student)] = pairs[0].matched if pairs else 0
    return pairs[0].score if pairs else 0.0


MATCHED = {}
HEAVY = {"swapped equivalent calls, every call", "dead code, a print after each assignment",
         "all of the above at once"}  # beyond one disguise: reported apart


def measure(assignment_id, show_pairs=False):
    release, source = read("release", assignment_id), read("source", assignment_id)
    head = prelude(release)
    stubs = {c.metadata["nbgrader"]["grade_id"]: c.source for c in release.cells
             if c.metadata.get("nbgrader", {}).get("solution")}
    honest = {"reference": solution_cells(source)}
    if assignment_id in simulate.INDEPENDENT:
        honest["independent"] = {**solution_cells(source),
                                 **simulate.INDEPENDENT[assignment_id]}
    every_stub = {c.metadata["nbgrader"]["grade_id"]: c.source for a in IDS
                  for c in read("release", a).cells
                  if c.metadata.get("nbgrader", {}).get("solution")}
    honest |= students(every_stub)[assignment_id]
    print(f"\n== {assignment_id}")
    kept = {}
    for student, answers in honest.items():
        answers = {k: answers[k] for k in stubs}  # the notebook's order
        failed = failures(assignment_id, answers, head)
        if failed:
            print(f"  honest {student}: DROPPED, fails {failed}")
        else:
            kept[student] = answers
    parts = release_parts(release)
    notebooks = {s: as_notebook(release, a, s) for s, a in kept.items()}
    copies = {}
    for original in ORIGINALS:
        if original not in kept:
            continue
        for kind, make in COPIES.items():
            if kind == "helpers inlined":
                if original != "bruno":
                    continue
                answers = inlined(kept[original], assignment_id)
            elif kind.startswith("kit's"):
                handed = simulate.disguised(notebooks[original][0])
                answers = {c.metadata["nbgrader"]["grade_id"]: c.source for c in handed.cells
                           if c.metadata.get("nbgrader", {}).get("solution")}
            else:
                answers = make(kept[original])
            failed = failures(assignment_id, answers, head)
            if failed:
                print(f"  copy of {original}, {kind}: DROPPED (not correct) {failed}")
                continue
            copies[(original, kind)] = as_notebook(release, answers, f"{original}/{kind}")[1]
    honest_scores = {(a, b): score(notebooks[a][1], notebooks[b][1], parts)
                     for a, b in itertools.combinations(notebooks, 2)}
    copy_scores = {(o, k): score(notebooks[o][1], c, parts) for (o, k), c in copies.items()}
    if show_pairs:
        for (a, b), s in sorted(honest_scores.items(), key=lambda i: -i[1]):
            print(f"  honest {a:>11} ~ {b:<41} {s:.3f}  {MATCHED[(a, b)]:>5} chars")
        for (o, k), s in sorted(copy_scores.items(), key=lambda i: i[1]):
            print(f"  copy   {o:>11} ~ {k:<41} {s:.3f}  {MATCHED[(o, f'{o}/{k}')]:>5} chars")
    top = max(honest_scores.items(), key=lambda i: i[1])
    low = min(copy_scores.items(), key=lambda i: i[1])
    flag = load_assignment(ROOT, assignment_id).similar
    wrong_honest = [f"{a}~{b} {s:.2f}" for (a, b), s in honest_scores.items()
                    if flag.flags(s, MATCHED[(a, b)])]
    wrong_copies = [f"{o}/{k} {s:.2f}" for (o, k), s in copy_scores.items()
                    if not flag.flags(s, MATCHED[(o, f"{o}/{k}")])]
    print(f"  students kept: {len(kept)} honest ({len(honest_scores)} pairs), "
          f"{len(copies)} copies")
    print(f"  highest honest pair: {top[1]:.3f} ({top[0][0]} ~ {top[0][1]})")
    print(f"  lowest copy:         {low[1]:.3f} ({low[0][0]}, {low[0][1]})")
    for original in ORIGINALS:
        theirs = [s for (o, _), s in copy_scores.items() if o == original]
        if theirs:
            print(f"    copies of {original}: {min(theirs):.3f} .. {max(theirs):.3f}")
    core = {key: s for key, s in copy_scores.items() if key[1] not in HEAVY}
    low_core = min(core.items(), key=lambda i: i[1])
    print(f"  lowest copy of one disguise (heavy kinds aside): {low_core[1]:.3f} "
          f"({low_core[0][0]}, {low_core[0][1]})")
    if top[1] < low_core[1]:
        print(f"    separates them: any threshold in ({top[1]:.3f}, {low_core[1]:.3f}], "
              f"midpoint {(top[1] + low_core[1]) / 2:.3f}")
    else:
        print("    no threshold separates them: the code is too short to tell")
    honest_chars = max(MATCHED[k] for k in honest_scores)
    copy_chars = min(MATCHED[(o, f"{o}/{k}")] for o, k in core)
    print(f"  matched characters: honest at most {honest_chars}, one-disguise copies at "
          f"least {copy_chars}")
    print(f"  the assignment's flag (checks.py SIMILARITY): share {flag.share}, "
          f"characters {flag.characters}")
    print(f"  wrong side of it: honest flagged {wrong_honest or 'none'}; "
          f"copies not flagged {wrong_copies or 'none'}")
    missed = [k for k in wrong_copies if k.split("/", 1)[1].rsplit(" ", 1)[0] not in HEAVY]
    lowest = Similar(min(core.values()), copy_chars)  # the strictest flag every copy reaches
    separable = not any(lowest.flags(s, MATCHED[key]) for key, s in honest_scores.items())
    print(f"  a share and a count of characters {'can' if separable else 'cannot'} separate "
          f"them (every copy of one disguise reaches share {lowest.share:.3f} and "
          f"{lowest.characters} characters{'' if separable else ', and so does an honest pair'})")
    if flag.tells:
        verdict = "separates" if not wrong_honest and not missed else "does NOT separate"
        print(f"  the flag {verdict} the honest pairs from every copy of one disguise")
    else:
        print("  the assignment says its code is too short to tell (Similar(tells=False)): "
              f"{'wrongly, a flag could tell' if separable else 'rightly'}")
    if top[1] < low[1]:
        print(f"  separates every copy, heavy kinds included: any threshold in "
              f"({top[1]:.3f}, {low[1]:.3f}], midpoint {(top[1] + low[1]) / 2:.3f}, "
              f"margin {low[1] - top[1]:.3f}")
    else:
        print("  separates: no threshold separates every copy, heavy kinds included")
    return {"honest": honest_scores, "copies": copy_scores, "honest flagged": wrong_honest,
            "copies missed": missed, "separable": separable, "flag": flag}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ids", nargs="*", default=list(IDS), metavar="ID")
    parser.add_argument("--pairs", action="store_true", help="print every pair's score")
    arguments = parser.parse_args(argv)
    for assignment_id in arguments.ids:
        measure(assignment_id, arguments.pairs)


if __name__ == "__main__":
    main()
