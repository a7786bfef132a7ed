"""The one translation function of the code that runs where the kit is not installed: the
notebook's helper cell (build/public_checks.py, then checks/code_rules.py) and the students'
self-check script (build/check_notebook.py).

Each of those files imports `_t` from here, so that the kit runs them as they are. The build
copies this file's code (everything after this docstring) in place of the first one's
import line and drops the import line of the others (build/standalone.py), with LANGUAGE set
to the course's language. ZH holds the Chinese of every text those files pass to `_t`.
"""

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
    "1 of {total} entries differs, at index {index}: expected {expected}, got {got}":
        "{total} 个元素中有 1 个不对，在下标 {index} 处：应为 {expected}，实际为 {got}",
    "1 of {total} entries differs, at index {index}: expected {expected:.4g}, got {got:.4g}":
        "{total} 个元素中有 1 个不对，在下标 {index} 处：应为 {expected:.4g}，实际为 {got:.4g}",
    "{count} of {total} entries differ; the first at index {index}: expected {expected}, "
    "got {got}":
        "{total} 个元素中有 {count} 个不对；第一个在下标 {index} 处：应为 {expected}，"
        "实际为 {got}",
    "{count} of {total} entries differ; the first at index {index}: expected "
    "{expected:.4g}, got {got:.4g}; the largest difference is {gap:.4g}, at index {largest}":
        "{total} 个元素中有 {count} 个不对；第一个在下标 {index} 处：应为 {expected:.4g}，"
        "实际为 {got:.4g}；差得最多的是下标 {largest} 处，相差 {gap:.4g}",
    "{what}: these are the numbers of a known mistake: {name}":
        "{what}：这正是一个常见错误算出的数值：{name}",
    "{what}: these are the numbers of the known mistake '{name}': {hint}":
        "{what}：这正是常见错误“{name}”算出的数值：{hint}",
    "{what}: not the expected numbers. {where}": "{what}：数值不对。{where}",
    "{what}: these are the entries of the known mistake '{name}': {hint}":
        "{what}：这正是常见错误“{name}”得到的元素：{hint}",
    "{what}: these are the entries of a known mistake: {name}":
        "{what}：这正是一个常见错误得到的元素：{name}",
    "{what}: not the expected entries. {where}": "{what}：元素不对。{where}",
    "no font of this machine draws Chinese, so the plot's Chinese labels show as boxes: "
    "install one with pip install noto-cjk-sans-otc, then restart the kernel":
        "这台机器上没有能显示中文的字体，图上的中文标签会显示成方框：请用 pip install "
        "noto-cjk-sans-otc 安装一种，然后重启内核",
    # checks/raised.py
    "a {shape} {dtype} tensor": "形状为 {shape} 的 {dtype} 张量",
    "a {kind} of {count}": "含 {count} 项的 {kind}",
    "a {kind}": "{kind} 对象",
    "raised {kind}: {message}": "抛出了 {kind}：{message}",
    " (called with {arguments})": "（调用时的参数：{arguments}）",
    "; compare each operation's shapes with the step's docstring":
        "；请对照这一步的文档字符串，逐个核对每步运算的形状",
    # build/failed_cell.py
    "{function} raised {kind} with {arguments}":
        "{function} 抛出了 {kind}，当时的参数：{arguments}",
    "compare each operation's shapes with the docstring of {function}":
        "请对照 {function} 的文档字符串，逐个核对每步运算的形状",
    "{step} calls {earlier}, whose test above fails: fix {earlier} first (this test may then "
    "pass as it is)":
        "{step} 调用了 {earlier}，而前面 {earlier} 的测试没有通过：请先把它改好"
        "（之后这个测试可能不用改就能通过）",
    # code_rules.py
    ", ": "、",
    " or ": " 或 ",
    # checks/operation_rules.py
    "it uses {name}, which reaches around what records your code's operations":
        "它用到了 {name}，这会绕过记录你代码运算的机制",
    "it passes {name} to another function, which then reaches attributes by names made at "
    "run time": "它把 {name} 传给了另一个函数，由后者按运行时拼出的名字取属性",
    "it changes {name}, a library's own, which torch's code may call as it runs, where "
    "nothing is recorded":
        "它改动了库自己的 {name}，torch 的代码运行时可能调用它，而那里什么都不会被记录",
    "it ran torch's {ops}": "它运行了 torch 的 {ops}",
    "it handed a tensor's numbers out of torch ({names}), where the work done on them cannot "
    "be counted (a print of a tensor does too, and a result whose shape the numbers decide: "
    "->shape)":
        "它把张量的数交到了 torch 之外（{names}），在那里对它们做的运算无法计数（打印张量也算，"
        "形状由这些数决定的结果也算：->shape）",
    "{count} of its torch operations raised an error inside the call, whose message can carry "
    "the numbers they read out of torch (an index out of range says which)":
        "它的 torch 运算中有 {count} 个在调用里抛出了错误，错误信息可以把它们读到的数带出 "
        "torch（越界的索引会说出是哪个数）",
    "it took {count} numbers out of torch one at a time (item(), float(), torch.equal, a Python "
    "loop over a tensor: each operation that answers with a number; a float counts as two "
    "32-bit numbers, a complex as four), more than a quarter of the {given} it was given":
        "它逐个从 torch 中取出了 {count} 个数（item()、float()、torch.equal、对张量的 Python "
        "循环：每个以数作答的运算都算；一个浮点数算两个 32 位的数，一个复数算四个），"
        "超过了它得到的 {given} 个数的四分之一",
    "on inputs of shapes {shapes}, its operations read and made {work} numbers, {times:.0f} "
    "times the {forward} of the forward pass (at most {factor} times)":
        "在形状为 {shapes} 的输入上，它的运算共读写了 {work} 个数，是前向传播 {forward} 个数的 "
        "{times:.0f} 倍（最多 {factor} 倍）",
    "it uses {name}, which shares a tensor's memory with numpy, where what is done with its "
    "numbers cannot be seen":
        "它用了 {name}，让张量与 numpy 共享内存，在那里对这些数做了什么，评分程序看不到",
    "it handed a tensor's numbers out of torch ({names}), where the scores made from them "
    "cannot be seen (a result whose shape the numbers decide does too: ->shape)":
        "它把张量的数交到了 torch 之外（{names}），评分程序看不到用它们算出的分数"
        "（形状由这些数决定的结果也算：->shape）",
    "one operation produced or read {count} numbers at once, as many as every position's "
    "scores against every position ({batch} x {seq} x {seq}): a mask's whole matrix, where "
    "the cache holds only the positions decoded so far":
        "一个运算一次产生或读取了 {count} 个数，与每个位置对每个位置的分数一样多（{batch} x "
        "{seq} x {seq}）：这是掩码要用的整个矩阵，而缓存里只有目前为止已解码的位置",
    "it never ran {names}": "它从未运行 {names}",
    "it ran {names}, but its output does not change what your code returns":
        "它运行了 {names}，但其输出并不影响你的代码的返回值",
    "it used autograd (a gradient computed by torch's autograd engine, dual numbers, or a "
    "tensor that requires grad)":
        "它用了自动求导（梯度由 torch 的 autograd 引擎算出、用了对偶数，或用了需要梯度的张量）",
    "it never called your {name}": "它从未调用你写的 {name}",
    "it called your {name} {times} for {needed} queries":
        "有 {needed} 个查询，它却只调用了你写的 {name} {times}",
    "it called your {name} {times} for {needed} pairs of a query and a key":
        "有 {needed} 对查询和键，它却只调用了你写的 {name} {times}",
    "once": "1 次",
    "{got} times": "{got} 次",
    "what your {name} gives does not change what your code returns (a call whose result is "
    "not used does not count)":
        "你写的 {name} 的结果并不影响你的代码的返回值（结果没有被用到的调用不算数）",
    "one call of your {name} changed every query's output: each query's scores must come "
    "from calls of their own":
        "对你写的 {name} 的一次调用改变了所有查询的输出：每个查询的分数都应当来自它自己的调用",
    "it called {names}": "它调用了 {names}",
    "one operation produced or read {count} numbers at once, as many as the whole score matrix "
    "({batch} x {queries} queries x {keys} keys)":
        "有一个运算一次产生或读取了 {count} 个数，与整个分数矩阵（{batch} × {queries} 个查询 × "
        "{keys} 个键）一样多",
    "Python's objects or numpy's arrays took {count} bytes at once, as much as the whole score "
    "matrix in float32 ({batch} x {queries} queries x {keys} keys): the rule counts what any "
    "library holds":
        "Python 对象或 numpy 数组一度占用了 {count} 字节，与 float32 的整个分数矩阵（{batch} × "
        "{queries} 个查询 × {keys} 个键）一样多：这条规则统计的是任何库所持有的数据",
    "a normalisation (a softmax, a sum or a product) spans {span} entries at once, more than "
    "a block of {block} keys ({keys} keys in all)":
        "有一次归一化（softmax、求和或乘积）一下子覆盖了 {span} 个数，超过了一个 {block} 个键的块"
        "（键一共有 {keys} 个）",
    "its normalisations (softmax, or a sum it divides by) span {spans} positions, not 1, 2, "
    "... {seq} as the positions are decoded: future positions were scored":
        "它的归一化（softmax，或用作除数的求和）覆盖的位置数是 {spans}，而不是随着解码依次为"
        " 1、2……{seq}：未来的位置也被打了分",
    "changing its normalisations of all {seq} positions (softmaxes, sums, products) changed "
    "the outputs of {rows} positions, where only the last position's attends over all {seq}: "
    "every position was scored against the whole sequence, its future masked":
        "改动它覆盖全部 {seq} 个位置的归一化（softmax、求和、乘积）后，有 {rows} 个位置的输出变了，"
        "而只有最后一个位置才会关注全部 {seq} 个位置：每个位置都对整个序列打了分，再把未来遮住",
    "its {names} does not change what it returns (a call whose result is not used does not "
    "count)": "它的 {names} 并不影响它的返回值（结果没有被用到的调用不算数）",
    "it reached into what records its operations: {what}":
        "它动了记录其运算的机制：{what}",
    "none of your code's calls was recorded": "没有记录到你的代码的任何一次调用",
    "a tensor of a class of its own ran its own code inside torch":
        "一个自定义类的张量在 torch 内部运行了它自己的代码",
    "it ran one of torch's higher-order operators (torch.cond and its kin), which run code out "
    "of the record's sight":
        "它运行了 torch 的高阶算子（torch.cond 之类），这些算子运行的代码不在记录范围内",
    "it handed a function of its own to torch's override machinery":
        "它把自己的函数交给了 torch 的重载机制",
    "it took the recording's mode off torch's stack": "它把记录用的模式从 torch 的栈上取了下来",
    "it put the recording's mode on torch's stack by hand":
        "它自己动手把记录用的模式放回了 torch 的栈上",
    "it switched off what records torch's functions": "它关掉了记录 torch 函数的机制",
    "it switched torch's Python dispatch off": "它关掉了 torch 的 Python 分派",
    "it restored another state of torch's modes": "它把 torch 的模式恢复成了另一个状态",
    "it set or unset one of torch's own dispatch modes": "它设置或撤销了 torch 自己的某个分派模式",
    "it registered code of its own as torch's operations": "它把自己的代码注册成了 torch 的运算",
    "it ran an operation of torch's whose kernel is written in Python ({detail}: a tensor on "
    "the meta device, or an operation outside aten, such as torch.ops.prims), which runs out "
    "of the record's sight and calls what torch's modules name then":
        "它运行了 torch 的一个用 Python 写内核的运算（{detail}：meta 设备上的张量，或 aten 之外的"
        "运算，例如 torch.ops.prims），这种内核在记录之外运行，并调用 torch 各模块当时所指的函数",
    "it stopped or reset the measure of the memory Python's objects take":
        "它停止或重置了对 Python 对象内存占用的测量",
    "a setting of the grader's did not verify": "评分程序的一项设置没有通过校验",
    "it put a key that is not a name into the notebook's namespace":
        "它在笔记本的命名空间里放入了一个不是名字的键",
    "the recording's mode is no longer on torch's stack": "记录用的模式已经不在 torch 的栈上",
    "it left a mode of its own on torch's stack": "它在 torch 的栈上留下了自己的模式",
    "a profile or trace function is set": "设置了 profile 或 trace 函数",
    "it reached for a frame of the grader's": "它去取评分程序的栈帧",
    "it changed {detail}": "它改动了 {detail}",
    "it changed a function's {detail}": "它改动了一个函数的 {detail}",
    "it made code from bytes (marshal)": "它用字节生成了代码（marshal）",
    "it imported {detail} anew": "它重新导入了 {detail}",
    "it opened the process's memory": "它打开了进程的内存",
    "it made a link to a file": "它创建了指向文件的链接",
    "it asked pickle for {detail}": "它让 pickle 取出了 {detail}",
    "it asked for every thread's frame": "它索取了所有线程的栈帧",
    "it set a profile or trace function": "它设置了 profile 或 trace 函数",
    "it added an audit hook": "它添加了审计钩子",
    "it asked the garbage collector for objects": "它向垃圾回收器索取对象",
    "it made a code object": "它创建了代码对象",
    "it started another process or program ({detail})": "它启动了另一个进程或程序（{detail}）",
    "it used ctypes": "它用了 ctypes",
    "the grader's guard failed on {detail}": "评分程序的防护在 {detail} 上出错",
    "a reply to the grader was altered or not sealed": "发给评分程序的回答被改动过或没有封签",
    "a reply to the grader is missing, or one was added": "发给评分程序的回答缺了一条，或多了一条",
    "a reply answers another request": "有一条回答对应的是另一个请求",
    "its record is not data": "它的记录不是数据",
    "uses {names}": "用到了 {names}",
    "never calls {names} (a call that cannot run does not count)":
        "从未调用 {names}（不会运行到的调用不算数）",
    "found a Python loop: {loop}": "含有 Python 循环：{loop}",
    "an array of Python objects (numpy calls each one's methods in turn)":
        "由 Python 对象组成的数组（numpy 会逐个调用其中每个对象的方法）",
    "a for loop": "for 循环",
    "a while loop": "while 循环",
    "an async for loop": "async for 循环",
    "a list comprehension": "列表推导式",
    "a set comprehension": "集合推导式",
    "a dict comprehension": "字典推导式",
    "a generator expression": "生成器表达式",
    "has no Python loop": "没有 Python 循环",
    "queries": "个查询",
    "positions": "个位置",
    "heads": "个头",
    "calls on {sizes} {what} ran {counts} operations: at least one more for each one more, "
    "from each size to the next, as a loop does, however it is written":
        "对 {sizes} {what}的调用分别执行了 {counts} 个运算：每多一个就至少多一个运算，"
        "每个规模到下一个规模都是如此，这正是循环的做法，不论循环怎么写",
    "{name} calls itself": "{name} 调用了自己",
    "{name}, which a loop walks": "{name}（循环会逐个访问它的对象）",
    "it calls {name}()": "它调用了 {name}()",
    "it calls {name}() with a name computed at run time": "它用运行时才算出的名字调用 {name}()",
    "it uses {name} without calling it, so the names it reaches are decided at run time":
        "它没有直接调用 {name}，而是把它当作值来用，于是它取到哪些名字要到运行时才能确定",
    "it uses {name}": "它用到了 {name}",
    "it imports * from a module": "它用 import * 从模块导入",
    "it imports {module}, whose code is not judged (graded code may import {allowed}); put "
    "that code in the notebook":
        "它导入了 {module}，而这个模块的代码不会被评判（评分的代码只能导入 {allowed}）；"
        "请把这段代码写进笔记本",
    "it uses {names}, which the course's helper cell defines for the test cells: grading "
    "removes them before your step's code runs, so write what you need yourself":
        "它用到了 {names}，这些是课程的辅助单元格为测试单元格定义的；评分时，在运行你这一步的"
        "代码之前会把它们删除，所以你需要的代码请自己写",
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
    "took {seconds:.1f} s here, and grading stops a cell after {limit:g} s: make it faster (a "
    "smaller example, no Python loop over large data)":
        "在这里运行了 {seconds:.1f} 秒，而评分时一个单元格最多只能运行 {limit:g} 秒：请让它更快"
        "（换一个小一点的例子，不要用 Python 循环处理大量数据）",
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
    # argparse's own words in check_notebook.py (as autograder/i18n/zh_help.py has them)
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "show this help message and exit": "显示这份帮助并退出",
    "%(prog)s: error: %(message)s\n": "%(prog)s：错误：%(message)s\n",
    "the following arguments are required: %s": "缺少以下参数：%s",
    "unrecognized arguments: %s": "无法识别的参数：%s",
    "argument %(argument_name)s: %(message)s": "参数 %(argument_name)s：%(message)s",
    "invalid %(type)s value: %(value)r": "无效的 %(type)s 值：%(value)r",
    "expected one argument": "需要一个参数",
}


