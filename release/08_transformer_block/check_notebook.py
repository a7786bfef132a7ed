"""Check your notebook before you hand it in.

    python check_notebook.py 01_attention_by_hand.ipynb

It runs the notebook from top to bottom in a fresh kernel, as the grader does (your saved
file is not changed), then lists every cell that failed with its message and the points of
each test cell. Exit status: 0 when every cell ran, 1 when one failed (or did not finish),
2 when the file cannot be read. It needs only Jupyter (nbformat, nbclient), nothing of the
course's grader; every assignment's folder has a copy.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

LANGUAGE = "en"  # the build writes the course's language here
ZH = {
    # public_checks.py
    "the result": "结果",
    "{what} should be a torch.Tensor, but got a {kind}":
        "{what}：应当是 torch.Tensor，实际是 {kind}",
    "{what} should have shape {shape}, but got shape {got}":
        "{what}：形状应为 {shape}，实际为 {got}",
    "{what} should have dtype {dtype}, but got dtype {got}":
        "{what}：dtype 应为 {dtype}，实际为 {got}",
    "expected {expected:.4g}, got {got:.4g}": "应为 {expected:.4g}，实际为 {got:.4g}",
    "{count} of {total} entries differ; the first at index {index}: expected {expected}, "
    "got {got}":
        "{total} 个元素中有 {count} 个不对；第一个在索引 {index} 处：应为 {expected}，"
        "实际为 {got}",
    "{count} of {total} entries differ; the first at index {index}: expected "
    "{expected:.4g}, got {got:.4g}; the largest difference is {gap:.4g}, at index {largest}":
        "{total} 个元素中有 {count} 个不对；第一个在索引 {index} 处：应为 {expected:.4g}，"
        "实际为 {got:.4g}；差得最多的是索引 {largest} 处，相差 {gap:.4g}",
    "{what}: these are the numbers of a known mistake: {name}":
        "{what}：这正是一个常见错误算出的数值：{name}",
    "{what}: not the expected numbers. {where}": "{what}：数值不对。{where}",
    "{what}: these are the entries of a known mistake: {name}":
        "{what}：这正是一个常见错误得到的元素：{name}",
    "{what}: not the expected entries. {where}": "{what}：元素不对。{where}",
    # code_rules.py
    ", ": "、",
    " or ": " 或 ",
    "uses {names}": "用到了 {names}",
    "does not call {names} where it runs": "在会运行的代码里没有调用 {names}",
    "found a Python loop ({loop})": "含有 Python 循环（{loop}）",
    "has no Python loop": "没有 Python 循环",
    "{name} calls itself": "{name} 调用了自己",
    "it calls {name}()": "它调用了 {name}()",
    "it calls {name}() with a name computed at run time": "它用运行时才算出的名字调用 {name}()",
    "it uses {name}": "它用到了 {name}",
    "it imports * from a module": "它用 import * 从模块导入",
    "it imports {module}, whose code is not judged (graded code may import {allowed}); put "
    "that code in the notebook":
        "它导入了 {module}，而这个模块的代码不会被评判（评分的代码只能导入 {allowed}）；"
        "请把这段代码写进笔记本",
    "no code defines it in the notebook (define it with def or class, in a cell of yours)":
        "笔记本里没有定义它的代码（请在你自己的单元格里用 def 或 class 定义它）",
    "its code does not parse": "它的代码无法解析",
    "no rule can be verified because {reason}; call what you need by name":
        "无法验证任何规则，因为{reason}；请直接按名字调用你需要的函数",
    "rule '{rule}': {broken} ({why})": "规则“{rule}”：{broken}（{why}）",
    # check_notebook.py
    "{value:g} point": "{value:g} 分",
    "{value:g} points": "{value:g} 分",
    "cell {number}, the test of {step} ({points})":
        "第 {number} 个单元格，{step} 的测试（{points}）",
    "cell {number} ({first})": "第 {number} 个单元格（{first}）",
    "NotImplementedError: a stub is still there; write the function's body":
        "NotImplementedError：这里还是待完成的函数，请写出函数体",
    "did not finish within {timeout} s (an endless loop?)":
        "没有在 {timeout} 秒内运行完（是不是有死循环？）",
    "stopped the kernel (it crashed or ran out of memory)": "导致内核退出（崩溃或内存耗尽）",
    "FAILED  {where}: {message}": "未通过  {where}：{message}",
    "FAILED  the notebook {stopped}; the cells after it did not run":
        "未通过  笔记本{stopped}；之后的单元格没有运行",
    "{passing} of {count} test cells pass ({earned:g} of {most} in the public tests); when "
    "graded, hidden checks run the same requirements on other inputs":
        "{count} 个测试单元格中通过了 {passing} 个（公开测试得 {earned:g} 分，满分 {most}）；"
        "评分时，隐藏检查还会在其他输入上检验同样的要求",
    "Run a notebook in a fresh kernel and list every failing cell with its message. Exit "
    "status 0: every cell ran; 1: a cell failed; 2: the file cannot be read.":
        "在全新的内核中运行笔记本，列出每个出错的单元格及其报错信息。退出状态 0：所有单元格"
        "都运行成功；1：有单元格出错；2：无法读取文件。",
    "the .ipynb file to check": "要检查的 .ipynb 文件",
    "seconds one cell may run (default: 120)": "每个单元格最多运行的秒数（默认 120）",
    "cannot read {path}: {error}; give the path of your .ipynb file":
        "无法读取 {path}：{error}；请给出你的 .ipynb 文件的路径",
}


def _t(text, language=None, **fields):
    """`text` in the course's language (or in `language`), its {fields} filled in."""
    template = ZH.get(text, text) if (language or LANGUAGE) == "zh" else text
    return template.format(**fields) if fields else template

