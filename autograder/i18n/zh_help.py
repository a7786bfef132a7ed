"""Chinese texts of `python -m autograder --help` in a Chinese course: the description, each
command's and option's help (autograder/cli.py), and argparse's own words, which the command
line passes through `t` while it parses. The description, too long to be a catalog's key, is
DESCRIPTION here; cli.description() picks it."""

DESCRIPTION = """\
用 nbgrader 构建、检查和批改一门由 Jupyter 作业组成的课程：既包括本套件自带的自注意力课程，
也包括你自己编写的作业。

请在课程根目录（放着 nbgrader_config.py 的文件夹）或它下面的任何文件夹里运行：和 git
一样，本套件会在上面各层文件夹中找到课程（--root 可以指定别的课程）。
一门课程就是一个归你所有的文件夹：每次作业是其中的一个文件夹 assignments/<id>/
（notebook.py、reference.py、checks.py），本套件会在那里找到它们。要自己编写作业，
请看 `python -m autograder guide`，或者：

  python -m autograder new 10_positions          生成一个能运行的作业，再改成你自己的
  python -m autograder mutate 10_positions       看它的检查能抓住多少个错误版本

典型的一周：

  python -m autograder build                     assignments/ -> source/ -> release/
  python -m autograder validate                  参考答案得满分，待完成的函数得零分
  python -m autograder collect 01_attention_by_hand --from lms-export.zip
  python -m autograder grade --workers 2         自动批改所有还没评分的提交
  python -m autograder grade --scheduler tcp://10.0.0.5:8786   ……在 dask 集群上批改
  python -m autograder regrade-check 01_attention_by_hand   再批改一次，成绩是否不变？
  python -m autograder feedback                  每个学生每次作业一个 HTML 反馈页面
  python -m autograder export --to grades.csv    每个学生每次作业一行，附总分
  python -m autograder export --format canvas    Canvas 成绩导入用的文件（或 moodle）
  python -m autograder report --to report.html   图表：分数、各步骤、识别出的常见错误
  python -m autograder similarity 01_attention_by_hand   相似代码的配对，并排对照
  python -m autograder demo                      在一个模拟的班级上走完以上全部
  python -m autograder gradescope 01_attention_by_hand   Gradescope 用的自动评分器 zip
  python -m autograder remove 10_rope            移出成绩册和课程，文件都保留

本仓库的根目录就是英文课程。你自己的课程文件夹，可以带上本套件的作业（或者不带：--empty），
语言为英文或简体中文（笔记本、提示信息、反馈和报告；作业 id、分值和检查都相同）：

  python -m autograder init ../course-zh --language zh
  python -m autograder init --config-only .      把丢失的 nbgrader_config.py 写回去

在同一个文件夹里，nbgrader 本身照样可用：nbgrader generate_assignment、autograde、
generate_feedback 和 export 读取的是同一个 nbgrader_config.py。本套件把自己的记录放在
.kit/ 中（评过哪些、拒收了哪些输入，以及抽取每个学生隐藏用例所用的密钥：每次重新评分都
相同），从不删除不是它给出的分数。

退出码：0 表示要求的事都已完成；1 表示有事需要你处理：有输入被拒收、有笔记本无法评分、
没有可评分的内容、validate 发现问题，或者出错（一行说明，指出文件和改法）；2 表示命令行
写错了；130 表示被中断（已经完成的部分都保留）。
"""

