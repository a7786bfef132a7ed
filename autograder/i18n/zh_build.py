"""Chinese texts of the build: what the kit writes into every notebook besides the prose."""

CATALOG = {
    "{name}: {points}. The public checks below, and when graded the same requirements on "
    "other inputs.":
        "{name}：{points}。下面是公开测试；评分时会用其他输入检查同样的要求。",
    "graded on its own": "单独评分",
    "grading runs the code of yours this step needs, alone, after the course's cells":
        "评分时只在课程的单元格之后单独运行这一步需要的你的代码",
    "The step's rules, as grading checks them:":
        "本步骤的规则（评分时按同样的方式检查）：",
    # The module docstrings of the helper cell at the top of every notebook.
    ('Helpers the test cells use: expect_tensor, expect_close and expect_equal check a result,\n'
     "expect_rule checks that your code keeps a step's rule. A failing check says what is wrong:\n"
     'the first wrong entry and the largest difference, or the known mistake your numbers match.\n'
     '\n'
     'You do not need to read or change this cell: run it, then go on to the steps below.\n'):
        "测试单元格用到的辅助函数：expect_tensor、expect_close 和 expect_equal 检查结果，"
        "expect_rule 检查你的代码是否遵守这一步的规则。检查不通过时，报错信息会指出问题所在："
        "第一个不对的元素和相差最大的位置，或者你的数值与哪个常见错误的结果一致。\n\n"
        "这个单元格不需要阅读或修改：运行它，然后继续完成下面的各个步骤。\n",
    ('How a step\'s rule, such as "no Python loop" or "no built-in softmax", is decided on\n'
     'your code. expect_rule in your notebook and the grader call the same functions on the\n'
     'same text: the code of the step as the notebook last defines it, with every statement of\n'
     'yours it needs (helpers, aliases, decorators, a later cell that rebinds a name it uses).\n'
     "The course's own cells are never yours. When grading calls your step, only that text has\n"
     "run (after the course's locked cells), so the code the rule read is the code called.\n"):
        "expect_rule 与评分用同一套函数、在同一段代码上判断一步的规则（例如“不用 Python 循环”或"
        "“不用内置的 softmax”）：这一步在笔记本里最后一次的定义，加上它需要的你写的每一条语句"
        "（辅助函数、别名、装饰器、后面重新绑定它所用名字的单元格）。课程自己的单元格从来不算你的代码。"
        "评分调用这一步时，只运行过这段代码（在课程锁定的单元格之后），所以规则读到的代码就是被调用的代码。\n",
}
