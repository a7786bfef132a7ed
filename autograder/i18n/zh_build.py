"""Chinese texts of the build: what the kit writes into every notebook besides the prose."""

CATALOG = {
    "the kit's catalogs": "本套件的译文表",
    "{home}: {english!r} is {here!r} there but {other!r} in {where}; give it one translation "
    "(or write the English differently)":
        "{home}：{english!r} 在这里译作 {here!r}，在 {where} 中却译作 {other!r}；"
        "请只保留一种译法（或者换一种英文写法）",
    "{name}: {points}. Below are the public checks; grading checks the same requirements on "
    "other inputs too.":
        "{name}：{points}。下面是公开测试；评分时会用其他输入检查同样的要求。",
    "graded on its own": "单独评分",
    "grading runs the course's cells, then only the code of yours that defines this step and "
    "the names it uses: keep all of it in the notebook and import no .py file of your own":
        "评分时先运行课程的单元格，再只运行你的代码中定义这一步及其用到的名字的部分：这些代码都要"
        "写在笔记本里，也不要导入你自己写的 .py 文件",
    "The step's rules, as grading checks them:":
        "本步骤的规则（评分时按同样的方式检查）：",
    "what your code computes below, for the step's rules":
        "记录你的代码在下面算了什么，供本步骤的规则检查",
    # The module docstrings a student reads: the helper cell's, the self-check script's.
    ("Helpers the test cells use: expect_tensor, expect_close and expect_equal check a result,\n"
     "expect_rule checks that your code keeps a step's rule, decided by the same functions, on "
     "the\nsame code, as grading decides it. A failing check says what is wrong: the first "
     "wrong entry\nand the largest difference, or the known mistake your numbers match. Under "
     "a failed test cell\nyou also see the arguments your function had when it raised, and the "
     "earlier step to fix\nfirst when this step calls one whose test fails. use_course_font, "
     "called by the cells that\nplot, sets the fonts their labels are drawn in.\n\nYou do not need "
     "to read or change this cell: run it, then go on to the steps below. Its\ncode is packed "
     "on one line, so the notebook runs on its own; to read it, open\ncourse_helpers.py "
     "beside the notebook, the same code.\n"):
        "测试单元格用到的辅助函数：expect_tensor、expect_close 和 expect_equal 检查结果；"
        "expect_rule 检查你的代码是否遵守这一步的规则，判断用的函数和代码都与评分时相同。"
        "检查不通过时，报错信息会指出问题所在：第一个不对的元素和相差最大的位置，或者你的数值"
        "与哪个常见错误的结果一致。测试单元格出错时，下面还会列出你的函数出错时收到的参数；"
        "如果这一步调用的前面某一步的测试没有通过，也会提醒你先改好那一步。画图的单元格会调用 "
        "use_course_font，让图上的中文标签正常显示。\n\n"
        "这个单元格不需要阅读或修改：运行它，然后继续完成下面的各个步骤。它的代码压缩成了一行，"
        "所以笔记本单独也能运行；想读这些代码，请打开笔记本旁边的 course_helpers.py，"
        "内容完全相同。\n",
    "The grader's kernels find this code unpacked and compiled once, by their template.":
        "评分程序的内核会从模板中直接拿到这段已解压、已编译好的代码。",
    ("Check your notebook before you hand it in.\n\n    python check_notebook.py "
     "01_attention_by_hand.ipynb\n\nIt runs the notebook from top to bottom in a fresh kernel, "
     "as the grader does (your saved\nfile is not changed), then lists every cell that failed "
     "with its message, and every cell that\nran longer than grading lets one cell run, and "
     "the points of each test cell. Exit status: 0\nwhen every cell ran in time, 1 when one "
     "failed (or did not finish, or ran too long), 2 when\nthe file cannot be read. It needs "
     "only Jupyter (nbformat, nbclient), nothing of the course's\ngrader; every assignment's "
     "folder has a copy.\n"):
        "交作业之前，先用它检查一遍你的笔记本。\n\n    python check_notebook.py "
        "01_attention_by_hand.ipynb\n\n它像评分时一样，在全新的内核中从头到尾运行笔记本"
        "（不会改动你保存的文件），然后列出每个出错的单元格及其报错信息、每个运行时间超过评分"
        "时单个单元格时限的单元格，以及每个测试单元格的分值。退出状态：0 表示所有单元格都按时"
        "运行成功，1 表示有单元格出错（或没有运行完，或运行太久），2 表示无法读取文件。它只需要 "
        "Jupyter（nbformat、nbclient），不需要课程评分程序的任何部分；每个作业的文件夹里都有"
        "一份。\n",
}
