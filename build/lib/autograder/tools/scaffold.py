"""`python -m autograder new ID`: a working assignment in the course, to edit into one's own.

It writes assignments/<ID>/ with one step (`scaled_scores`): the authoring file with prose, a
stub and a public test, the reference, a value its "source" prints, and the hidden checks (a
document case, random cases, a property, a rule, a named mistake), in the course's language
(with the Chinese twins in a Chinese course). As written it builds, and `validate` gives the
reference full marks and the stub zero. The guide (`python -m autograder guide`) explains
every part.
"""

from __future__ import annotations

from pathlib import Path

from autograder.checks.loader import GUIDE, assignments_folder, check_id
from autograder.i18n import DEFAULT, t
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import kit_command


class ScaffoldError(KitError, ValueError):
    """`new` cannot write the assignment; the message says why and what to do."""


NOTEBOOK = '''\
# %% [markdown]
# # {title}
#
# Say here, in two or three sentences, what this assignment teaches and why it matters.
#
# | step | you write | points |
# | --- | --- | --- |
# | 1 | `scaled_scores`: every query's score against every key, scaled | 2 |
#
# **Total: {{total_points}} points.** The step has a stub that raises `NotImplementedError`;
# replace its body with your code. The test cell after it runs public checks you can see;
# when you hand in, hidden checks run the same requirements on other inputs.
{markdown_zh_intro}
# %% setup
import math

import torch

# %% checks

# %% [markdown]
# ## Step 1: scaled scores
#
# The score of query $q_i$ for key $k_j$ is their dot product divided by $\\sqrt{{d_k}}$, where
# $d_k$ is the size of a key: $s_{{ij}} = q_i \\cdot k_j / \\sqrt{{d_k}}$. With `queries` of
# shape `(n, d_k)` and `keys` of shape `(seq, d_k)` the scores are `(n, seq)`; leading batch
# dimensions stay in front. Write it without a Python loop.
{markdown_zh_step}
# %% solution scaled_scores
{strings_zh_solution}
# %% tests scaled_scores points=2
queries = torch.tensor({{{{documents.EXAMPLE_QUERIES}}}})
keys = torch.tensor({{{{documents.EXAMPLE_KEYS}}}})
scores = scaled_scores(queries, keys)
expect_tensor(scores, (3, 2), "the scores")
expect_close(scores, {{{{documents.EXAMPLE_SCORES}}}}, "the scores of the example",
             mistakes=[("no 1/sqrt(d_k)", queries @ keys.T)])
batch = scaled_scores(torch.stack([queries, 2 * queries]), torch.stack([keys, keys]))
expect_tensor(batch, (2, 3, 2), "the scores of a batch of two")
{strings_zh_tests}'''

ZH_TITLE = "第 {number} 次作业（在这里写标题）"  # "assignment N (write the title here)"

# A Chinese paragraph is one line: a line break between two Chinese characters shows as a space.
MARKDOWN_ZH_INTRO = (
    "\n# %% [markdown zh]\n# # {title}\n#\n"
    "# 在这里用两三句话说明本次作业教什么、为什么重要。\n#\n"
    "# | 步骤 | 你要写的函数 | 分值 |\n# | --- | --- | --- |\n"
    "# | 1 | `scaled_scores`：每个查询对每个键的分数，经过缩放 | 2 |\n#\n"
    "# **总分：{{total_points}} 分。** 这一步有一个待完成的函数，它的函数体会抛出 "
    "`NotImplementedError`，请换成你自己的代码。函数后面的测试单元格运行你能看到的公开测试；"
    "提交之后，隐藏检查会用其他输入检查同样的要求。\n"
)

MARKDOWN_ZH_STEP = (
    "\n# %% [markdown zh]\n# ## 第 1 步：缩放后的分数\n#\n"
    "# 查询 $q_i$ 对键 $k_j$ 的分数是两者的点积除以 $\\sqrt{d_k}$，其中 $d_k$ 是键的长度："
    "$s_{ij} = q_i \\cdot k_j / \\sqrt{d_k}$。`queries` 的形状为 `(n, d_k)`、`keys` 的形状为 "
    "`(seq, d_k)` 时，分数的形状为 `(n, seq)`；前面多出的批维度保持在最前面。不要用 Python 循环。\n"
)