# The operating system's words for an error, in Chinese as glibc's zh_CN says them, by the
# error's name in the errno module (its number differs between systems; errno.errorcode
# names each number once, so ENOTSUP and not its alias EOPNOTSUPP).
ZH_OS_ERRORS = {
    "EPERM": "不允许的操作", "ENOENT": "没有那个文件或目录", "ESRCH": "没有那个进程",
    "EINTR": "被中断的系统调用", "EIO": "输入/输出错误", "ENXIO": "没有那个设备或地址",
    "E2BIG": "参数列表过长", "EBADF": "错误的文件描述符", "ECHILD": "没有子进程",
    "EAGAIN": "资源暂时不可用", "ENOMEM": "无法分配内存", "EACCES": "权限不够",
    "EBUSY": "设备或资源忙", "EEXIST": "文件已存在", "EXDEV": "无效的跨设备链接",
    "ENODEV": "没有那个设备", "ENOTDIR": "不是目录", "EISDIR": "是一个目录",
    "EINVAL": "无效的参数", "ENFILE": "系统中打开的文件过多", "EMFILE": "打开的文件过多",
    "ETXTBSY": "文本文件忙", "EFBIG": "文件过大", "ENOSPC": "设备上没有空间",
    "EROFS": "只读文件系统", "EMLINK": "过多的链接", "EPIPE": "断开的管道",
    "ENAMETOOLONG": "文件名过长", "ENOSYS": "函数未实现", "ENOTEMPTY": "目录非空",
    "ELOOP": "符号连接的层数过多", "EDQUOT": "超出磁盘限额", "ECONNREFUSED": "拒绝连接",
    "ETIMEDOUT": "连接超时", "ECONNRESET": "连接被对方重置", "EADDRINUSE": "地址已在使用",
    "EHOSTUNREACH": "没有到主机的路由", "ENETUNREACH": "网络不可达",
    "ENOTSUP": "不支持的操作",
}
# str(error) is "[Errno 13] Permission denied: 'x'"; in Chinese:
ZH_OS_ERROR = "{reason}（errno {number}）{files}"
ZH_OS_ERROR_FILES = "：{files}"


