"""The last cell of every notebook: how to check it, how to hand it in, what is graded.

One text per course language. build/render.py fills in {assignment}, {notebook} and
{total_points}. The Chinese text keeps each paragraph and list item on one line of markdown
(built here from adjacent strings): a line break inside Chinese text shows as a space."""

ENGLISH = """\
## Before you hand in

1. **Run it as the grader will.** Choose *Kernel → Restart Kernel and Run All Cells*. The
   grader runs your cells from top to bottom in a fresh kernel, so code that worked only
   because of the order in which you ran the cells fails there.
2. **Check it.** Press **Validate** in the notebook's toolbar, or run
   `python check_notebook.py {notebook}` in a terminal opened in this folder: it runs the
   notebook in a fresh kernel, lists every cell that fails with its message, and ends with
   exit status 1 when one does (0 when all pass).
3. **Hand it in.** In JupyterLab's *Assignments* tab (the Assignment List), press **Submit**
   next to `{assignment}`; or upload this file to your course's website keeping its name,
   `{notebook}`: the grader knows the assignment by that name. You may hand in again; the
   last version handed in counts. Hand in before the due date your course gives: after it,
   the course's late rule costs part of the score.

### What is graded

- **{total_points}** in all. Each step's points are written in the first line of its test
  cell.
- A step earns its points when its function passes the public checks in its test cell and
  the same checks on other inputs: other sizes and random values (drawn for you, the same
  on every regrade), inputs chosen where a formula is numerically fragile, and, where a
  source document prints the step's values, those values. Every requirement that can cost
  points is stated at the step.
- Where a step states a rule (for example, not to call a built-in that does the step for
  you), code that breaks it loses points at that step even when its numbers are right.
- A step that calls an earlier one is graded with a correct version of the earlier step, so
  a mistake costs points only where it is made.
- Leave the locked cells (the text and the tests) as they are: the grader puts the original
  back and notes the change.
"""

CHINESE = (
    "## 提交之前\n"
    "\n"
    "1. **按评分时的方式完整运行一遍。** 选择菜单“Kernel → Restart Kernel and Run All Cells”"
    "（中文界面为“内核 → 重启内核并运行所有单元格”）。评分时，你的单元格会在一个全新的内核里"
    "从上到下依次运行；如果某段代码只是因为你运行单元格的先后顺序才碰巧能用，评分时就会出错。\n"
    "2. **自查。** 点击笔记本工具栏上的 **Validate**，或者在本文件夹中打开终端，运行 "
    "`python check_notebook.py {notebook}`：它在全新的内核中运行整个笔记本，列出每个出错的"
    "单元格及其报错信息；只要有单元格出错，退出状态就是 1（全部通过时为 0）。\n"
    "3. **提交。** 在 JupyterLab 的 *Assignments* 标签页（作业列表）中，点击 `{assignment}` "
    "旁边的 **Submit**；也可以把这个文件上传到课程网站，但不要改文件名 `{notebook}`：评分"
    "系统靠这个文件名识别是哪次作业。可以多次提交，以最后一次提交为准。请在课程规定的截止"
    "日期前提交，逾期提交将按课程的迟交规定扣除部分分数。\n"
    "\n"
    "### 怎样评分\n"
    "\n"
    "- 本次作业满分 **{total_points}**。每一步的分值写在该步测试单元格的第一行。\n"
    "- 一步的函数通过测试单元格中的公开测试，并且在其他输入上通过同样的检查，才能得到这一步"
    "的分：其他尺寸和随机数值（为你抽取，每次重新评分都相同）、专门用来暴露数值上脆弱的公式"
    "的输入，以及资料打印过的这一步的数值（如果有）。凡是可能扣分的要求，都在对应的步骤中写明了。\n"
    "- 如果某一步规定了规则（例如不得调用直接替你完成这一步的内置函数），违反规则的代码即使"
    "算出的数值正确，也会在这一步扣分。\n"
    "- 如果某一步调用了前面的步骤，评分时会换用前面步骤的正确实现，因此一个错误只在出错的"
    "那一步扣分。\n"
    "- 锁定的单元格（说明文字和测试）请保持原样：评分时会换回原来的内容，并记录下你的改动。\n"
)

HAND_IN = {"en": ENGLISH, "zh": CHINESE}