STRINGS_ZH_SOLUTION = '''
# %% strings zh
{
    "Every query's score against every key, divided by sqrt(d_k).":
        "每个查询对每个键的分数，再除以 sqrt(d_k)。",
    "queries (n, d_k) and keys (seq, d_k), with any leading batch dims; returns (n, seq).":
        "queries (n, d_k)，keys (seq, d_k)，前面可以有批维度；返回 (n, seq)。",
}
'''

STRINGS_ZH_TESTS = '''
# %% strings zh
{
    '"the scores"': '"分数"',
    '"the scores of the example"': '"示例的分数"',
    '"the scores of a batch of two"': '"两个一批时的分数"',
}
'''

REFERENCE = '''\
"""The reference of {id}: the code its solution cells name. The build copies each function
into the master notebook and fences its body for nbgrader: the student's stub keeps the
signature and the docstring, so state the shapes there."""

import math


def scaled_scores(queries, keys):
    """Every query's score against every key, divided by sqrt(d_k).

    queries (n, d_k) and keys (seq, d_k), with any leading batch dims; returns (n, seq).
    """
    d_k = keys.shape[-1]
    return queries @ keys.transpose(-2, -1) / math.sqrt(d_k)  # (n, d_k) @ (d_k, seq)
'''

DOCUMENTS = '''\
"""The values {id}'s source prints, typed once: the hidden checks compare with them, and the
notebook shows them where a code cell writes {{{{documents.NAME}}}}."""

import torch

# the example: three queries and two keys of size d_k = 2
EXAMPLE_QUERIES = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
EXAMPLE_KEYS = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
# what the source prints for them: queries @ keys.T / sqrt(2)
EXAMPLE_SCORES = torch.tensor([[0.7071, 2.1213], [1.4142, 2.8284], [2.1213, 4.9497]])
'''

CHECKS = '''\
"""Hidden checks of {id}: what grading runs on each step, declared as data. The model
(Case, Step, Mistake, rules) is autograder/checks/model.py, explained in {guide}."""

import torch

from autograder.checks.common import calling, forbids_loops, randn, sizes
from autograder.checks.compare import TOLERANCE
from autograder.checks.model import Case, Mistake, Similar, Step
from autograder.i18n import t

from . import reference
from .documents import EXAMPLE_KEYS, EXAMPLE_QUERIES, EXAMPLE_SCORES


def documented():
    """The value the source prints, on its own inputs."""
    return [Case(t("the example's scores"), calling(EXAMPLE_QUERIES, EXAMPLE_KEYS),
                 EXAMPLE_SCORES)]


def drawn(gen):
    """Fresh inputs at every grading, of distinct sizes (a transpose cannot pass by luck); the
    expected output is the reference's."""
    n, seq, d_k, batch = sizes(gen, 4)
    return [
        Case(t("random queries and keys ({{n}} queries, {{seq}} keys, d_k = {{d_k}})", n=n,
               seq=seq, d_k=d_k), calling(randn(gen, n, d_k), randn(gen, seq, d_k))),
        Case(t("a batch of {{batch}} random examples", batch=batch),
             calling(randn(gen, batch, n, d_k), randn(gen, batch, seq, d_k))),
    ]


def doubles_with_the_queries(subject, gen):
    """Twice the queries give twice the scores."""
    n, seq, d_k = sizes(gen, 3)
    queries, keys = randn(gen, n, d_k), randn(gen, seq, d_k)
    assert torch.allclose(subject(2 * queries, keys), 2 * subject(queries, keys), **TOLERANCE), \\
        t("twice the queries should give twice the scores")


SCALED_SCORES = Step(
    name="scaled_scores",
    reference=reference.scaled_scores,
    document_cases=documented,
    random_cases=drawn,
    properties=(doubles_with_the_queries,),
    rules=(forbids_loops("no Python loop"),),
    mistakes=(
        Mistake(
            "no 1/sqrt(d_k)",
            "divide the dot products by the square root of d_k, the size of each key",
            "def scaled_scores(queries, keys):\\n"
            "    return queries @ keys.transpose(-2, -1)\\n",
        ),
    ),
)

STEPS = (SCALED_SCORES,)

# When the similarity report flags a pair of notebooks. One line of code a step: honest
# solutions are alike, so no share of code in common tells a copy (the report lists the most
# alike pairs for you to read). Once the steps are longer, run the `similarity` command on
# solutions written apart and set the share and characters that tell them from copies, e.g.
# Similar(share=0.45, characters=135), as the guide explains.
SIMILARITY = Similar(tells=False)
'''