PASSED, FAILED, UNREADABLE = 0, 1, 2


def test_of(cell):
    """(step, points) of a test cell, None for another cell."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    if isinstance(meta, dict) and meta.get("grade") and "points" in meta:
        return str(meta.get("grade_id", "")).removeprefix("test_"), float(meta["points"])
    return None


def where(number, cell):
    test = test_of(cell)
    if test:
        return _t("cell {number}, the test of {step} ({points})", number=number, step=test[0],
                  points=points(test[1]))
    first = next((line for line in cell.source.splitlines() if line.strip()), "")
    return _t("cell {number} ({first})", number=number, first=first.strip()[:50])


def error_of(cell):
    """The cell's error as 'Name: message', or None when it ran."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            name, message = output.get("ename", "Error"), output.get("evalue", "")
            if name == "NotImplementedError" and not message:
                return _t("NotImplementedError: a stub is still there; write the function's "
                          "body")
            return f"{name}: {message}" if message else name
    return None


def points(value, language=None):
    """'2 points', or in Chinese '2 分'; `language`: None for the course's."""
    return _t("{value:g} point" if value == 1 else "{value:g} points", language, value=value)


def run(notebook, folder, timeout, quiet=False):
    """Run every cell, errors and all; return (cell number, message) of a cell the kernel
    could not finish (None when all finished). `quiet`: the kernel's own warnings are not
    shown."""
    client = NotebookClient(notebook, timeout=timeout, allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    try:
        client.execute(**({"stderr": subprocess.DEVNULL} if quiet else {}))
    except CellTimeoutError:
        return _t("did not finish within {timeout} s (an endless loop?)", timeout=timeout)
    except DeadKernelError:
        return _t("stopped the kernel (it crashed or ran out of memory)")
    return None


def passed(cell):
    return cell.get("execution_count") is not None and error_of(cell) is None


def report(notebook, stopped):
    code = [(n, c) for n, c in enumerate(notebook.cells, 1) if c.cell_type == "code"]
    failed = [(n, c, error_of(c)) for n, c in code if error_of(c)]
    tests = [c for _, c in code if test_of(c)]
    earned = sum(test_of(c)[1] for c in tests if passed(c))
    most = sum(test_of(c)[1] for c in tests)
    for number, cell, message in failed:
        print(_t("FAILED  {where}: {message}", where=where(number, cell), message=message))
    if stopped:
        print(_t("FAILED  the notebook {stopped}; the cells after it did not run",
                 stopped=stopped))
    passing = sum(1 for c in tests if passed(c))
    print(_t("{passing} of {count} test cells pass ({earned:g} of {most} in the public "
             "tests); when graded, hidden checks run the same requirements on other inputs",
             passing=passing, count=len(tests), earned=earned, most=points(most)))
    return FAILED if failed or stopped else PASSED


def main(argv=None):
    parser = argparse.ArgumentParser(
        description=_t("Run a notebook in a fresh kernel and list every failing cell with its "
                       "message. Exit status 0: every cell ran; 1: a cell failed; 2: the file "
                       "cannot be read."))
    parser.add_argument("notebook", type=Path, help=_t("the .ipynb file to check"))
    parser.add_argument("--timeout", type=int, default=120,
                        help=_t("seconds one cell may run (default: 120)"))
    args = parser.parse_args(argv)
    try:
        notebook = nbformat.read(args.notebook, as_version=4)
    except (OSError, ValueError) as error:
        print(_t("cannot read {path}: {error}; give the path of your .ipynb file",
                 path=args.notebook, error=error), file=sys.stderr)
        return UNREADABLE
    stopped = run(notebook, args.notebook.resolve().parent, args.timeout)
    return report(notebook, stopped)


if __name__ == "__main__":
    sys.exit(main())
