"""The last cell of every notebook: how to check it, how to hand it in, what is graded.

Filled in by build/render.py with {assignment}, {notebook} and {total_points}."""

HAND_IN = """\
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
  the same checks on other inputs (other sizes, random values, and the numbers of the
  worked examples). Every requirement that can cost points is stated at the step.
- Where a step states a rule (for example, not to call a built-in that does the step for
  you), code that breaks it loses points at that step even when its numbers are right.
- A step that calls an earlier one is graded with a correct version of the earlier step, so
  a mistake costs points only where it is made.
- Leave the locked cells (the text and the tests) as they are: the grader puts the original
  back and notes the change.
"""