CATALOG = '''\
"""The Chinese of {id}'s hidden checks: every text its checks.py passes to t(), and the
names and hints of its mistakes and rules, and the words of its properties."""

CATALOG = {{
    "the example's scores": "示例的分数",
    "random queries and keys ({{n}} queries, {{seq}} keys, d_k = {{d_k}})":
        "随机的查询和键（{{n}} 个查询，{{seq}} 个键，d_k = {{d_k}}）",
    "a batch of {{batch}} random examples": "{{batch}} 个随机示例组成的一批",
    "twice the queries should give twice the scores": "查询加倍时，分数也应加倍",
    "Twice the queries give twice the scores": "查询加倍时，分数也加倍",
    "no Python loop": "不用 Python 循环",
    "no 1/sqrt(d_k)": "缺少 1/sqrt(d_k)",
    "divide the dot products by the square root of d_k, the size of each key":
        "请把点积除以 d_k（每个键的长度）的平方根",
}}
'''


def scaffold_files(assignment_id, language=DEFAULT, title=None) -> dict[str, str]:
    """{file name: text} of a new assignment. Without a title, the English notebook's is the
    id's words and the Chinese one's a title to write, numbered as the id is."""
    english_title = title or assignment_id.split("_", 1)[1].replace("_", " ").capitalize()
    chinese_title = title or ZH_TITLE.format(number=int(assignment_id.split("_", 1)[0]))
    zh = language == "zh"
    files = {
        "notebook.py": NOTEBOOK.format(
            title=english_title,
            markdown_zh_intro=MARKDOWN_ZH_INTRO.format(title=chinese_title) if zh else "",
            markdown_zh_step=MARKDOWN_ZH_STEP if zh else "",
            strings_zh_solution=STRINGS_ZH_SOLUTION if zh else "",
            strings_zh_tests=STRINGS_ZH_TESTS if zh else ""),
        "reference.py": REFERENCE.format(id=assignment_id),
        "documents.py": DOCUMENTS.format(id=assignment_id),
        "checks.py": CHECKS.format(id=assignment_id, guide=GUIDE),
    }
    if zh:
        files["zh.py"] = CATALOG.format(id=assignment_id)
    return files


def new_assignment(root: Path, assignment_id, language=DEFAULT, title=None, log=print) -> Path:
    """Write assignments/<id>/ in the course at `root`; nothing is replaced."""
    check_id(assignment_id)
    folder = assignments_folder(root) / assignment_id
    if folder.exists():
        raise ScaffoldError(t("{folder} exists: new writes a new assignment and replaces "
                              "nothing; choose another id, or edit that folder", folder=folder))
    staged = folder.with_name(f".{assignment_id}.partial")
    staged.mkdir(parents=True, exist_ok=True)
    for name, text in scaffold_files(assignment_id, language, title).items():
        (staged / name).write_text(text, encoding="utf-8")
    staged.replace(folder)
    log(t("wrote {folder}/: notebook.py (prose, stub, public test), reference.py, "
          "documents.py, checks.py{more}", folder=folder,
          more=t(", {name}", name="zh.py") if language == "zh" else ""))
    log(t("next: edit them ({guide}), then", guide=t(GUIDE)) + "\n"
        f"  {kit_command()} build {assignment_id}\n"
        f"  {kit_command()} validate {assignment_id}")
    return folder
