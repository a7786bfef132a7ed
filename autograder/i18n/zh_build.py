"""Chinese texts of the build: what the kit writes into every notebook besides the prose."""

CATALOG = {
    "{name}: {points}. The public checks below, and when graded the same requirements on "
    "other inputs.":
        "{name}：{points}。下面是公开测试；评分时会用其他输入检查同样的要求。",
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
    ('How expect_rule reads your code to decide a step\'s rule, such as "no Python loop" or "no\n'
     'built-in softmax". Grading decides each rule the same way, so a rule that would cost you\n'
     'points fails here first, in your own notebook.\n'):
        "expect_rule 读取你的代码，判断它是否遵守这一步的规则，例如“不用 Python 循环”或"
        "“不用内置的 softmax”。评分时对每条规则的判断方式完全相同，所以会扣分的违规一定会先在"
        "你自己的笔记本里报出来。\n",
}
