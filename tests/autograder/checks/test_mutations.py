"""Do the hidden checks catch wrong versions of every reference, made automatically?

The mutation harness (autograder/tools/mutations.py, `python -m autograder mutate`) makes
mutants of each step's reference (one small change each: a swapped
operand, another dim, a dropped scale, an inverted mask ...), drops those equivalent to the
reference on the step's stated domain, and runs the rest through the step's hidden checks
in-process. Here a capped sample of them, drawn under a fixed seed, holds the kill rate to
a floor, so that a change to the checks that lets wrong code through fails the suite."""

from __future__ import annotations

import warnings

import pytest
import torch

from autograder.checks.common import calling
from autograder.tools import mutations
from tests.course import IDS, ROOT

SEED = 0
PER_STEP = 40  # mutants per step at most: about 700 in all, some seconds
OVERALL_FLOOR = 0.98
STEP_FLOOR = 0.95


@pytest.fixture(scope="module")
def results():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return mutations.run(mutations.targets(ROOT, IDS), limit=PER_STEP, seed=SEED,
                                 seeds=5, log=lambda _: None)
    finally:
        torch.set_num_threads(threads)


def survivors(results):
    return "\n".join(f"  {m.step}: {m.label}: {m.change}" for r in results for m in r.survivors)


def test_every_step_of_the_course_has_probes(results):
    """Is the equivalence of every step's mutants decided on its stated domain (the
    assignment's probes.py), not on its random cases alone?"""
    unprobed = [r.name for r in results if not r.probed]
    assert not unprobed, f"no probes in their assignment's probes.py: {', '.join(unprobed)}"


def test_every_step_has_mutants_to_judge(results):
    """Does every step yield mutants that are not equivalent to its reference?"""
    empty = [r.name for r in results if r.judged < 5]
    assert not empty, f"fewer than 5 mutants to judge in: {', '.join(empty)}"


def test_overall_kill_rate(results):
    """Do the hidden checks kill at least 98 % of the sampled mutants, all steps together?"""
    rate = mutations.overall(results)
    assert rate >= OVERALL_FLOOR, (
        f"the checks kill {100 * rate:.1f}% of the mutants, below {100 * OVERALL_FLOOR:.0f}%; "
        f"survivors:\n{survivors(results)}"
    )


def test_kill_rate_of_every_step(results):
    """Do the hidden checks of every step kill at least 95 % of its sampled mutants?"""
    low = [f"{r.name} {100 * r.kill_rate:.1f}%" for r in results if r.kill_rate < STEP_FLOOR]
    assert not low, (f"steps below {100 * STEP_FLOOR:.0f}%: {', '.join(low)}; survivors:\n"
                     f"{survivors(results)}")


def test_equivalent_mutants_pass_the_checks(results):
    """Does every mutant that behaves as the reference on the step's whole stated domain
    also pass the hidden checks (no check asks more than the reference does)?"""
    odd = [f"  {m.step}: {m.label}: {m.change}" for r in results for m in r.equivalent_killed]
    assert not odd, "equivalent mutants that fail the checks:\n" + "\n".join(odd)


# -- a malformed probes.py is refused, in one line ------------------------------------------

def probes_of(**names):
    """A stand-in for an assignment's probes.py module."""
    import types

    return types.SimpleNamespace(**names)


@pytest.fixture(scope="module")
def first():
    from autograder.checks.loader import load_assignment

    return load_assignment(ROOT, "01_attention_by_hand")


def test_the_courses_probes_are_well_formed(first):
    """Are the kit's own probes accepted as they are (the format the guide documents)?"""
    probes = first.module("probes")
    assert mutations.checked_probes(first, probes) is probes