def _os_reason(error, language=None):
    """What the system says of an OSError (its strerror), in the course's language."""
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return error.strerror or str(error)
    import errno

    return ZH_OS_ERRORS.get(errno.errorcode.get(error.errno, ""), error.strerror or str(error))


def _os_error(error, language=None):
    """An OSError as str() writes it ("[Errno 13] Permission denied: 'x'"), in the course's
    language: the system's words translated, the error's number and files kept."""
    if (language or LANGUAGE) != "zh" or error.errno is None:
        return str(error)
    files = [repr(name) for name in (error.filename, error.filename2) if name is not None]
    return ZH_OS_ERROR.format(reason=_os_reason(error, language), number=error.errno, files=(
        ZH_OS_ERROR_FILES.format(files=" -> ".join(files)) if files else ""))


def _os_errors_in(fields, language=None):
    """`fields` with each OSError written in the course's language (_os_error)."""
    return {name: _os_error(value, language) if isinstance(value, OSError) else value
            for name, value in fields.items()}


def _t(text, language=None, **fields):
    """`text` in the course's language (or in `language`), its {fields} filled in."""
    template = ZH.get(text, text) if (language or LANGUAGE) == "zh" else text
    fields = _os_errors_in(fields, language)
    return template.format(**fields) if fields else template
