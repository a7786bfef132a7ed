"""The hidden checks' own texts in Chinese: the verdict, how an output differs, the rules'
wording. Keys are the English texts of autograder/checks/ passed to `t`; the texts of a
course's assignments (case labels, mistakes, rules' names) are in each assignment's zh.py.
Terms follow GLOSSARY.md. tests/autograder/checks/test_messages_zh.py fails when a text of
the checks has no entry here."""

CATALOG = {
    # the reason of common.same_work
    "a loop, however it is written (for, while, a library that calls your code once per "
    "element), runs its operations once for each element; tensor operations do the whole "
    "at once":
        "循环不论怎么写（for、while，或者一个对每个元素各调用一次你的代码的库），都会对每个元素"
        "各做一遍运算；张量运算则一次完成全部",
    # the reason of common.forbids_loops, which every "no Python loop" rule gives
    "write it with tensor operations: no for or while loop, comprehension, map, filter, "
    "reduce, key= function or iter(function, sentinel), no function or lambda that calls "
    "itself, and no class of your own whose objects a loop walks (__iter__, __next__, "
    "__getitem__)":
        "请用张量运算来写：不用 for 或 while 循环、推导式、map、filter、reduce、key= 函数或 "
        "iter(function, sentinel)，不用调用自身的函数或 lambda，也不用会被循环逐个访问的自定义类"
        "（__iter__、__next__、__getitem__）",
    "{name} cannot be checked here: open the master notebook inside its course folder (the "
    "one with nbgrader_config.py)":
        "这里无法检查 {name}：请在课程文件夹（含有 nbgrader_config.py 的那个文件夹）中打开主笔记本",
    "the course declares no hidden checks for {name}: add a Step named {name} to its "
    "assignment's checks.py ({guide})":
        "课程没有为 {name} 声明隐藏检查：请在这次作业的 checks.py 中添加名为 {name} 的 Step"
        "（{guide}）",
    '{name} does not pass the hidden checks:': '{name} 未通过隐藏检查：',
    '... and {more} more': '……另有 {more} 条',
    "known mistake '{name}': {hint}": '常见错误“{name}”：{hint}',
    'rule broken: {problem}': '违反规则：{problem}',
    '{case}: {problem}': '{case}：{problem}',
    'not implemented yet (the stub still raises NotImplementedError)':
        '尚未实现（待完成的函数仍在抛出 NotImplementedError）',
    'output is not of the kind the step returns ({kind})':
        '输出的类型不是这一步应当返回的类型（{kind}）',
    'property: {message}': '性质检查：{message}',
    "property '{name}': {problem}": '性质检查“{name}”：{problem}',
    '{rule}: the grader could not read the code to verify this rule ({kind})':
        '{rule}：评分程序无法读取这段代码，因而无法核验这条规则（{kind}）',
    '{name} is not defined: run the cell that defines it, and keep its name':
        '{name} 尚未定义：请运行定义它的单元格，并且不要改动它的名字',
    '{name}: every hidden check passed': '{name}：全部隐藏检查均已通过',
    'output': '输出',
    '{where} should be a sequence of {count} items': '{where}应是含 {count} 项的序列',
    '{where} should be a sequence of 1 item': '{where}应是含 1 项的序列',
    '{where} should be a dict, got {kind}': '{where}应是 dict，实际得到的是 {kind}',
    '{where} has the wrong keys': '{where}的字典键不对',
    '{where} numbers some keys wrongly': '{where}中有些字典键的编号不对',
    '{where} is wrong': '{where}不对',
    '{where} should be a torch.Tensor, got {kind}':
        '{where}应是 torch.Tensor，实际得到的是 {kind}',
    '{where} has shape {got}, expected {want}': '{where}的形状是 {got}，应为 {want}',
    '{where} has more than {count} dimensions, expected {want}':
        '{where}的维度多于 {count} 个，应为 {want}',
    '{where} has shape {got}, expected {want} (? is a length the expected shape does not '
    'have)': '{where}的形状是 {got}，应为 {want}（? 表示应有的形状里没有的长度）',
    "its message is not shown by hidden checks, whose inputs it could carry; call the step "
    "in your notebook with arguments like these to read it":
        "隐藏检查不显示它的报错信息（信息里可能带出隐藏的输入）；请在笔记本里用类似的参数调用这一步，"
        "即可读到",
    "an error of a class of its own": "一个自定义类的错误",
    "what it returned is not a value the grader reads (a subclass of a tensor or of a tuple, a "
    "numpy array, an object of its own class): return the built-in type itself":
        "它返回的不是评分程序能读取的值（张量或元组的子类、numpy 数组、自定义类的对象）："
        "请直接返回内置类型本身",
    '{where} has dtype {got}, expected {want}': '{where}的 dtype 是 {got}，应为 {want}',
    '{where} has the right shape but wrong entries': '{where}的形状正确，但有元素不对',
    '{where} contains nan': '{where}中出现了 nan',
    '{where} contains inf': '{where}中出现了 inf',
    '{where}: {detail}': '{where}：{detail}',
    'the number is off by about {gap:.1g}': '这个数相差约 {gap:.1g}',
    '1 of {total} numbers is wrong, at index {first}: off by about {gap:.1g}':
        '{total} 个数中有 1 个不对，在下标 {first} 处：相差约 {gap:.1g}',
    '{wrong} of {total} numbers are wrong; the first at index {first}, the largest difference '
    '(about {gap:.1g}) at index {largest}':
        '{total} 个数中有 {wrong} 个不对；第一个错在下标 {first} 处，最大的差（约 {gap:.1g}）'
        '在下标 {largest} 处',
    '{what}: the shape is wrong': '{what}：形状不对',
    '{rule}: {broken} ({why})': '{rule}：{broken}（{why}）',
    'the {what} along dim {dim} should sum to 1': '{what}沿 dim {dim} 求和应为 1',
    'weights': '注意力权重',
}