@pytest.mark.parametrize(("names", "said"), [
    ({"PROBES": [1]}, "PROBES is a list, not a dict keyed by step name"),
    ({"HELPERS": {}}, "defines no PROBES"),
    ({"PROBES": {"softmax": lambda gen: []}}, "PROBES['softmax']: 01_attention_by_hand has no "
                                               "step 'softmax' (its steps: project_qkv"),
    ({"PROBES": {"stable_softmax": [calling(torch.ones(3))]}},
     "PROBES['stable_softmax'] is a list, not a function of gen"),
    ({"PROBES": {"stable_softmax": lambda gen: [(torch.ones(3),)]}},
     "PROBES['stable_softmax'](gen)[0] is a tuple, not a run: wrap each input in calling(...)"),
    ({"PROBES": {"stable_softmax": lambda gen: calling(torch.ones(3))}},
     "PROBES['stable_softmax'](gen) returned function, not a list of runs"),
    ({"PROBES": {"stable_softmax": lambda gen: [calling(1, 2, 3, 4)]}},
     "PROBES['stable_softmax'](gen)[0]: the reference stable_softmax raised TypeError"),
    ({"PROBES": {"stable_softmax": lambda gen: [calling]}},
     "PROBES['stable_softmax'](gen)[0] gave a function, not the step's output"),
    ({"PROBES": {}, "HELPERS": {"stable_softmax": ("exp",)}},
     "HELPERS['stable_softmax'] must be a tuple of functions of reference.py"),
])
def test_a_malformed_probe_is_refused_naming_the_file_the_step_and_the_fix(first, names, said):
    """Is each wrong format of probes.py refused by one line that names the file, the step
    and the format (a probe that every mutant would pass would otherwise say nothing)?"""
    with pytest.raises(mutations.ProbeError) as error:
        mutations.checked_probes(first, probes_of(**names))
    message = str(error.value)
    assert message.startswith(f"{first.folder / 'probes.py'}"), message
    assert said in message and "\n" not in message
    if "PROBES" in said and "(gen)" in said:
        assert "calling(*arguments, **keywords)" in message


def test_mutate_exits_1_on_a_malformed_probe(tmp_path):
    """Does `python -m autograder mutate ID` stop before mutating, with exit 1 and the one
    line, when its probes.py returns inputs instead of calling(...) runs?"""
    import subprocess
    import sys

    def kit(*args, cwd):
        return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd,
                              capture_output=True, text=True, timeout=600)

    assert kit("init", "course", "--empty", cwd=tmp_path).returncode == 0
    course = tmp_path / "course"
    assert kit("new", "10_positions", cwd=course).returncode == 0
    step = mutations.load_assignment(course, "10_positions")
    name = next(iter(step.steps))
    (course / "assignments" / "10_positions" / "probes.py").write_text(
        f"import torch\nPROBES = {{{name!r}: lambda gen: [(torch.ones(2, 3),)]}}\n")
    result = kit("mutate", "10_positions", cwd=course)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert f"probes.py: PROBES[{name!r}](gen)[0] is a tuple, not a run" in result.stderr
    assert "mutants of" not in result.stdout


def test_the_guides_probes_fit_its_worked_example(tmp_path):
    """Is the guide's probes.py, beside the files of its worked example, accepted as written,
    and does the harness then decide that step's equivalence on its probes?"""
    import re

    guide = (ROOT / "autograder" / "docs" / "writing-assignments.md").read_text("utf-8")
    files = dict(re.findall(r"<!-- file: ([\w.]+) -->\n```python\n(.*?)\n```", guide, re.DOTALL))
    files["probes.py"] = re.search(r"### probes.py\n\n```python\n(.*?)\n```", guide,
                                   re.DOTALL).group(1)
    folder = tmp_path / "assignments" / "10_positions"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    (target,) = mutations.targets(tmp_path, ["10_positions"])
    assert target.probes is not None and len(target.probes(torch.Generator())) == 5


def test_a_chinese_course_gets_its_table_in_chinese_its_columns_aligned(capsys):
    """In the course's language Chinese, are the harness's lines and its table's heads
    Chinese, each column ending where its head ends (a Chinese character takes two columns),
    and a malformed probe refused in Chinese?"""
    from autograder.i18n import language
    from autograder.plumbing.terminal_width import display_width

    first = mutations.load_assignment(ROOT, IDS[0])
    with language("zh"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mutations.main(ROOT, [IDS[0]], steps=[next(iter(first.steps))], limit=2, seeds=1,
                       draws=1)
        with pytest.raises(mutations.ProbeError) as refused:
            mutations.checked_probes(first, probes_of(PROBES=[1]))
    lines = capsys.readouterr().out.splitlines()
    assert "变异体" in lines[0] and lines[1].split()[:2] == ["步骤", "变异体"], lines[:2]
    assert lines[3].startswith("总计 ") and lines[4].startswith("发现率最低的步骤："), lines
    ends = {display_width(line.rstrip()) for line in lines[1:4]}
    assert len(ends) == 1, lines[1:4]  # the head, the step's row and the overall row
    assert "PROBES 是 list，不是以步骤名为键的字典" in str(refused.value)
