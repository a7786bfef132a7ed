"""Chinese texts of grading and its outputs: what the grader writes into an autograded notebook
(autograder/grading/, autograder/sandbox/), the feedback page's own words, the class report and
the problems it lists (autograder/outputs/)."""

CATALOG = {
    "warning: {student} {assignment}: {status}, its score in the file is not final until it "
    "is graded: {note}": "警告：{student} {assignment}：{status}，评分之前文件中的得分不是最终"
    "成绩：{note}",
    "it gives no time the kit can read: {found!r}": "其中没有本套件能读懂的时间：{found!r}",
    "write the time the student handed in, as nbgrader writes it ({example}), or empty the file "
    "if no one knows it, then run grade again":
        "请按 nbgrader 的写法（{example}）写上学生提交的时间；如果没人知道这个时间，就把文件"
        "清空，然后再运行 grade",
    "feedback {assignment}: skipped, nothing graded yet for {students}":
        "反馈 {assignment}：跳过，{students} 还没有评过分的提交",
    "needs your attention, each with its fix on the page: {items}":
        "需要你处理（页面上有每一项的解决办法）：{items}",
    "feedback {assignment}: skipped, nothing graded yet":
        "反馈 {assignment}：跳过，还没有评过分的提交",
    "feedback {assignment}: no page for {students}: handed in, not graded":
        "反馈 {assignment}：{students} 没有页面：已提交，但没有评分",
    "{count} handed-in notebooks have no feedback page, since they are not graded (said "
    "above); run {command}, which says why each is not":
        "{count} 份已提交的笔记本没有评分，所以没有反馈页面（见上文）；请运行 {command}，"
        "它会说明每一份为什么没有评分",
    "{count} handed-in notebook has no feedback page, since it is not graded (said above); "
    "run {command}, which says why":
        "{count} 份已提交的笔记本没有评分，所以没有反馈页面（见上文）；请运行 {command}，"
        "它会说明原因",
    "{count} feedback pages could not be written (the old page, if any, is kept): {pages}":
        "有 {count} 个反馈页面没能写出（原有的页面保持不变）：{pages}",
    "feedback {assignment}: {count} pages in feedback/":
        "反馈 {assignment}：feedback/ 中共 {count} 个页面",
    "feedback {assignment}: {count} page in feedback/":
        "反馈 {assignment}：feedback/ 中共 {count} 个页面",
    "{folder}: no such folder; create it or export elsewhere (--to)":
        "{folder}：没有这个文件夹；请先创建它，或用 --to 导出到别处",
    "grades: {path}": "成绩：{path}",
    # The LMS import files (autograder/outputs/lms_export.py, canvas.py, moodle.py)
    "Canvas finds a student by their Canvas user id, and the gradebook has none for "
    "{students}: add it (`nbgrader db student add ID --lms-user-id=N`, or `nbgrader db student "
    "import students.csv` with an lms_user_id column; N is the number at the end of the "
    "student's page in Canvas, .../users/N), then export again; nothing was written":
        "Canvas 按 Canvas 用户 id 找到学生，而成绩册中没有 {students} 的这一 id：请补上"
        "（`nbgrader db student add ID --lms-user-id=N`，或用带 lms_user_id 列的 "
        "students.csv 运行 `nbgrader db student import students.csv`；N 是该学生在 Canvas "
        "中页面地址末尾的数字，.../users/N），然后重新导出；没有写出任何文件",
    "Moodle's import finds a student by their email address, and the gradebook has none for "
    "{students}: add the address of their Moodle account (`nbgrader db student add ID "
    "--email=ADDRESS`, or `nbgrader db student import students.csv` with an email column), "
    "then export again; nothing was written":
        "Moodle 的导入按电子邮件地址找到学生，而成绩册中没有 {students} 的电子邮件地址："
        "请补上其 Moodle 账号的地址（`nbgrader db student add ID --email=ADDRESS`，或用带 "
        "email 列的 students.csv 运行 `nbgrader db student import students.csv`），"
        "然后重新导出；没有写出任何文件",
    "{lms} would put two students' grades on one account: {pairs}; give each student their own "
    "{field} in the gradebook (`nbgrader db student add ID --{option}=...`), then export "
    "again; nothing was written":
        "{lms} 会把两个学生的成绩记到同一个账号上：{pairs}；请在成绩册中给每个学生各自的 "
        "{field}（`nbgrader db student add ID --{option}=...`），然后重新导出；没有写出任何文件",
    "{key}: {students}": "{key}：{students}",
    "{student} {assignment}: student left out of the file, {status}: {note}":
        "{student} {assignment}：此学生未写入文件，{status}：{note}",
    "not in the file, no student could be told: {note}":
        "未写入文件，看不出是哪个学生的：{note}",
    "{lms} grades: {path}, {students}, {assignments}":
        "{lms} 成绩：{path}，{students}，{assignments}",
    "1 student": "1 个学生",
    "{count} students": "{count} 个学生",
    "1 assignment": "1 次作业",
    "{count} assignments": "{count} 次作业",
    "{students} left out of the file until {notebooks} a grade (an empty cell would clear the "
    "grade the LMS holds): run grade (or fix what is named above), then export again":
        "{students}未写入文件，要等{notebooks}成绩才写入（空单元格会清除 LMS 中已有的成绩）："
        "请运行 grade（或先改正上面列出的问题），然后重新导出",
    "1 student is": "有 1 个学生",
    "{count} students are": "有 {count} 个学生",
    "1 notebook has": " 1 份笔记本有了",
    "{count} notebooks have": " {count} 份笔记本有了",
    "the file-name pattern {pattern} is not a regular expression: {error}":
        "文件名模式 {pattern} 不是合法的正则表达式：{error}",
    "the file-name pattern {pattern} needs the groups (?P<student_id>...) and "
    "(?P<file_id>...)":
        "文件名模式 {pattern} 需要含有 (?P<student_id>...) 和 (?P<file_id>...) 这两个分组",
    "{source}: neither a folder nor a zip file; give the folder of notebooks or the zip the "
    "LMS exported":
        "{source}：既不是文件夹也不是 zip 文件；请给出存放笔记本的文件夹，或LMS 导出的 "
        "zip 文件",
    "{source}: no such file or folder": "{source}：没有这个文件或文件夹",
    # grading/session.py: why a step is not defined
    '{name} is not defined: {cause}': '{name} 尚未定义：{cause}',
    'the cell that defines it does not run: {kind} on its line {line} ({message}); fix the '
    'cell and run it':
        '定义它的单元格无法运行：第 {line} 行出现 {kind}（{message}）；请修改这个单元格并运行它',
    'the cell that defines it was stopped midway: {reason}; make it finish (an endless loop, '
    'or a long run at the top of the cell?)':
        '定义它的单元格中途被停止：{reason}；请让它能运行完（是不是有无限循环，或者在单元格顶层'
        '做了很耗时的计算？）',
    'the cell that defines it raised {kind} on its line {line}, before the definition ran; fix '
    'the cell and run it':
        '定义它的单元格在第 {line} 行抛出了 {kind}，定义它的代码还没来得及运行；请修改这个单元格并'
        '运行它',
    "its student id {student!r} is not one the course can use (letters, digits, '.', '_' and "
    "'-', a letter or a digit first)":
        "它的学生 id {student!r} 不能在课程中使用（只能用字母、数字和 '.'、'_'、'-'，"
        "并以字母或数字开头）",
    "rename the file, or give a --pattern whose student_id group takes the LMS's id of the "
    "student":
        "请重命名这个文件，或者给出一个 --pattern，让其中的 student_id 组取学生在 LMS 中的 id",
    "warning: {path} is kept in {aside}: the new submission holds a file of that name":
        "警告：{path} 保存在 {aside}：新的提交里有同名文件",
    "{folder}: no such folder; create it or write the report elsewhere (--to)":
        "{folder}：没有这个文件夹；请先创建它，或用 --to 把报告写到别处",
    "{days} d {clock}": "{days} 天 {clock}",
    "{by} (within the grace minutes)": "{by}（在宽限时间之内）",
    "the helpers' code is left out here; it is in your notebook's helper cell":
        "辅助函数的代码这里从略，它在你的笔记本的辅助单元格里",
    # What a cell shows (autograder/grading/session.py, shown_outputs.py, grade_in_sandbox.py)
    "[output cut by the grader: a cell may show at most {limit} KB]":
        "【输出已被评分程序截断：每个单元格最多显示 {limit} KB】",
    "[a plot of {size} KB left out: an image may have at most {limit} KB]":
        "【这里省略了一张 {size} KB 的图：每张图最多 {limit} KB】",
    "[an image left out: it is not a PNG file]":
        "【这里省略了一张图像：它不是 PNG 文件】",
    "[a plot left out: a notebook may show at most {count} images]":
        "【这里省略了一张图：一个笔记本最多显示 {count} 张图】",
    "this cell has {size} KB of code, more than the {limit} KB a cell may have; it was not run":
        "这个单元格有 {size} KB 代码，超过了单元格允许的 {limit} KB，因此没有运行",
    "{size} KB more of this cell not shown: it has more than the {limit} KB of code a cell may "
    "have and was not run":
        "这个单元格其余的 {size} KB 没有显示：它的代码超过了单元格允许的 {limit} KB，没有运行",
    "{reason}; this cell was skipped": "{reason}；这个单元格被跳过了",
    "this process hashes strings at random: the mistake named to a student whose code "
    "iterates a set may differ from one regrade to the next; start nbgrader with "
    "PYTHONHASHSEED=0 in its environment, or grade with the kit's `grade`":
        "这个进程对字符串使用随机哈希：代码遍历集合的学生，每次重新评分时被指出的已知错误"
        "可能不同；请在 nbgrader 的环境中设置 PYTHONHASHSEED=0 后再启动，或用本套件的 `grade` "
        "评分",
    "the notebook's time limit was reached": "整个笔记本的运行时间已经用完",
    "it left processes running (a fork or a daemon)": "它留下了仍在运行的进程（fork 或守护进程）",
    "[not run in grading: no check reads what this cell makes; run it in your notebook to "
    "see what it shows]":
        "【评分时没有运行：没有任何检查读取这个单元格产生的结果；请在你自己的笔记本中运行它来查看输出】",
    "[this cell left processes running (a fork or a daemon): the grader stopped them and "
    "started the kernel again with the cells before this one, so what this cell did is not "
    "kept for the cells after it]":
        "【这个单元格留下了仍在运行的进程（fork 或守护进程）：评分程序停止了它们，并只用它之前的"
        "单元格重新启动了内核，所以这个单元格所做的不会保留给后面的单元格】",
    "the notebook's time is running out, and what is left is kept for the cells that define "
    "your answers; this cell was not run":
        "笔记本的运行时间快用完了，剩下的时间留给定义你答案的单元格；这个单元格没有运行",
    "{path} is one of the course's own files: write the output elsewhere (--to)":
        "{path} 是课程自己的文件：请把输出写到别处（--to）",
    "{path} is inside {folder}/, which holds the course's own files and nothing else: write "
    "the output elsewhere (--to)":
        "{path} 在 {folder}/ 里，那里只放课程自己的文件：请把输出写到别处（--to）",
    "{path} exists and is not what this command writes: nothing was written over it; give "
    "another file (--to), or move it away first":
        "{path} 已经存在，而且不是这条命令写的文件：没有覆盖它；"
        "请换一个文件（--to），或者先把它移走",
    "{reason}, and the kernel could not be brought back ({error})":
        "{reason}，而且内核无法重新启动（{error}）",
    "[not run here: {why}; what this cell defines runs where each step is judged]":
        "【没有在这里运行：{why}；这个单元格定义的内容会在评判每个步骤的地方运行】",
    # Judging a step (autograder/grading/session.py)
    # ("{name} is not defined: ..." and "{name}: every hidden check passed" are the checks'
    # texts too: their Chinese is in zh_checks.py.)
    "(Your code for it, run on its own after the course's cells, raised {kind}: {message}; "
    "graded code may use only the course's cells, what it defines itself and the libraries.)":
        "（只在课程的单元格之后单独运行你为它写的代码时，出现了 {kind}：{message}；"
        "评分的代码只能用到课程的单元格、它自己定义的东西和库。）",
    "{name} cannot be graded on its own: {reason}": "{name} 无法单独评分：{reason}",
    "the kernel that judges the steps could not be started ({error})":
        "用来评判各个步骤的内核无法启动（{error}）",
    "checking {name}: {reason}": "检查 {name} 时：{reason}",
    "the course declares no hidden checks for {name} ({why}), so this test cannot be passed; "
    "the instructor must add them to the assignment's checks.py and grade again":
        "课程没有为 {name} 声明隐藏检查（{why}），所以这项测试无法通过；"
        "需要由教师在这次作业的 checks.py 中补上，再重新评分",
    "its assignment's checks.py has no step of that name":
        "这次作业的 checks.py 中没有这个名字的步骤",
    "the course's master notebook names no step for this test cell to check, so it cannot be "
    "passed; the instructor must rebuild the assignment":
        "课程的主笔记本没有为这个测试单元格指定要检查的步骤，所以它无法通过；需要由教师重新构建这次作业",
    "every student scores 0 on that test until the assignment is fixed; then run grade --force":
        "在这次作业修好之前，每个学生在这项测试上都得 0 分；修好后请运行 grade --force",
    "the grader could not call your code: {error}": "评分程序无法调用你的代码：{error}",
    "the grader could not check {name} ({kind}: {message})":
        "评分程序无法检查 {name}（{kind}：{message}）",
    # The kernel and the link to it (autograder/sandbox/)
    "ran past the time limit ({seconds:.0f} s)": "运行超出了时间限制（{seconds:.0f} 秒）",
    "it sent the grader a message of more than {mb} MB (an output or a value too large to "
    "read), or closed the kernel's connection":
        "它向评分程序发送了超过 {mb} MB 的消息（输出或数值太大，无法读取），或关闭了内核的连接",
    "the kernel died (os._exit, a crash, or out of memory)":
        "内核终止了（os._exit、程序崩溃或内存耗尽）",
    "its code made a folder the grader cannot read in its working folder":
        "代码在工作文件夹里建了一个评分程序无法读取的文件夹",
    "its code made more than {count} files and folders in its working folder":
        "代码在工作文件夹里建了超过 {count} 个文件和文件夹",
    "its code wrote more than {mib} MiB into its working folder (the limit: "
    "c.GradeInSandbox.folder_limit_mb)":
        "代码向工作文件夹写入了超过 {mib} MiB（上限由 c.GradeInSandbox.folder_limit_mb 设定）",
    "its code hid from the grader the files it holds open (it made its processes unreadable)":
        "代码让评分程序看不到它打开着的文件（它把自己的进程设成了不可读取）",
    "its code kept more than {mib} MiB on disk, counting files it removed but still holds "
    "open or mapped (the limit: c.GradeInSandbox.folder_limit_mb)":
        "代码在磁盘上占用了超过 {mib} MiB，其中包括它已删除却仍然打开或映射着的文件（上限由 "
        "c.GradeInSandbox.folder_limit_mb 设定）",
    "the sandboxed kernel exited at start: {log}": "沙箱内核刚启动就退出了：{log}",
    "the sandboxed kernel did not answer within {seconds} s":
        "沙箱内核在 {seconds} 秒内没有响应",
    "it wrote no log": "它没有留下日志",
    # Which sandbox this machine can give (autograder/sandbox/isolation.py)
    "not root": "不是 root",
    "its sandbox user cannot enter {folder} (chmod o+x {folder}, or grade where namespaces can "
    "be made)": "它的沙箱用户无法进入 {folder}（请执行 chmod o+x {folder}，或在能创建命名空间的"
    "地方评分）",
    "the kit could not be set up on the cluster's workers: {error}; check that they run "
    "(`{command}`)": "无法在集群的工作进程上设置本套件：{error}；请确认它们在运行（`{command}`）",
    "a worker left while the kit was set up on the cluster ({error}); setting it up again on "
    "the others": "设置本套件时有一个工作进程退出了（{error}）；正在其余工作进程上重新设置",
    "{count} of the cluster's workers ({workers}) hash strings at random or unlike the others: "
    "a mistake named to a student whose code iterates a set may be named on one regrade and "
    "not on the next; start every worker alike, with PYTHONHASHSEED=0 (`{command}`)":
        "集群中有 {count} 个工作进程（{workers}）对字符串使用随机哈希，或与其他工作进程不同："
        "代码遍历集合的学生，某个已知错误可能这次重新评分被指出、下次却没有；请用同样的方式、"
        "设置 PYTHONHASHSEED=0 启动每个工作进程（`{command}`）",
    "as root, Linux sets no process limit in a user namespace":
        "以 root 身份运行时，Linux 不限制用户命名空间中的进程数",
    "no Landlock": "没有 Landlock",
    "Landlock ABI {abi} (ABI {needed} needed)": "Landlock ABI {abi}（需要 ABI {needed}）",
    "c.GradeInSandbox.isolation is {value!r}: it must be \"full\" or \"limits\"":
        "c.GradeInSandbox.isolation 是 {value!r}：它只能是 \"full\" 或 \"limits\"",
    "{variable}={value} names no full sandbox (one of {names})":
        "{variable}={value} 不是完整沙箱的一种（应为 {names} 之一）",
    "{variable}={value}: {why}": "{variable}={value}：{why}",
    "the full sandbox cannot be built here ({missing}). Grade where Linux offers one of them "
    "(`python -m autograder guide sandbox`), or set c.GradeInSandbox.isolation = \"limits\" in "
    "nbgrader_config.py knowing that student code then runs as you, able to read your files "
    "and use the network":
        "这台机器上无法建立完整的沙箱（{missing}）。请在提供其中一种机制的 Linux 上评分"
        "（见 `python -m autograder guide sandbox`），或者在 nbgrader_config.py 中设置 "
        "c.GradeInSandbox.isolation = \"limits\"，但要清楚：那样学生代码会以你的身份运行，"
        "能读取你的文件、使用网络",
    "full (namespaces, as root)": "完整（以 root 身份使用命名空间）",
    "full (user namespaces)": "完整（用户命名空间）",
    "full (Landlock ABI {abi} and seccomp)": "完整（Landlock ABI {abi} 与 seccomp）",
    "limits only (chosen in nbgrader_config.py: student code runs as you)":
        "仅资源限制（在 nbgrader_config.py 中选择：学生代码以你的身份运行）",
    "sandbox: {isolation}": "沙箱：{isolation}",
    "Student code ran in the sandbox: {isolations}.": "学生代码运行所在的沙箱：{isolations}。",
    "{isolation}, {count} notebooks": "{isolation}，{count} 个笔记本",
    "{isolation}, {count} notebook": "{isolation}，{count} 个笔记本",
    "the autograder cannot grade on this machine, so your notebook was not graded; this is not "
    "your mistake: tell your instructor, and submit again once it is fixed":
        "自动评分器无法在这台机器上评分，所以你的笔记本没有评分；这不是你的错误：请告诉教师，"
        "修好之后再提交一次",
    "the grader got no answer from the kernel (was input() changed?)":
        "评分程序没有收到内核的回答（是不是改动了 `input()`？）",
    "the judging kernel could not be guarded ({error})": "无法为评判用的内核设好防护（{error}）",
    "its replies to the grader were tampered with ({what})":
        "它发给评分程序的回答被动过手脚（{what}）",
    "a setting did not arrive": "有一项设置没有送达",
    "a reply did not verify": "有一条回答没有通过校验",
    "a reply answers another request": "有一条回答对应的是另一个请求",
    "the result is larger than the {limit} MB a reply may have":
        "结果超过了一次回答允许的 {limit} MB",
    "the call is larger than the {limit} MB a call may have":
        "这次调用超过了一次调用允许的 {limit} MB",
    "the kernel's answer is not plain data ({error})": "内核的回答不是纯数据（{error}）",
    # Files beside the notebook that are not copied into its sandbox (autograder/sandbox/kernel.py)
    "{path}: {why}, not copied": "{path}：{why}，未复制",
    "{path} and the rest: past {count} files and folders, not copied":
        "{path} 及其后的内容：超过了 {count} 个文件和文件夹，未复制",
    "a symbolic link": "符号链接",
    "a named pipe": "命名管道",
    "a socket": "套接字",
    "a device": "设备文件",
    "past {depth} folders deep": "超过了 {depth} 层文件夹",
    "not a regular file": "不是普通文件",
    "a hard link (the same file as another one, maybe outside the folder)":
        "硬链接（与另一个文件是同一个文件，那个文件可能在文件夹之外）",
    "{size:,} bytes, more than the {limit} a file may have":
        "{size:,} 字节，超过了单个文件允许的 {limit}",
    "past the {limit} the folder's files may have in all":
        "超出了文件夹中所有文件合计允许的 {limit}",
    "unreadable ({reason})": "无法读取（{reason}）",
    "changed while it was copied": "复制过程中被改动了",
    "more than the {limit} a file may have": "超过了单个文件允许的 {limit}",
    # Graded cells a student changed (autograder/grading/restore_test_cells.py)
    "a second copy of cell {grade_id} (cell {number}): graded as student code":
        "单元格 {grade_id} 的第二个副本（第 {number} 个单元格）：按学生代码评分",
    "nbgrader metadata forged on cell {grade_id} (cell {number}): graded as student code":
        "单元格 {grade_id}（第 {number} 个单元格）带有伪造的 nbgrader 元数据：按学生代码评分",
    "cell {grade_id} retyped to {cell_type}: restored":
        "单元格 {grade_id} 的类型被改成了 {cell_type}：已恢复",
    "points of {grade_id} changed: restored": "{grade_id} 的分值被改动：已恢复",
    "locked cell {grade_id} edited: restored": "只读单元格 {grade_id} 被改动：已恢复",
    "test cell {grade_id} deleted or renamed: restored at the end":
        "测试单元格 {grade_id} 被删除或改名：已在笔记本末尾恢复",
    # Code an instructor should look at (autograder/grading/integrity.py)
    "exec of a string": "对字符串调用 exec",
    "eval of a string": "对字符串调用 eval",
    "compile of a string": "对字符串调用 compile",
    "get_ipython (IPython hooks)": "get_ipython（IPython 钩子）",
    "__import__": "__import__",
    "os._exit": "os._exit",
    "getattr with a computed name": "用运行时算出的名字调用 getattr",
    "__torch_function__ (tensor subclass that intercepts torch)":
        "__torch_function__（拦截 torch 调用的张量子类）",
    "TorchFunctionMode (intercepts every torch call)": "TorchFunctionMode（拦截所有 torch 调用）",
    "subprocess": "subprocess",
    "signal handlers": "信号处理函数",
    "ctypes": "ctypes",
    "sys.modules": "sys.modules",
    "__builtins__": "__builtins__",
    "builtins": "builtins",
    "IPython input transformers": "IPython 输入转换器",
    "socket": "socket",
    "os.fork": "os.fork",
    "os.setsid": "os.setsid",
    "names the path {path}, outside the notebook's folder": "写了笔记本所在文件夹之外的路径 {path}",
    "a cell of {size} KB (not read)": "一个 {size} KB 的单元格（未读取）",
    # Submissions refused or graded with a warning (autograder/grading/submissions.py,
    # parallel.py, autograder/outputs/collect.py)
    "; ": "；",
    "no notebook of that name": "没有这个名字的笔记本",
    "the folder holds {other}, another assignment's notebook: ask the student to hand in "
    "their {notebook}":
        "文件夹里是另一份作业的笔记本 {other}：请学生提交自己的 {notebook}",
    "if {found} is the student's work on {assignment}, rename it {notebook}":
        "如果 {found} 是这名学生做的 {assignment}，请把它改名为 {notebook}",
    "put the student's notebook there as {notebook}":
        "请把这名学生的笔记本以 {notebook} 为名放到这里",
    "the submission holds {entry}, a symbolic link or special file":
        "提交中含有 {entry}，它是符号链接或特殊文件",
    " (and {count} more)": "（另有 {count} 个）",
    "the kit never follows links in a submission: replace it by the file itself, or remove "
    "it, then run grade again":
        "本套件从不跟随提交中的链接：请换成文件本身或把它删掉，再运行 grade",
    "not a Jupyter notebook ({error})": "不是 Jupyter 笔记本（{error}）",
    "not a valid notebook ({error})": "不是有效的笔记本（{error}）",
    "the notebook is {size:.1f} MB, more than the {limit} MB the kit reads":
        "这个笔记本有 {size:.1f} MB，超过了本工具读取的上限 {limit} MB",
    "ask the student to clear the notebook's outputs (Kernel > Restart and Clear Outputs), save "
    "it and hand it in again":
        "请学生清除笔记本的输出（Kernel > Restart and Clear Outputs），保存后重新提交",
    "its code cells hold {count:,} characters, more than the {limit:,} the kit judges (a "
    "notebook of the course holds some 50,000)":
        "它的代码单元格共有 {count:,} 个字符，超过了本工具评判的上限 {limit:,}（本课程的笔记本约有 "
        "50,000 个）",
    "ask the student to remove the generated or pasted code, save the notebook and hand it in "
    "again":
        "请学生删除生成或粘贴进来的代码，保存笔记本后重新提交",
    "ask the student to resubmit the .ipynb file saved by Jupyter":
        "请学生重新提交由 Jupyter 保存的 .ipynb 文件",
    "this is not the notebook of {assignment} (its test cells are {cells})":
        "这不是 {assignment} 的笔记本（它的测试单元格是 {cells}）",
    "ask the student to hand in their {assignment}.ipynb":
        "请学生提交自己的 {assignment}.ipynb",
    "test cells deleted or renamed: {cells}": "被删除或改名的测试单元格：{cells}",
    "test cells duplicated: {cells}": "重复的测试单元格：{cells}",
    "unknown test cells: {cells}": "未知的测试单元格：{cells}",
    "graded anyway (nbgrader restores test cells by id); if points are missing, ask for the "
    "code in a fresh copy of the release notebook":
        "仍已评分（nbgrader 会按 id 恢复测试单元格）；如果因此丢了分，请学生把代码放进一份"
        "新下载的作业笔记本后重新提交",
    "the folder name is not a valid student id": "文件夹名不是有效的学生 id",
    "rename the folder to the student's id (letters, digits, '.', '_' or '-' only)":
        "请把文件夹改名为学生 id（只能含字母、数字和“.”“_”“-”）",
    "the submission folder is a symbolic link": "提交文件夹是一个符号链接",
    "it holds more than {count} files and folders": "其中的文件和文件夹超过 {count} 个",
    "its folders are nested more than {depth} deep": "文件夹嵌套超过 {depth} 层",
    "the submission folder cannot be looked through: {error}": "无法查看提交文件夹：{error}",
    "keep the notebook and remove the rest of the folder, then run grade again":
        "只保留笔记本，删掉文件夹里的其余内容，再运行 grade",
    "the submission cannot be inspected ({error})": "无法检查这份提交（{error}）",
    "look at the submission folder, fix or remove what is odd in it, then run grade again":
        "请查看提交文件夹，修正或删除其中异常的内容，再运行 grade",
    "the kit never follows links in a submission: put the student's files there instead":
        "本套件从不跟随提交中的链接：请把学生的文件直接放在那里",
    "not graded: {why}": "未评分：{why}",
    "fix the notebook (or ask the student to), then run grade again":
        "修正笔记本（或请学生修正）后，再运行 grade",
    "the kernel died (os._exit, a crash or memory exhausted)":
        "内核终止了（os._exit、程序崩溃或内存耗尽）",
    "a cell ran past the timeout and could not be interrupted":
        "有单元格运行超时，而且无法中断",
    "the notebook's kernel is not installed": "没有安装笔记本所需的内核",
    "nbgrader's autograde failed": "nbgrader 的自动评分失败了",
    "the kernel template died each time this notebook was graded (memory exhausted, or killed "
    "from outside): grade it again":
        "每次评这份笔记本时，内核模板进程都终止了（内存耗尽，或者被外部杀掉）：请重新评分",
    # The grading engine (autograder/engine/cluster.py)
    "a grading worker refused: {why}": "有一个评分进程拒绝评分：{why}",
    "the grading worker died each time it graded this notebook (memory exhausted, or the "
    "process was killed)":
        "每次评这份笔记本时，评分进程都终止了（内存耗尽，或者进程被杀掉）",
    "the grader failed on this notebook ({error})": "评分程序处理这份笔记本时出错（{error}）",
    "the file name does not match the pattern {pattern}": "文件名不符合模式 {pattern}",
    "rename it <student>_{assignment}.ipynb or pass --pattern":
        "请把它改名为 <学生 id>_{assignment}.ipynb，或者传入 --pattern",
    "it is not a notebook of {assignment}": "它不是 {assignment} 的笔记本",
    "collect it with its own assignment id": "请用它所属作业的 id 收取",
    # Reading an inbox (autograder/outputs/inbox.py) and who is late (collect.py)
    "an archive inside the inbox; it is not opened": "收件箱里的压缩包；不会打开它",
    "put the notebooks it holds in the inbox themselves": "请把其中的笔记本直接放进收件箱",
    "a symbolic link or special file; it is not followed": "符号链接或特殊文件；不会跟随它",
    "put the notebook itself in the inbox": "请把笔记本文件本身放进收件箱",
    "larger than {mb} MB; it is not read": "超过 {mb} MB；不读取",
    "ask the student to clear the notebook's outputs and hand it in again":
        "请学生清除笔记本的输出后重新提交",
    "the inbox holds more than {count} files; the rest is not read":
        "收件箱里的文件超过 {count} 个；其余的不读取",
    "collect the class in smaller parts": "请把全班的提交分成几批收取",
    "it cannot be read ({error})": "无法读取（{error}）",
    "ask the student to hand it in again": "请学生重新提交",
    "the inbox's notebooks exceed {gb} GB together; the rest is not read":
        "收件箱里的笔记本合计超过 {gb} GB；其余的不读取",
    "a second file of {student}'s {notebook}; the newer one is collected":
        "{student} 的 {notebook} 有第二个文件；收取较新的那个",
    "if the other one is the right one, collect it alone": "如果另一个才是对的，请单独收取它",
    "the inbox cannot be read ({error})": "无法读取收件箱（{error}）",
    "export the class's notebooks from the LMS again": "请从 LMS 重新导出全班的笔记本",
    "all {count} files are dated within {seconds} s of {time}: that is the export's time, "
    "not when each student handed in":
        "全部 {count} 个文件的时间都在 {time} 之后 {seconds} 秒以内：这是导出的时间，"
        "不是每个学生提交的时间",
    "if it is past the due date every student is penalised: collect with a --pattern whose "
    "(?P<timestamp>...) group reads each time from the file name, or set the students' times "
    "in submitted/*/<id>/timestamp.txt":
        "如果它晚于截止时间，每个学生都会被扣分：请用带 (?P<timestamp>...) 组的 --pattern "
        "从文件名读出各自的时间，或者在 submitted/*/<id>/timestamp.txt 中写入学生的时间",
    "no due date for {assignment} in nbgrader_config.py (c.Deadlines.due_dates): nobody is "
    "late": "nbgrader_config.py 中没有 {assignment} 的截止时间（c.Deadlines.due_dates）："
            "没有人迟交",
    "collected {assignment}: {new} new, {newer} newer than the one held, {same} the same as the "
    "one held (left as it is), {older} older (not collected); {held} in submitted/":
        "已收取 {assignment}：新提交 {new} 份，比已有的更新 {newer} 份，与已有的相同 {same} 份"
        "（保持原样），比已有的更旧 {older} 份（未收取）；submitted/ 中共有 {held}",
    "{count} submission": "{count} 份提交",
    "{count} submissions": "{count} 份提交",
    " ({count} of those collected no notebook, said above: grade reports each as not "
    "gradable)":
        "（收取的提交中有 {count} 份不是笔记本，见上文：grade 会把每一份报告为无法评分）",
    "kept {student}'s submission in submitted/ (handed in {held}): this inbox's {name} is older "
    "({when})":
        "保留了 {student} 在 submitted/ 中的提交（提交于 {held}）：这次收件中的 {name} 更旧"
        "（{when}）",
    # (the command line says its own errors and warnings with the same words)
    "error: {message}": "错误：{message}",
    "warning: {message}": "警告：{message}",
    "late: {student} by {by}": "迟交：{student}，晚了 {by}",
    "late: {student} by {by}, within the course's {minutes:g} minutes of grace (no penalty)":
        "迟交：{student}，晚了 {by}，在课程的 {minutes:g} 分钟宽限之内（不扣分）",
    "late: {student} {assignment} by {by}, penalty {penalty} of {raw} point":
        "迟交：{student} 的 {assignment} 晚了 {by}，从 {raw} 分中扣 {penalty} 分",
    "late: {student} {assignment} by {by}, penalty {penalty} of {raw} points":
        "迟交：{student} 的 {assignment} 晚了 {by}，从 {raw} 分中扣 {penalty} 分",
    "Late submissions": "迟交的提交",
    "due": "截止时间",
    "handed in": "提交时间",
    "late by": "晚了多久",
    "penalty": "扣分",
    "nobody is late": "没有人迟交",
    # Each student's status (autograder/outputs/roster.py)
    "graded": "已评分",
    "graded with warnings": "已评分（有警告）",
    "not gradable": "无法评分",
    "not graded yet": "尚未评分",
    "missing": "未提交",
    "run grade": "请运行 grade",
    "{id} is in the gradebook but no longer in the course (no source/{id}/); `python -m "
    "autograder remove {id}` takes it out of the gradebook":
        "{id} 还在成绩册里，但课程里已经没有它了（没有 source/{id}/）；"
        "`python -m autograder remove {id}` 会把它移出成绩册",
    "(every student shows as missing there)": "（那里每个学生都显示为未提交）",
    "grading was interrupted; run grade": "评分中断了；请运行 grade",
    "its last grading failed and grade was interrupted before saying why; run grade":
        "它上次评分失败，而 grade 在说明原因之前就中断了；请运行 grade",
    "a grade --force stopped before this notebook; run grade":
        "grade --force 在评到这份笔记本之前中断了；请运行 grade",
    "the submitted file changed since it was graded; run grade":
        "提交的文件在评分后又有改动；请运行 grade",
    "{reason}; {fix}": "{reason}；{fix}",
    "{path}: {reason}; {fix}": "{path}：{reason}；{fix}",
    # The class report (autograder/outputs/report.py)
    "Class report": "班级报告",
    "Self-attention course: class report": "自注意力课程：班级报告",
    "Students": "学生",
    "Scores per assignment": "各作业的分数",
    "Pass rate per step": "各步骤的通过率",
    "Most frequent named mistakes": "最常见的错误",
    "Integrity": "诚信检查",
    "Test cells without hidden checks": "没有隐藏检查的测试单元格",
    "Every student scored 0 on these test cells because the course has no hidden checks for "
    "their step. Fix the assignment (its checks.py), then run grade --force.":
        "这些测试单元格所检查的步骤在课程中没有隐藏检查，所以每个学生在这里都得了 0 分。"
        "请修好这次作业（它的 checks.py），然后运行 grade --force。",
    "Input problems and notebooks that could not be graded": "输入问题与无法评分的笔记本",
    "One column per assignment ({ids}): the score, linked to the student's feedback page, or "
    "what is missing; hover a cell for the reason and the fix.":
        "每份作业一列（{ids}）：列出分数并链接到这名学生的反馈页面，或者说明缺了什么；"
        "把鼠标停在格子上可以看到原因和解决办法。",
    ", ": "、",
    "student": "学生",
    "{score} (warnings)": "{score}（有警告）",
    "{status}: {note}": "{status}：{note}",
    "No student yet.": "还没有学生。",
    "Nothing graded yet.": "还没有评分结果。",
    # The report's first screen (autograder/outputs/report_summary.py)
    "At a glance": "概览",
    "in fifths of the points": "按满分五等分的人数",
    "Steps most failed": "失分最多的步骤",
    "Every step graded has full points everywhere.": "已评分的每个步骤，所有学生都得了满分。",
    "step": "步骤",
    "students with full points": "得满分的学生",
    "Mistakes most named": "最常识别出的错误",
    "Needs your attention": "需要你处理",
    "other input refused": "其他被拒收的输入",
    "other inputs refused": "其他被拒收的输入",
    "submission flagged for integrity": "诚信检查标记的提交",
    "submissions flagged for integrity": "诚信检查标记的提交",
    "similar pair": "相似的提交对",
    "similar pairs": "相似的提交对",
    "late submission": "迟交的提交",
    "late submissions": "迟交的提交",
    "submission needs a manual grade": "需要人工评分的提交",
    "submissions need a manual grade": "需要人工评分的提交",
    "test cell without hidden checks": "没有隐藏检查的测试单元格",
    "test cells without hidden checks": "没有隐藏检查的测试单元格",
    "Every student and every submission, at the end of this page:":
        "每个学生和每份提交，在本页末尾：",
    "assignment": "作业",
    "mean": "平均分",
    "median": "中位数",
    "max points": "满分",
    "score distributions": "分数分布",
    "pass rate per step": "各步骤的通过率",
    "No known mistake was named.": "隐藏检查没有识别出任何常见错误。",
    "named mistakes": "识别出的常见错误",
    "mistake": "常见错误",
    "notebooks": "笔记本数",
    "Submissions to look at: code that reaches into the grader (it cannot change a score: "
    "verdicts are computed outside the student's kernel), a shortcut a notebook forbids, or "
    "graded cells changed by the student (each was graded as the release has it).":
        "值得查看的提交：试图触及评分程序的代码（它改变不了分数：所有判定都在学生的内核之外"
        "计算）、笔记本禁止的捷径，或学生改动过的评分单元格（每个都按发布版原样评分）。",
    "Nothing flagged.": "没有需要关注的提交。",
    "cell": "单元格",
    "kind": "类别",
    "reason": "原因",
    "suspicious code": "可疑代码",
    "file not copied": "未复制的文件",
    "refused submission": "被拒绝的提交",
    "forbidden shortcut": "禁止的捷径",
    "tampered cells": "被改动的单元格",
    "None.": "无。",
    "found by": "发现于",
    "file": "文件",
    "problem": "问题",
    "fix": "解决办法",
    # What the report cannot show yet (autograder/outputs/report_gaps.py), its header and its
    # tables of students (report_students.py), the console lines of `report`
    "Generated {time}.": "生成于 {time}。",
    "This report is partial: {count} thing it cannot show yet":
        "这份报告还不完整：有 {count} 项暂时无法显示",
    "This report is partial: {count} things it cannot show yet":
        "这份报告还不完整：有 {count} 项暂时无法显示",
    "report: {path}": "报告：{path}",
    "Nothing is graded yet: collect the students' notebooks ({collect}), then run {grade}.":
        "还没有任何评分结果：先收取学生的笔记本（{collect}），再运行 {grade}。",
    "{assignment}: nothing graded yet; once its notebooks are collected, run {command}.":
        "{assignment}：还没有评分结果；收取它的笔记本之后，请运行 {command}。",
    "{assignment}: {count} notebooks collected, none graded yet; run {command}.":
        "{assignment}：已收取 {count} 份笔记本，还都没有评分；请运行 {command}。",
    "{assignment}: {count} notebook collected, not graded yet; run {command}.":
        "{assignment}：已收取 {count} 份笔记本，还都没有评分；请运行 {command}。",
    "{assignment}: submissions waiting for grading: {count}; run {command}.":
        "{assignment}：有 {count} 份提交等待评分；请运行 {command}。",
    "{assignment}: its similar pairs are left out, since its checks could not be read: {why}":
        "{assignment}：读不了它的检查，报告里没有它的相似对：{why}",
    "Submissions that need a manual grade (marked below): {count}; grade them in nbgrader's "
    "formgrader, then run {command}.":
        "有 {count} 份提交需要人工评分（下面已标出）：请在 nbgrader 的 formgrader 中评分，"
        "然后运行 {command}。",
    "Feedback pages older than the student's latest grading (marked below): {count}; run "
    "{command}.":
        "有 {count} 个反馈页面生成于学生最近一次评分之前（下面已标出）："
        "请运行 {command} 重新生成。",
    "Submissions": "各份提交",
    "total": "总分",
    "The last column adds the scores, late penalties taken off, over the assignments the "
    "gradebook has.":
        "最后一列是成绩册中已有的各份作业的得分之和（已扣除迟交扣分）。",
    "manual": "待人工评分",
    "needs a manual grade in nbgrader's formgrader": "需要在 nbgrader 的 formgrader 中人工评分",
    "stale": "反馈过时",
    "the feedback page is older than the latest grading; rewrite it: {command}":
        "反馈页面生成于最近一次评分之前；请重新生成：{command}",
    "raw score": "原始得分",
    "score": "得分",
    "to do": "待办",
    "no font on this machine draws Chinese, so the report's charts are labelled in English: "
    "run `bash scripts/kit setup` (it installs the font package noto-cjk-sans-otc of "
    "requirements.lock) or install a CJK font (apt-get install fonts-wqy-microhei)":
        "这台机器上没有能显示中文的字体，所以报告中的图表用英文标注：请运行 "
        "`bash scripts/kit setup`（它会安装 requirements.lock 中的字体包 noto-cjk-sans-otc），"
        "或者安装一种中日韩字体（apt-get install fonts-wqy-microhei）",
    # The report's plots, when a font draws Chinese (else they stay English)
    "points (of {top})": "得分（满分 {top}）",
    "students": "学生人数",
    "students with full points (%)": "得满分的学生（%）",
    "notebooks where the hidden checks named it": "隐藏检查指出这一错误的笔记本数",
    # nbgrader's feedback template (autograder/outputs/feedback.py)
    "{notebook} (Score: {score} / {points})": "{notebook}（得分：{score} / {points}）",
    "(Score: {score} / {points})": "（得分：{score} / {points}）",
    "Late submission penalty (Score: -{penalty})": "迟交扣分（-{penalty} 分）",
    "Score: {score} / {points}": "得分：{score} / {points}",
    "(Top)": "（回到顶部）",
    "Comment": "评语",
    "Coding free-response": "编程题",
    "Written response": "书面回答",
    "Task": "任务",
    "Student's answer": "你的答案",
    "Student's task": "你的任务",
    "Grade cell: {cell}": "评分单元格：{cell}",
    "Task: {cell}": "任务：{cell}",
    "Comments:": "评语：",
    "No response.": "未作答。",
    "a plot drawn by the notebook's code": "笔记本中的代码画出的图",
    "In{space}[{count}]:": "输入{space}[{count}]:",
    # Gradescope: results.json and run_autograder (autograder/gradescope/)
    "{step}: every finding of the hidden checks": "{step}：隐藏检查发现的全部问题",
    "graded cells you changed, restored as released": "你改动过的评分单元格，已恢复为发布时的样子",
    "for the instructor: integrity flags (no score changed)": "供教师查看：诚信标记（不影响分数）",
    "{score:g} of {most:g} points. Each step of your notebook was graded by the course's hidden "
    "checks, run on your code in a sandbox; below, one test per step.":
        "得分 {score:g} / {most:g}。本课程的隐藏检查在沙箱中运行你的代码，为笔记本的每个步骤评分；"
        "下面每个步骤是一项测试。",
    "Your notebook could not be graded: {why}": "你的笔记本无法评分：{why}",
    "your upload holds no notebook (.ipynb); upload {notebook}, the notebook you worked in, as "
    "Jupyter saved it":
        "你上传的文件中没有笔记本（.ipynb）；"
        "请上传你完成作业的笔记本 {notebook}，即 Jupyter 保存的文件",
    "your upload holds {count} notebooks, so the grader cannot tell which to grade: upload only "
    "this assignment's notebook, {notebook}":
        "你上传了 {count} 个笔记本，评分程序无法判断该评哪一个："
        "请只上传这次作业的笔记本 {notebook}",
    "your upload cannot be looked through: {error}; upload only this assignment's notebook, "
    "{notebook}, without the folders around it":
        "无法查看你上传的文件：{error}；请只上传这次作业的笔记本 {notebook}，不要带上外面的文件夹",
    "{name} is not a regular file (a link or a folder); upload the notebook itself":
        "{name} 不是普通文件（而是链接或文件夹）；请上传笔记本文件本身",
    "{name} is larger than {mb} MB; clear its outputs (Kernel > Restart Kernel and Clear Outputs "
    "of All Cells), save it and upload it again":
        "{name} 超过 {mb} MB；请清除它的输出（Kernel > Restart Kernel and Clear Outputs of All "
        "Cells），保存后重新上传",
    "grading {notebook} with the kit in {kit}": "正在用 {kit} 中的本套件为 {notebook} 评分",
    "grade.log of this run:": "本次运行的 grade.log：",
    "{reason}; upload the notebook you worked in, {notebook}, as Jupyter saved it":
        "{reason}；请上传你完成作业的笔记本 {notebook}，即 Jupyter 保存的文件",
    "the autograder itself failed ({error}); your instructor can read the details in its "
    "output: tell them, and submit again once it is fixed":
        "自动评分器本身出错了（{error}）；教师可以在它的输出中看到详情：请告诉教师，修好后再提交一次",
    "results: {path} ({score:g} point)": "结果：{path}（{score:g} 分）",
    "results: {path} ({score:g} points)": "结果：{path}（{score:g} 分）",
    # The course's secret and each notebook's draw (draw_keys.py, grading/regrade_check.py)
    "made the course's secret {path}: each student's hidden random cases are drawn from it, "
    "the same on every regrade; keep it (a new secret draws new cases for everyone) and never "
    "hand it out":
        "已生成课程密钥 {path}：每个学生的隐藏随机用例都由它抽取，每次重新评分都相同；请保管好它"
        "（换一个新密钥会为所有人抽取新的用例），绝不要发给别人",
    "{path} is not a secret the kit made ({count} or {longer} hex digits expected); put back "
    "the course's own (from a backup), or delete it to draw new hidden cases for everyone":
        "{path} 不是本套件生成的密钥（应为 {count} 或 {longer} 个十六进制数字）；"
        "请放回课程自己的密钥（从备份中），或者删除它，为所有人重新抽取隐藏用例",
    "warning: this course's hidden cases are drawn from 32-bit seeds (its .kit/secret was made "
    "by a kit before 2026-12-04), which a student can search for from the shapes feedback "
    "shows; its regrades keep these draws. To draw from the random generator's whole state "
    "instead, move .kit/secret out of the course and run grade --force: every notebook's "
    "hidden cases are then drawn anew, and their scores may change (best before the term's "
    "first grade)":
        "警告：本课程的隐藏用例由 32 位种子抽取（它的 .kit/secret 是 2026-12-04 之前的套件"
        "生成的），学生可以根据反馈显示的形状搜索出这些种子；重新评分会沿用这些抽取。若要改为由"
        "随机数生成器的完整状态抽取，请把 .kit/secret 移出课程目录，再运行 grade --force："
        "每个笔记本的隐藏用例都会重新抽取，分数可能因此改变（最好在本学期第一次评分之前进行）",
    "torch {version} keeps its random generator's state unlike the kit knows, and this "
    "course's hidden cases are drawn by setting that state: they cannot be drawn here as on "
    "the course's other gradings. Install the torch requirements.lock pins":
        "torch {version} 保存随机数生成器状态的方式与本套件所知的不同，而本课程的隐藏用例是通过"
        "设置这一状态来抽取的：在这里无法像课程的其他评分那样抽取它们。请安装 requirements.lock "
        "固定的 torch 版本",
    "{path} could be read by other users; it is now yours alone (mode 0600)":
        "{path} 原先其他用户也能读取；现在只有你能读写（权限 0600）",
    "{path} cannot be read ({error}): it holds the secret the hidden cases are drawn from; give "
    "the grader's user access to it":
        "无法读取 {path}（{error}）：抽取隐藏用例所用的密钥就在其中；请让运行评分的用户能够访问它",
    "{file} names no student ({error}): the hidden cases are drawn for the id {student!r}":
        "{file} 中没有学生信息（{error}）：隐藏用例按 id {student!r} 抽取",
    "--reseed: new hidden cases are drawn for the {notebooks} graded now (reseed {reseed}, "
    "kept in .kit/status/); each keeps this draw on every later regrade":
        "--reseed：为这次批改的 {notebooks}重新抽取隐藏用例（reseed {reseed}，记录在 "
        ".kit/status/ 中）；之后每次重新评分，每个笔记本都沿用这次的抽取",
    "regrade check of {id}: {same} the same, {different} different, {unchecked} not checked":
        "{id} 的重新评分检查：{same} 个相同，{different} 个不同，{unchecked} 个未检查",
    "score {before:g} -> {after:g}": "分数 {before:g} -> {after:g}",
    "nothing to check: no notebook of {id} in submitted/{students}":
        "没有可检查的内容：submitted/ 中没有 {id} 的笔记本{students}",
    "{student}: the same grade again: {score:g} point, the same failing cases and named "
    "mistakes":
        "{student}：再次评分结果相同：{score:g} 分，没通过的用例和识别出的常见错误也都相同",
    "{student}: the same grade again: {score:g} points, the same failing cases and named "
    "mistakes":
        "{student}：再次评分结果相同：{score:g} 分，没通过的用例和识别出的常见错误也都相同",
    "{student}: DIFFERENT when graded again:": "{student}：再次评分结果不同：",
    "{student}: not checked: {why}": "{student}：未检查：{why}",
    "grade refuses it: {problem}": "grade 拒绝了它：{problem}",
    "{cell}: graded only once": "{cell}：只有一次评分中有它",
    "{cell}: {before:g} -> {after:g} points": "{cell}：{before:g} -> {after:g} 分",
    "not graded as it is in submitted/ (run grade first)":
        "submitted/ 中的这个版本还没有评分（请先运行 grade）",
    "its hidden cases cannot be drawn again: the course's secret ({path}) is missing or not the "
    "one it was graded with":
        "无法再次抽取它的隐藏用例：课程密钥（{path}）不存在，或者不是评分时用的那一个",
    "{cell}: no longer found: {finding}": "{cell}：不再出现：{finding}",
    "{cell}: found now: {finding}": "{cell}：新出现：{finding}",
    "graded before the kit recorded draws: its hidden cases cannot be drawn again (run grade "
    "--force once, then check)":
        "评分时本套件还没有记录抽取信息：无法再次抽取它的隐藏用例（请先运行一次 grade --force，"
        "再检查）",
    "could not be graded again: {why}": "无法再次评分：{why}",
}