CATALOG = {
    "the course root (default: the nearest folder holding nbgrader_config.py, the current one "
    "or one above it, as git finds its repository; paths you type stay relative to where you "
    "are)":
        "课程根目录（默认：含有 nbgrader_config.py 的最近一个文件夹，即当前文件夹或它上面的某一层，"
        "和 git 找仓库的方式一样；你输入的路径仍相对于当前所在的文件夹）",
    "write only nbgrader_config.py into DIR, an existing course folder that lost it (the "
    "kit's settings and defaults; nothing else in DIR is touched, and an existing "
    "nbgrader_config.py is never replaced); the language is --language, else the one its "
    "source/ notebooks record they were built in (refused when none does). Then set again "
    "what you had changed (course id, gradebook URL, due dates)":
        "只把 nbgrader_config.py 写进 DIR，即一个丢了它的现有课程文件夹（本套件的设置和默认值；"
        "DIR 里别的东西一概不动，已有的 nbgrader_config.py 绝不替换）；语言取 --language，"
        "否则取它 source/ 中笔记本记录的构建语言（都没有记录时拒绝）。之后请重新设置你改过的值"
        "（课程 id、成绩册 URL、截止时间）",
    "take an assignment out of the gradebook (nbgrader's own remove, as `nbgrader db "
    "assignment remove`) and out of the course: its folders (assignments/, source/, release/, "
    "each student's submitted/, autograded/ and feedback/) are moved, never deleted, under "
    "removed/ID/; refused while the gradebook holds its grades, unless --force":
        "把一次作业移出成绩册（用 nbgrader 自己的删除，和 `nbgrader db assignment remove` "
        "一样）和课程：它的文件夹（assignments/、source/、release/，每个学生的 submitted/、"
        "autograded/ 和 feedback/）都原样移到 removed/ID/ 下，绝不删除；成绩册里还有它的成绩时"
        "拒绝执行，除非加 --force",
    "the assignment to remove (an id of the gradebook or of the course folder)":
        "要移除的作业（成绩册或课程文件夹里的作业 id）",
    "remove it even when the gradebook holds submissions of it: their grades, a TA's scores "
    "and comments among them, leave the gradebook with it (their files are kept under "
    "removed/ID/)":
        "即使成绩册里还有它的提交也移除：这些成绩（包括助教给的分数和评语）随它一起移出成绩册"
        "（它们的文件保留在 removed/ID/ 下）",
    "the page to write (default: report.html in the course root)":
        "要写的页面（默认：课程根目录下的 report.html）",
    "assignment ids (all when none is given)": "作业 id（不写则为全部）",
    "worker processes of the embedded dask cluster, one notebook each at a time (default: "
    "the number of cores)":
        "内置 dask 集群的工作进程数，每个进程一次处理一个笔记本（默认：CPU 核数）",
    "run on a running dask cluster instead (its workers started with `PYTHONHASHSEED=0 dask "
    "worker tcp://HOST:PORT --nthreads 1 --preload autograder.engine.worker`; they need no "
    "course folder); default: c.Cluster.scheduler of nbgrader_config.py, else the embedded "
    "cluster":
        "改在一个正在运行的 dask 集群上运行（其工作进程用 `PYTHONHASHSEED=0 dask worker "
        "tcp://HOST:PORT --nthreads 1 --preload autograder.engine.worker` 启动，"
        "不需要课程文件夹）；默认：nbgrader_config.py 中的 c.Cluster.scheduler，没有则用内置集群",
    "prove each assignment (its checks pass the reference, the reference passes its public "
    "tests), then render source/ from assignments/ and release/ with nbgrader "
    "generate_assignment":
        "先证明每次作业可用（参考答案通过它的隐藏检查和公开测试），再从 assignments/ 生成 "
        "source/，并用 nbgrader generate_assignment 生成 release/",
    "write a ready course folder in a language: nbgrader_config.py, the kit's assignments (or "
    "none) in assignments/, and source/ and release/ built from them":
        "按指定语言写出一个可直接使用的课程文件夹：nbgrader_config.py、assignments/ 中本套件"
        "的作业（或者没有），以及由它们构建的 source/ 和 release/",
    "a new or empty folder": "一个新的或空的文件夹",
    "the kit's assignments to copy (all when none is given)":
        "要复制的本套件作业（不写则为全部）",
    "the course's language: en (English, default) or zh (Simplified Chinese): notebooks, "
    "messages, feedback and report":
        "课程的语言：en（英文，默认）或 zh（简体中文）：笔记本、提示信息、反馈和报告",
    "no assignment of the kit's: a course of your own assignments only (add them with `new`)":
        "不带本套件的作业：课程里只有你自己的作业（用 `new` 添加）",
    "write a working assignment in assignments/ID/ (one step: stub, public test, hidden "
    "checks with a document value, random cases and a named mistake) to edit into your own":
        "在 assignments/ID/ 中写一个能运行的作业（一个步骤：待完成的函数、公开测试、"
        "带资料数值的隐藏检查、随机用例和一个常见错误），供你改成自己的作业",
    "the new assignment's id: two digits, an underscore and lower-case words, such as "
    "10_positions":
        "新作业的 id：两位数字、一个下划线和小写单词，例如 10_positions",
    "the notebook's title (default: from the id)": "笔记本的标题（默认：由 id 得出）",
    "bring the kit's newer files of its assignments into this course (a mended rule or hidden "
    "check): lists each file that differs from the kit's; with --apply takes those still as "
    "init copied them, keeping every replaced file in .kit/replaced/":
        "把本套件作业中更新过的文件带进本课程（修补过的规则或隐藏检查）：列出与本套件不同的每个"
        "文件；加 --apply 时取用那些仍是 init 复制时原样的文件，每个被替换的文件都先保存在 "
        ".kit/replaced/ 中",
    "the kit's assignments of the course to compare (all when none is given)":
        "要比较的本课程中来自本套件的作业（不写则为全部）",
    "take the kit's files: those newer in the kit and those new in it; a file changed in the "
    "course is taken only when named with --take":
        "取用本套件的文件：本套件中更新过的和新增的；课程中改动过的文件只有用 --take 指明时"
        "才取用",
    "also take this file (as update lists it, such as assignments/06_scoring_functions/"
    "checks.py), though it was changed in the course or the course has no record of it; yours "
    "is kept in .kit/replaced/":
        "也取用这个文件（按 update 列出的写法，例如 assignments/06_scoring_functions/"
        "checks.py），即使它在课程中改动过，或课程没有它的记录；你的文件保存在 .kit/replaced/ 中",
    "keep the course's file as its own (it was changed in the course, or the course has no record "
    "of it): --apply then records it so and stops asking, until the kit mends the file again":
        "把课程中的这个文件保留为课程自己的（它在课程中改动过，或课程没有它的记录）：--apply 会"
        "如此记录，不再询问，直到本套件再次修补这个文件",
    "print the guide to writing your own assignment (the folder, the cell markers, the hidden "
    "checks, a worked example), or another page of the documentation":
        "打印编写自己作业的指南（文件夹、单元格标记、隐藏检查、一个完整的例子），或使用说明中的"
        "另一页",
    "the page to print instead, by its name or its last part: sandbox, lms, settings (every "
    "setting nbgrader_config.py can change), where-courses-run, ...":
        "改为打印的页面，写全名或名字的最后一段：sandbox、lms、settings（nbgrader_config.py "
        "能改的每一项设置）、where-courses-run……",
    "list the pages, with their titles": "列出各页及其标题",
    "{asked!r} names more than one page: {pages}; give the whole name":
        "{asked!r} 对应不止一页：{pages}；请写出全名",
    "no page is called {asked!r}; `python -m autograder guide --list` lists them":
        "没有名为 {asked!r} 的页面；`python -m autograder guide --list` 会列出所有页面",
    "the mutation harness: make wrong versions of each step's reference and count how many "
    "its hidden checks catch (a benchmark of the checks, not of a student)":
        "变异测试：为每个步骤的参考答案生成错误版本，统计隐藏检查能抓住多少"
        "（衡量的是检查，不是学生）",
    "only these steps of the assignments": "只看作业中的这些步骤",
    "at most N mutants per step, a sample drawn under --seed":
        "每个步骤最多 N 个变异体，按 --seed 抽样",
    "seed of the checks' random cases": "检查中随机用例的种子",
    "also list the mutants dropped as equivalent to the reference":
        "同时列出因与参考答案等价而舍弃的变异体",
    "grade the solutions (full marks expected) and the stubs (zero expected); exit 1 "
    "otherwise":
        "批改参考答案（应得满分）和待完成的函数（应得零分）；不符合则以 1 退出",
    "parallel graders": "并行评分的进程数",
    "copy notebooks from a folder or an LMS zip into submitted/ (nbgrader zip_collect)":
        "把文件夹或 LMS 导出的 zip 中的笔记本复制到 submitted/（nbgrader zip_collect）",
    "the assignment the files belong to": "这些文件所属的作业",
    "a folder of notebooks or a zip file": "放笔记本的文件夹或一个 zip 文件",
    "regular expression for file names with groups student_id and file_id (default: "
    "FileNameCollectorPlugin.named_regexp in nbgrader_config.py)":
        "匹配文件名的正则表达式，带 student_id 和 file_id 两个分组（默认：nbgrader_config.py "
        "中的 FileNameCollectorPlugin.named_regexp）",
    "autograde submitted/ in parallel; a re-run skips what is graded":
        "并行自动批改 submitted/；再次运行会跳过已评分的",
    "grade again what is already graded": "已评分的也重新评分",
    "seconds a cell may run (default: nbgrader_config.py)":
        "每个单元格最多运行的秒数（默认：按 nbgrader_config.py）",
    "grade only these students (an id or a glob such as 'a*'; repeat the option for more); "
    "with --force, regrade them and print whose score changed":
        "只批改这些学生（一个 id 或通配符，如 'a*'；多个学生就重复这个选项）；配合 --force "
        "时重新评分，并列出分数有变化的学生",
    "draw new hidden cases for every notebook graded (implies --force): each student's random "
    "cases are otherwise drawn from the course's secret (.kit/secret), the same on every "
    "regrade; the new draw is kept for each notebook, and later regrades draw it again":
        "为这次批改的每个笔记本重新抽取隐藏用例（隐含 --force）：否则每个学生的随机用例都由"
        "课程密钥（.kit/secret）抽取，每次重新评分都相同；新的抽取结果会为每个笔记本保存下来，"
        "之后的重新评分还会抽到它",
    "grade the graded notebooks of an assignment again, aside (the course is not written), and "
    "say for each student whether the score, the failing cases and the named mistakes are the "
    "same; exit 1 when any differs or could not be checked":
        "把一次作业已评分的笔记本在一旁重新批改一遍（不写入课程），逐个学生说明分数、没通过的"
        "用例和识别出的常见错误是否相同；有任何不同或无法检查时退出码为 1",
    "the assignment to check": "要检查的作业",
    "only these students (an id or a glob)": "只检查这些学生（一个 id 或通配符）",
    "one HTML page per student and assignment, hidden tests removed; assignments with nothing "
    "graded are skipped":
        "每个学生每次作业一个 HTML 页面，去掉隐藏测试；还没有评分结果的作业会跳过",
    "only these students' pages (an id or a glob)": "只生成这些学生的页面（一个 id 或通配符）",
    "CSV: a row per student and assignment, totals": "CSV：每个学生每次作业一行，附总分",
    "CSV: a row per student and assignment, totals; or the file Canvas's or Moodle's grade "
    "import takes (--format)":
        "CSV：每个学生每次作业一行，附总分；或者 Canvas、Moodle 的成绩导入所接受的文件（--format）",
    "only these assignments: their rows of the kit's CSV, their columns of Canvas's or "
    "Moodle's file (all when none is given)":
        "只导出这些作业：本套件 CSV 中它们的行，Canvas 或 Moodle 文件中它们的列（不写则为全部）",
    "the file to write (default: grades.csv, canvas.csv or moodle.csv, after the format)":
        "要写出的文件（默认：按格式分别为 grades.csv、canvas.csv 或 moodle.csv）",
    "kit (default): the kit's CSV. canvas: Canvas's grade import, a student's row found by "
    "ID, their lms_user_id in the gradebook. moodle: Moodle's, by Email address (map it to "
    "email). A cell: the points of grades.csv, 0 if nothing was handed in; a student with a "
    "notebook not graded yet is left out of the file (exit 1: an empty cell would clear the "
    "LMS's grade); a student lacking the field stops it, nothing written (`python -m "
    "autograder guide lms`)":
        "kit（默认）：本套件的 CSV。canvas：Canvas 的成绩导入，按 ID 列找到学生，即成绩册中的 "
        "lms_user_id。moodle：Moodle 的成绩导入，按 Email address 列（请对应到 email）。"
        "每格是 grades.csv 中的得分，什么都没交为 0；有笔记本尚未评分的学生不写进文件"
        "（退出码 1：空格会清掉 LMS 里的成绩）；缺少该字段的学生会让导出停下，什么也不写"
        "（见 `python -m autograder guide lms`）",
    "self-contained HTML class report with plots": "自成一体、带图表的 HTML 班级报告",
    "a simulated class of 42 students through build, collect, grade, feedback, export and "
    "report":
        "一个 42 名学生的模拟班级，依次走完 build、collect、grade、feedback、export 和 report",
    "the demo's own course folder (default: demo/ in the course); a folder holding files the "
    "demo did not make is refused, one a demo made is replaced":
        "演示自己的课程文件夹（默认：课程中的 demo/）；其中有不是演示生成的文件时会拒绝，"
        "之前的演示生成的会被替换",
    "the similarity report: the pairs of notebooks whose students' own code is alike (names, "
    "comments, blank lines and order aside), ranked, and a page per pair with the two "
    "notebooks' code side by side, the shared passages marked; the folder of each "
    "assignment's pages printed":
        "相似度报告：学生自己的代码相似的笔记本配对（不计名字、注释、空行和顺序），按相似度排序，"
        "每一对一个页面，两个笔记本的代码并排对照，相同的片段标出；并打印每次作业的页面所在的"
        "文件夹",
    "assignment ids (all with notebooks handed in when none is given)":
        "作业 id（不写则为所有已有笔记本交上来的作业）",
    "where the pages go, a folder per assignment in it (default: similarity, which the class "
    "report links to)":
        "页面写到哪里，每次作业在其中占一个文件夹（默认：similarity，班级报告会链接到这里）",
    "flag a pair when one notebook has this share of its own code in common with the other "
    "(default: the assignment's, SIMILARITY in its checks.py, else 0.5)":
        "一方笔记本自己的代码有这么大比例与另一方相同时，标记这一对（默认：该作业 checks.py "
        "中 SIMILARITY 设定的值，没有则为 0.5）",
    "and when the two have N characters of code or more in common (default: the "
    "assignment's, else 0)":
        "并且两者有 N 个或更多字符的代码相同时才标记（默认：该作业设定的值，没有则为 0）",
    "a passage found in more than N notebooks is the course's, not a copy (as MOSS's -m; "
    "default: 10)":
        "在超过 N 个笔记本中出现的片段属于课程本身，不算抄袭（同 MOSS 的 -m；默认：10）",
    "seconds a cell may run": "每个单元格最多运行的秒数",
    # argparse's own words (its module's `_`), while the command line parses
    "usage: ": "用法：",
    "positional arguments": "位置参数",
    "options": "选项",
    "show this help message and exit": "显示这份帮助并退出",
    "%(prog)s: error: %(message)s\n": "%(prog)s：错误：%(message)s\n",
    "unrecognized arguments: %s": "无法识别的参数：%s",
    "the following arguments are required: %s": "缺少以下参数：%s",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "无效的选择：%(value)r（可选：%(choices)s）",
    "argument %(argument_name)s: %(message)s": "参数 %(argument_name)s：%(message)s",
    "invalid %(type)s value: %(value)r": "无效的 %(type)s 值：%(value)r",
    "expected one argument": "需要一个参数",
    "expected at least one argument": "至少需要一个参数",
    "ambiguous option: %(option)s could match %(matches)s":
        "有歧义的选项：%(option)s 可以匹配 %(matches)s",
    # gradescope
    "write the autograder zip of an assignment for Gradescope: setup.sh, run_autograder, the "
    "kit and the assignment; its run grades the student's upload with the same checks and "
    "sandbox and writes results.json":
        "为 Gradescope 写出一次作业的自动评分器 zip：setup.sh、run_autograder、本套件和这次作业；"
        "它运行时用同样的检查和沙箱为学生上传的笔记本评分，并写出 results.json",
    "the assignment to grade on Gradescope": "在 Gradescope 上评分的作业",
    "the zip to write (default: ID-gradescope.zip here)":
        "要写出的 zip（默认：当前文件夹中的 ID-gradescope.zip）",
    "when students see each step's score and verdict on Gradescope (default: visible); every "
    "finding of a failed step is shown after_published, integrity flags never":
        "学生在 Gradescope 上何时能看到每个步骤的得分和评语（默认：visible）；未通过的步骤的全部"
        "问题在 after_published 时显示，诚信标记从不显示",
    "the sandbox on Gradescope (default: the course's, full as root); limits when Gradescope's "
    "container cannot make namespaces: student code then runs as root beside the autograder, so "
    "use it knowingly":
        "Gradescope 上的沙箱（默认：课程的设置，以 root 运行时为 full）；Gradescope 的容器无法创建"
        "命名空间时用 limits：学生的代码会以 root 身份与自动评分器一同运行，请知情后再用",
    "close the course to the other users of this machine: its folder 0700 (0750 and the "
    "group's with --group, for TAs), nothing inside it left to other users; grade and serve "
    "refuse a course another user can read until it is closed":
        "把课程对本机的其他用户关上：课程文件夹设为 0700（用 --group 时设为 0750 并归给助教的"
        "用户组），里面的东西其他用户一概碰不到；别的用户能读取的课程，grade 和 serve 会拒绝，"
        "直到它被关上",
    "the Unix group of the course's TAs, who may read it (default: c.Course.group)":
        "课程助教所在的 Unix 用户组，他们可以读取课程（默认：c.Course.group）",
    "the Unix group of the course's TAs: the folder is made 0750 and that group's, instead of "
    "0700, the instructor's alone":
        "课程助教所在的 Unix 用户组：课程文件夹设为 0750 并归给该组，而不是只归教师本人的 0700",
}
