"""The Chinese of `serve` and feedback on submit (autograder/serve/)."""

CATALOG = {
    "{student}'s home {home} is {mode:o}: other users can read their notebooks and nbgrader's "
    "submission secret there, with which a classmate fetches their feedback; close it (chmod "
    "0700 {home}) and make new homes 0700 (`python -m autograder guide where-courses-run`, "
    "\"Setting up a shared hub\")":
        "{student} 的主目录 {home} 的权限是 {mode:o}：其他用户能读到其中的笔记本和 nbgrader "
        "的提交密钥，同学凭这个密钥就能取走他的反馈；请关闭它（chmod 0700 {home}），并让新建的"
        "主目录都是 0700（`python -m autograder guide where-courses-run`，“Setting up a shared "
        "hub”）",
    "stopped": "已停止",
    "serve is busy (another command, a submission, or an assignment made ready as it starts); "
    "this command runs once that is done":
        "serve 正忙（另一条命令、一份提交，或启动时为某次作业做准备）；完成后再运行这条命令",
    "interrupted: serve finishes the command it was handed (what it grades is kept); stop "
    "serve to stop it":
        "已中断：serve 会把交给它的命令运行完（评好的分数都会保留）；要停止它，请停止 serve",
    "warm-up: the gradebook cannot be read ({error}); each assignment's first grade makes what "
    "it needs":
        "预热：无法读取成绩册（{error}）；每次作业第一次评分时再准备所需的一切",
    "warm-up of {assignment}: {error}; its first grade will meet it too":
        "预热 {assignment}：{error}；它第一次评分时也会遇到这个问题",
    "its timestamp.txt ({stamp}) does not give the time of its name ({named}), as nbgrader "
    "submit writes them: submit again with nbgrader submit":
        "它的 timestamp.txt（{stamp}）与文件夹名中的时间（{named}）不一致，而 nbgrader submit "
        "写下的两者总是一致：请用 nbgrader submit 重新提交",
    "it changed at {changed}, later than the time of its name ({named}): a folder made or "
    "edited by hand after its submit; submit again with nbgrader submit":
        "它在 {changed} 被改动过，晚于文件夹名中的时间（{named}）：这是提交之后手工创建或修改的"
        "文件夹；请用 nbgrader submit 重新提交",
    "nbgrader submit did not finish it (it holds no {name}): submit again":
        "nbgrader submit 没有完成这次提交（其中没有 {name}）：请重新提交",
    "{folder} is not collected: {why}. {what}": "{folder} 没有收取：{why}。{what}",
    "its name gives no time nbgrader reads": "它的名字里没有 nbgrader 能读懂的时间",
    "The others are collected.": "其他提交照常收取。",
    "It changed while it was being collected.": "收取过程中它被改动了。",
    "{folder}: its time is written in UTC in submitted/, as nbgrader would misread its zone":
        "{folder}：nbgrader 会读错它的时区，所以 submitted/ 中的时间改用 UTC 写出",
    "The student's latest own submission is collected instead.":
        "改为收取这名学生本人最新的一次提交。",
    "The student has no submission of their own there.": "这名学生在那里没有本人的提交。",
    "The student's own submissions were not looked for: nbgrader's collect differs from what "
    "the kit reads.":
        "没有查找这名学生本人的提交：nbgrader 的 collect 与本套件读取的版本不同。",
    "serving {root}: feedback on submit for {ids} ({limit}); sandbox: {sandbox}; watching "
    "{folder}{how}":
        "正在为 {root} 服务：{ids} 提交即评分（{limit}）；沙箱：{sandbox}；监视 {folder}{how}",
    "{count} graded submissions per student and day": "每名学生每天评 {count} 次提交",
    "no daily limit": "每天不限次数",
    "; grade, feedback and validate of this course run here too; Ctrl-C stops":
        "；本课程的 grade、feedback 和 validate 也在这里运行；按 Ctrl-C 停止",
    "serving {root}: grade, feedback and validate of this course run here, warm; no assignment "
    "is graded on submit (c.FeedbackOnSubmit.assignments); sandbox: {sandbox}; Ctrl-C stops":
        "正在为 {root} 服务：本课程的 grade、feedback 和 validate 在这里运行，无需重新启动；"
        "没有哪次作业设置为提交即评分（c.FeedbackOnSubmit.assignments）；沙箱：{sandbox}；"
        "按 Ctrl-C 停止",
    "another serve runs in this course ({holder}); stop it first":
        "本课程已有一个 serve 在运行（{holder}）；请先停止它",
    "graded, {score:g} of {points:g} points, feedback released in {seconds:.1f} s{count}"
    "{again}":
        "已评分，得 {score:g} 分（满分 {points:g}），反馈在 {seconds:.1f} 秒内发布{count}{again}",
    "; it was being graded when serve stopped": "；serve 停止时它正在评分",
    "{path} cannot be read ({error}): put back the copy you have, or move it aside to start "
    "afresh (every student's latest submission in the exchange is then taken again, and the "
    "day's counts start at 0)":
        "无法读取 {path}（{error}）：请放回你保存的副本，或者把它移到别处后重新开始"
        "（届时交换目录中每名学生最新的提交都会重新评分，当天的次数从 0 开始计）",
    "c.FeedbackOnSubmit.per_day must be 0 (no limit) or more, and c.FeedbackOnSubmit.interval "
    "more than 0 seconds (they are {per_day} and {interval})":
        "c.FeedbackOnSubmit.per_day 必须是 0（不限次数）或更大，c.FeedbackOnSubmit.interval "
        "必须大于 0 秒（现在分别是 {per_day} 和 {interval}）",
    "no record of earlier submissions ({path}): every student's latest submission in the "
    "exchange is taken now, except where the gradebook holds it graded already":
        "没有以前提交的记录（{path}）：现在处理交换目录中每名学生最新的提交，"
        "成绩簿里已评过分的除外",
    "not graded again: collect and grade took this very submission before serve did; its "
    "scores stand, and its feedback is what feedback and release_feedback give":
        "不再评分：在 serve 之前，collect 和 grade 已经处理过这份提交；它的分数保持不变，"
        "它的反馈由 feedback 和 release_feedback 生成和发布",
    "refused, not collected: {why}": "已拒绝，未收取：{why}",
    "{folder}: the copy collected before is kept there": "{folder}：保留了之前收取的那份副本",
    "nbgrader said {warning}": "nbgrader 提示 {warning}",
    "its submission_secret.txt is not a regular file":
        "其中的 submission_secret.txt 不是普通文件",
    "its submission_secret.txt is not what nbgrader submit writes":
        "其中的 submission_secret.txt 不是 nbgrader submit 写下的样子",
    "it holds no notebook to name the notice by": "其中没有可用来命名通知的笔记本",
    "{assignment}: your submission was not graded": "{assignment}：你的提交没有评分",
    "Your submission of {time} was refused before grading: {why}.":
        "你在 {time} 的提交在评分前被拒收：{why}。",
    "Nothing of this submission was graded, and your earlier feedback, if any, still stands. "
    "Change what is said above and submit again; if you cannot tell what to change, ask your "
    "instructor.":
        "这次提交的任何部分都没有评分；如果你之前收到过反馈，它仍然有效。请按上面所说修改后"
        "重新提交；如果不清楚该改什么，请问你的老师。",
    "; the student gets no notice of it ({error})": "；学生收不到关于此事的通知（{error}）",
    "; the student's feedback says so (nbgrader fetch_feedback)":
        "；学生的反馈中写明了这一点（nbgrader fetch_feedback）",
    "{name!r} is not a student id": "{name!r} 不是学生 id",
    "the folder is gone": "文件夹已不存在",
    "it is not a folder (a link or a file)": "它不是文件夹（是链接或文件）",
    "it holds no {name}": "其中没有 {name}",
    "its time ({time}) is in the future": "它的时间（{time}）在未来",
    "another user ({user}) made it, not {student}":
        "它由另一个用户（{user}）创建，而不是 {student}",
    "no user {student} on this machine made it": "这台机器上没有用户 {student}，它不是该学生创建的",
    "it holds {name}, a link or a special file": "其中的 {name} 是链接或特殊文件",
    " ({number} of {limit} today)": "（今天第 {number} 次，共 {limit} 次）",
    "Graded as you handed it in.": "这份作业在你提交时就已评分。",
    "Graded as you handed it in: submission {number} of the {limit} graded each day for this "
    "assignment.":
        "这份作业在你提交时就已评分：这是本次作业今天评分的第 {number} 次提交，"
        "每天最多评 {limit} 次。",
    " Later submissions today are kept for the instructor's grading.":
        "今天之后的提交会留给老师统一评分。",
    "{time} {student} {assignment}: {what}": "{time} {student} {assignment}：{what}",
    "{time} waiting: {why}": "{time} 等待中：{why}",
    "{time} handed in: {command}": "{time} 收到命令：{command}",
    "{time} {command}: exit {status} after {seconds:.1f} s":
        "{time} {command}：用时 {seconds:.1f} 秒，退出状态 {status}",
    "serve stopped before this command ended (what it graded is kept); the command runs "
    "again here, in its own process":
        "serve 在这条命令结束前停止了（已评的分数都保留着）；这条命令改在这里、在它自己的进程中"
        "重新运行",
    "no assignment is graded on submit: name them in nbgrader_config.py, "
    "c.FeedbackOnSubmit.assignments = ['ID', ...] (the exchange's c.Exchange.root and "
    "c.CourseDirectory.course_id set too)":
        "没有哪次作业设置为提交即评分：请在 nbgrader_config.py 中写上 "
        "c.FeedbackOnSubmit.assignments = ['ID', ...]（同时设置交换目录的 c.Exchange.root 和 "
        "c.CourseDirectory.course_id）",
    "c.FeedbackOnSubmit.assignments names {ids}, not assignments of this course ({known})":
        "c.FeedbackOnSubmit.assignments 写的 {ids} 不是本课程的作业（本课程的作业：{known}）",
    "feedback on submit cannot collect one submission at a time here: {why}":
        "这里无法逐份收取提交，提交即评分不能使用：{why}",
    "no exchange inbound folder to watch ({folder}): set c.Exchange.root and "
    "c.CourseDirectory.course_id in nbgrader_config.py, and release an assignment first "
    "(nbgrader release_assignment ID)":
        "没有可监视的交换目录 inbound 文件夹（{folder}）：请在 nbgrader_config.py 中设置 "
        "c.Exchange.root 和 c.CourseDirectory.course_id，并先发布一次作业"
        "（nbgrader release_assignment ID）",
    "not configured": "未设置",
    "not graded: a TA graded this assignment by hand for this student; it stays in the "
    "exchange for your collect and grade, which keep the TA's scores":
        "未评分：助教已为这名学生手工批改过这次作业；这份提交留在交换目录里，等你用 collect 和 "
        "grade 处理，它们会保留助教的分数",
    "not graded now: {limit} graded submissions today already; it stays in the exchange for "
    "your collect and grade":
        "暂不评分：今天已评过 {limit} 次提交；这份提交留在交换目录里，等你用 collect 和 grade 处理",
    "a later submission came before this one was graded; the later one is graded":
        "这份提交评分之前，同一学生又提交了一次；评分的是后一次",
    "nothing was graded": "什么也没有评分",
    "stopped; a submission being graded is graded again at the next start":
        "已停止；正在评分的提交会在下次启动时重新评分",
    "feedback on submit: grade each submission of the assignments in "
    "c.FeedbackOnSubmit.assignments as it lands in nbgrader's exchange and release its "
    "feedback, on an engine kept warm, until stopped (Ctrl-C or SIGTERM); a stop ends it "
    "with 0, as a service ends, or 1 where a submission it took could not be graded":
        "提交即评分：c.FeedbackOnSubmit.assignments 中的作业一进入 nbgrader 的交换目录就评分并"
        "发布反馈，评分引擎一直保持就绪，直到停止（Ctrl-C 或 SIGTERM）；停止时退出码为 0，"
        "和服务正常结束一样；若有收下的提交未能评分，则为 1",
    "take what is in the exchange now, then stop (for a timer such as cron instead of a "
    "service)":
        "处理交换目录里现有的提交后就停止（供 cron 之类的定时任务使用，而不是常驻服务）",
    "its notebook is {size:.1f} MB, more than the {limit:g} MB a submission may be "
    "(c.FeedbackOnSubmit.max_notebook_mb): clear the notebook's outputs (Kernel > Restart and "
    "Clear Outputs), save and submit again":
        "它的笔记本有 {size:.1f} MB，超过了一份提交最多允许的 {limit:g} MB"
        "（c.FeedbackOnSubmit.max_notebook_mb）：请清除笔记本的输出（Kernel > Restart and "
        "Clear Outputs），保存后重新提交",
}
