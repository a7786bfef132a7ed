"""Chinese texts of the instructor's console: what `python -m autograder` prints in a Chinese
course (autograder/cli.py, progress.py, course.py, build/__init__.py, build/course_folder.py,
grading/parallel.py, tools/validate.py, tools/scaffold.py). Commands, paths, options and ids
stay as typed."""

CATALOG = {
    "{id!r} is not an assignment id the course can use: write two digits, an underscore and "
    "lower-case words joined by underscores, such as '10_positions' (the digits order the "
    "course)":
        "{id!r} 不能用作作业编号：请写两位数字、一个下划线，再接用下划线连起来的小写英文单词，"
        "例如 '10_positions'（数字决定作业在课程中的顺序）",
    "{path}:{line}: this markdown cell has no '# %% [markdown {language}]' twin, which a "
    "course in {language} needs; write it right below the cell":
        "{path}:{line}：这个 markdown 单元格没有 '# %% [markdown {language}]' 对应的译文单元格，"
        "而 {language} 课程需要它；请把它写在这个单元格的正下方",
    "{path}:{line}: the {language} strings of this cell translate {english!r}, which the cell "
    "no longer holds (a key is a piece of the cell as the build writes it); update or remove "
    "that entry":
        "{path}:{line}：这个单元格的 {language} 字符串表翻译了 {english!r}，而单元格里已经没有它了"
        "（键必须是构建写出的单元格中的一段原文）；请更新或删去这一项",
    "{path}: {line!r}: one {{{{documents.NAME}}}} per line, so that a long value can be "
    "wrapped; put the others on lines of their own":
        "{path}：{line!r}：每行只能有一个 {{{{documents.NAME}}}}，这样较长的值才能换行；"
        "请把其余的各放一行",
    "{path}: {{{{documents.{name}}}}} names no value: neither {documents} nor the course's "
    "assignments/documents.py defines it; name one of their constants":
        "{path}：{{{{documents.{name}}}}} 没有对应的值：{documents} 和课程的 "
        "assignments/documents.py 都没有定义它；请写它们中的一个常量",
    "warning: the gradebook {url} had no schema version: nbgrader made it where it could not "
    "run its alembic command (a virtualenv not activated). The kit wrote the version "
    "({version}); before running nbgrader yourself, activate the virtualenv or put {folder} "
    "first on PATH":
        "警告：成绩册 {url} 没有结构版本：nbgrader 创建它时无法运行自己的 alembic 命令"
        "（虚拟环境没有激活）。本套件已写入版本（{version}）；自己运行 nbgrader 之前，请激活"
        "虚拟环境，或把 {folder} 放在 PATH 的最前面",
    "--out {out} holds the course itself: give the demo a folder of its own, such as {example}":
        "--out {out} 包含课程本身：请给演示一个单独的文件夹，例如 {example}",
    "--out {out} exists and holds files the demo did not make: it would replace them. Give "
    "--out a new folder, or remove that one yourself":
        "--out {out} 已存在，其中有不是演示生成的文件：演示会替换掉它们。请给 --out 一个新的"
        "文件夹，或者自己删掉那个文件夹",
    "replacing the demo made before in {out}": "正在替换 {out} 中之前生成的演示",
    # The command line itself (autograder/cli.py)
    "error: {message}": "错误：{message}",
    "warning: {message}": "警告：{message}",
    "interrupted": "已中断",
    "Here `python` is not the interpreter that runs the kit: in the commands below, type "
    "`{python}` where they say `python`.":
        "这里的 `python` 不是运行本套件的解释器：下面的命令里写 `python` 的地方，请输入 "
        "`{python}`。",
    "{root} has no nbgrader_config.py": "{root} 中没有 nbgrader_config.py",
    "{root} has no nbgrader_config.py, nor has any folder above it":
        "{root} 及其上面的各层文件夹中都没有 nbgrader_config.py",
    ": run inside a course folder or pass --root. A new course: `python -m autograder init "
    "DIR`; a course folder whose nbgrader_config.py was lost or deleted: `python -m "
    "autograder init --config-only DIR` writes it back (nothing else is touched)":
        "：请在课程文件夹里运行，或用 --root 指定课程根目录。新建课程：`python -m autograder "
        "init DIR`；课程文件夹丢了或删了 nbgrader_config.py：`python -m autograder init "
        "--config-only DIR` 会把它写回去（别的东西一概不动）",
    "--config-only writes nbgrader_config.py alone: give no assignment ids and no --empty":
        "--config-only 只写 nbgrader_config.py：不要同时给作业 id 或 --empty",
    "graded {graded}, already graded {skipped}, not graded {failed}, inputs refused {refused}, "
    "graded with warnings {warned}":
        "本次评分 {graded} 份，此前已评分 {skipped} 份，未能评分 {failed} 份，"
        "拒收的输入 {refused} 份，有警告的评分 {warned} 份",
    ", test cells without hidden checks {count}": "，没有隐藏检查的测试单元格 {count} 个",
    "the gradebook recorded an earlier release of {id} (cells {cells} differ): grade holds its "
    "notebooks back until you record this one with `nbgrader generate_assignment {id} --force` "
    "(then `grade --force` regrades those graded before)":
        "成绩册记录的是 {id} 较早的发布版本（单元格 {cells} 不同）：在你用 `nbgrader "
        "generate_assignment {id} --force` 记录这个版本之前，grade 不会评它的笔记本"
        "（之后用 `grade --force` 重新评分之前已评过的）",
    "nbgrader_config.py sets c.{section}.{name}, which is no setting of c.{section}{close}: "
    "correct its name (c.{section}'s settings: {settings})":
        "nbgrader_config.py 设置了 c.{section}.{name}，但 c.{section} 没有这一项{close}：请改正它的"
        "名字（c.{section} 的设置有：{settings}）",
    " (did you mean {name}?)": "（是不是想写 {name}？）",
    "nbgrader_config.py sets c.{section}, which is no section of the kit's or nbgrader's: did "
    "you mean c.{name}? Correct it, then run grade again":
        "nbgrader_config.py 设置了 c.{section}，但本工具和 nbgrader 都没有这一节：是不是想写 "
        "c.{name}？请改正后再运行 grade",
    "nbgrader_config.py: {error} Set it to a value of that kind, then run grade again":
        "nbgrader_config.py：{error} 请把它设为该类型的值，然后再运行 grade",
    "{folder} is no course with assignments: run the demo inside one (a course `python -m "
    "autograder init DIR` made, or the kit's own checkout), which it copies into --out":
        "{folder} 不是含有作业的课程：请在课程文件夹里运行演示（`python -m autograder init DIR` "
        "建立的课程，或本工具自己的代码目录），演示会把它复制到 --out",
    "handed in again, it keeps the scores a person gave the earlier notebook: {cells}":
        "这是重新提交的笔记本，却仍保留着人工给之前那份笔记本打的分数：{cells}",
    "check them in nbgrader's formgrader against this notebook, and change or clear those that "
    "no longer fit":
        "请在 nbgrader 的 formgrader 中对照这份笔记本核对这些分数，修改或清除不再合适的",
    ", held back by a changed release {count}": "，因发布版本已变而暂不评分 {count} 份",
    "not the release the gradebook recorded: cells {cells} changed since (build rewrote it); "
    "its notebooks are not graded":
        "这不是成绩册记录的发布版本：此后单元格 {cells} 有改动（build 重写了它）；"
        "它的笔记本暂不评分",
    "record this release with `nbgrader generate_assignment {id} --force` in the course, then "
    "run grade again (with --force to regrade the notebooks graded before)":
        "请在课程中运行 `nbgrader generate_assignment {id} --force` 记录这个发布版本，然后再运行 "
        "grade（加 --force 可重新评分之前已评过的笔记本）",
    # remove (autograder/tools/remove.py)
    "{id!r} is no assignment id": "{id!r} 不是作业 id",
    "unknown assignment id {id!r}: neither the gradebook nor the course folder has it (they "
    "have: {known})":
        "未知的作业 id {id!r}：成绩册和课程文件夹里都没有它（它们有：{known}）",
    "{id} has grades in the gradebook: {held}, {by_hand} of them with a score or comment "
    "given by hand; nothing was changed. `python -m autograder remove {id} --force` removes "
    "them from the gradebook with the assignment (their files are kept under removed/{id}/)":
        "成绩册里有 {id} 的成绩：{held}，其中 {by_hand} 份有手工给的分数或评语；"
        "什么都没有改动。`python -m autograder remove {id} --force` 会把它们连同这次作业一起"
        "移出成绩册（它们的文件保留在 removed/{id}/ 下）",
    "{id}: out of the gradebook ({count} submissions and their grades with it)":
        "{id}：已移出成绩册（连同 {count} 份提交及其成绩）",
    "{id}: out of the gradebook ({count} submission and its grades with it)":
        "{id}：已移出成绩册（连同 {count} 份提交及其成绩）",
    "{id}: {moved}, as they were, under {target}/ (nothing deleted; move them back to "
    "restore it): {folders}":
        "{id}：{moved}原样移到 {target}/ 下（什么都没有删除；移回去即可恢复）：{folders}",
    "{id}: every score and comment the gradebook held of it, those given by hand among them "
    "({by_hand}), is kept in {file} (moving the folders back does not put them back in the "
    "gradebook: `grade {id}` grades again, and a TA's scores are entered again from that file)":
        "{id}：成绩册里它的每个分数和评语（其中手工给的：{by_hand}）都保存在 {file}（把文件夹移回去"
        "并不会把它们放回成绩册：`grade {id}` 会重新评分，助教的分数要按那个文件重新录入）",
    "{count} folder moved": "{count} 个文件夹已",
    "{count} folders moved": "{count} 个文件夹已",
    # grade's score summary (autograder/outputs/score_summary.py)
    "{id} (of {most} points): {scores}": "{id}（满分 {most}）：{scores}",
    "{id} (of {most} points): {count} graded, mean {mean}, median {median}, lowest {low}, "
    "highest {high}":
        "{id}（满分 {most}）：已评分 {count} 份，平均 {mean}，中位数 {median}，最低 {low}，"
        "最高 {high}",
    "the guide: python -m autograder guide": "编写作业的指南：python -m autograder guide",
    # An assignment's notebook.py, read (autograder/build/authoring.py)
    "{path}:1: the file must start with a '# %% ...' cell marker":
        "{path}:1：文件必须以 '# %% ...' 单元格标记开头",
    "{path}:{line}: no course language {code!r}; translations are for {codes}":
        "{path}:{line}：课程没有 {code!r} 这种语言；译文只能是 {codes}",
    "{path}:{line}: a {code} translation belongs right after an English '# %% [markdown]' "
    "cell, once; move it there":
        "{path}:{line}：{code} 译文应紧跟在一个英文 '# %% [markdown]' 单元格之后，且只能有一个；"
        "请把它移到那里",
    "{path}:{line}: a {code} translation belongs right after a code cell, once; move it there":
        "{path}:{line}：{code} 译文应紧跟在一个代码单元格之后，且只能有一个；请把它移到那里",
    "{path}:{line}: a strings cell holds one dict literal {{\"English\": \"translation\"}}: "
    "{problem}":
        "{path}:{line}：strings 单元格里只能有一个 dict 字面量 "
        "{{\"English\": \"translation\"}}：{problem}",
    "{path}:{line}: a strings cell holds one dict literal of non-empty strings to strings":
        "{path}:{line}：strings 单元格里只能有一个把非空字符串映射到字符串的 dict 字面量",
    "{path}:{line}: unknown cell marker {marker!r}; use one of {markers}":
        "{path}:{line}：未知的单元格标记 {marker!r}；请用其中之一：{markers}",
    "{path}:{line}: '# %% {kind}' needs the name(s) it is about":
        "{path}:{line}：'# %% {kind}' 后面要写出它所涉及的名字",
    "{path}:{line}: a solution cell takes its code from reference.py; leave its body empty":
        "{path}:{line}：答案单元格的代码取自 reference.py；请让它的正文保持为空",
    "{path}:{line}: write '# %% tests NAME points=N'":
        "{path}:{line}：请写成 '# %% tests NAME points=N'",
    "{path}:{line}: a markdown line must start with '# '":
        "{path}:{line}：markdown 行必须以 '# ' 开头",
    # The course's assignments, loaded (autograder/checks/loader.py)
    "{path}: SIMILARITY must be Similar(share=..., characters=...) from "
    "autograder.checks.model, not {kind} ({guide})":
        "{path}：SIMILARITY 必须是 autograder.checks.model 中的 Similar(share=..., "
        "characters=...)，而不是 {kind}（{guide}）",
    "{path} is missing: write the reference code of the assignment's solution and given cells "
    "there ({guide})":
        "缺少 {path}：请在那里写出作业的答案单元格和给定单元格的参考代码（{guide}）",
    "{path} has no {name!r}: define it there (or import it), as {cell} names it":
        "{path} 里没有 {name!r}：请在那里定义它（或导入它），{cell} 用到了这个名字",
    "a cell of the notebook": "笔记本的一个单元格",
    "{folder} is missing: a course keeps its assignments there (python -m autograder new ID "
    "writes one)":
        "缺少 {folder}：课程把作业放在那里（python -m autograder new ID 会写一个）",
    "none yet": "还没有",
    "{path} is missing: the course has no assignment {id!r} (its assignments: {known}); "
    "python -m autograder new {id} writes one":
        "缺少 {path}：课程里没有作业 {id!r}（已有的作业：{known}）；"
        "python -m autograder new {id} 会写一个",
    "{path} is missing: declare the assignment's hidden checks there, STEPS = (Step(...), "
    "...) ({guide})":
        "缺少 {path}：请在那里声明作业的隐藏检查，STEPS = (Step(...), ...)（{guide}）",
    "{path}: STEPS must be a tuple of Step(...), one per function students write ({guide})":
        "{path}：STEPS 必须是由 Step(...) 组成的元组，学生要写的每个函数一个（{guide}）",
    "{path}: two steps are named {name!r}; give each its own name":
        "{path}：有两个步骤都叫 {name!r}；请给每个步骤起不同的名字",
    "{path}: step {name!r}: uses={uses!r} must be a tuple of step names, such as "
    "uses=('scaled_softmax',) (the comma makes it a tuple)":
        "{path}：步骤 {name!r}：uses={uses!r} 必须是由步骤名组成的元组，例如 "
        "uses=('scaled_softmax',)（有逗号才是元组）",
    "{path}: step {name!r} uses {used!r}, which is not a step of this assignment; `uses` "
    "names earlier steps of STEPS":
        "{path}：步骤 {name!r} 用到了 {used!r}，但它不是本作业的步骤；`uses` 只能写 STEPS "
        "中更早的步骤",
    "{path}:{line}: {problem}; fix the code":
        "{path}:{line}：{problem}；请修改代码",
    "{path}:{line}: {kind}: {problem}; fix the code (the error happens while the module is "
    "imported)":
        "{path}:{line}：{kind}：{problem}；请修改代码（错误发生在导入这个模块时）",
    "{path}: CATALOG must be a dict of English texts to their Chinese texts":
        "{path}：CATALOG 必须是把英文文字映射到中文文字的 dict",
    "{path}:{line}: `{statement}` fails":
        "{path}:{line}：`{statement}` 失败",
    "{where}: there is no {missing}; `from .NAME import ...` imports the assignment's own "
    "NAME.py, `from ..NAME import ...` the course's assignments/NAME.py, shared by every "
    "assignment":
        "{where}：没有 {missing}；`from .NAME import ...` 导入作业自己的 NAME.py，"
        "`from ..NAME import ...` 导入课程的 assignments/NAME.py（所有作业共用）",
    "{where}: no module named {name!r} is installed in the kit's Python; install it there or "
    "import another":
        "{where}：本套件所用的 Python 里没有安装名为 {name!r} 的模块；请在那里安装它，"
        "或者导入别的模块",
    "{where}: there is no {missing}; write it, or import from a module of that folder":
        "{where}：没有 {missing}；请写出它，或者从那个文件夹里的模块导入",
    "{where}: {module} has no {name!r}; define it there, or import a name it has":
        "{where}：{module} 里没有 {name!r}；请在那里定义它，或者导入它已有的名字",
    "{where}: {problem}; fix the import":
        "{where}：{problem}；请修改这条导入语句",
    # The progress bar (autograder/engine/progress.py); its items
    "[{bar}] {count}  {elapsed} elapsed, {left} left  {label}":
        "[{bar}] {count}  已用 {elapsed}，还需 {left}  {label}",
    "{done}/{total} notebooks": "{done}/{total} 个笔记本",
    "{done}/{total} pages": "{done}/{total} 个页面",
    "{done}/{total} assignments": "{done}/{total} 次作业",
    # A course folder (autograder/course/directory.py)
    "unknown assignment id {id!r}: this course has no assignment yet; write one with "
    "`python -m autograder new {id}`, then build it":
        "未知的作业 id {id!r}：这门课程还没有作业；请先用 `python -m autograder new {id}` "
        "写一个，再构建它",
    "unknown assignment id {id!r}: the ids are {known}":
        "未知的作业 id {id!r}：可用的作业 id 有 {known}",
    "nbgrader {command} failed in {root}:\n{tail}": "nbgrader {command} 在 {root} 中失败：\n{tail}",
    # Building (autograder/build/__init__.py)
    "{folder} holds no assignment: write one with `python -m autograder new ID` ({guide})":
        "{folder} 中没有作业：请用 `python -m autograder new ID` 写一个（{guide}）",
    "[{number}/{count}] building {id} ...": "[{number}/{count}] 正在构建 {id} ……",
    "grading the solutions and the blank stubs of {ids} in a scratch course of validate's own "
    "(the course's gradebook is not touched; the lines below are that course's)":
        "正在 validate 自己的临时课程里批改 {ids} 的参考答案和空白函数桩（不会改动本课程的成绩册；"
        "下面各行说的是那个临时课程）",
    "Chinese": "中文",
    "warning: {path}:{line}: {words!r} stays English in the {language} notebook: translate it "
    "in its cell's `# %% strings {code}` (a key holding these words), or map it to itself "
    "there if it is data kept in English":
        "警告：{path}:{line}：{words!r} 在{language}笔记本中仍是英文：请在它所在单元格的 "
        "`# %% strings {code}` 中翻译它（用一个包含这些词的键）；如果它是要保留英文的数据，就在那里"
        "把它映射为它自己",
    "warning: {path}:{line}: this `# %% [markdown {code}]` cell, the twin of the markdown cell "
    "above it, holds no {language} ({words!r} ...): write it in {language}":
        "警告：{path}:{line}：这个 `# %% [markdown {code}]` 单元格（上方 markdown 单元格的译文）"
        "里没有{language}（{words!r} ……）：请用{language}写它",
    "warning: {path}:{line}: {words!r} stays English in this `# %% [markdown {code}]` twin: "
    "write it in {language}, or quote it (“...”, 《...》 or `...`) if it is a title or a text "
    "kept in English":
        "警告：{path}:{line}：{words!r} 在这个 `# %% [markdown {code}]` 译文里仍是英文：请用"
        "{language}写它；如果它是标题或要保留英文的文字，就把它放进引号（“……”、《……》或 `...`）",
    "warning: {path} was changed since build wrote it; build writes it anew from "
    "assignments/{id}/ (write changes there), and keeps yours in {kept}":
        "警告：{path} 在 build 写出之后被改动过；build 会根据 assignments/{id}/ 重新写出它"
        "（请把改动写在那里），你的版本保存在 {kept}",
    "[{number}/{count}] built {id}: source/{id}/ and release/{id}/":
        "[{number}/{count}] 已构建 {id}：source/{id}/ 和 release/{id}/",
    # A new course folder (autograder/build/course_folder.py)
    "{folder} is not empty; init writes a new course: give a new or empty folder (nothing in "
    "an existing one is replaced). To add an assignment to a course, run `python -m "
    "autograder new ID` there":
        "{folder} 不是空文件夹；init 只新建课程：请给一个新的或空的文件夹（已有文件夹里的东西"
        "一概不替换）。要给已有课程添加作业，请在那里运行 `python -m autograder new ID`",
    "{folder} is not a folder; --config-only writes nbgrader_config.py into an existing "
    "course folder (a new course: `python -m autograder init DIR`)":
        "{folder} 不是文件夹；--config-only 把 nbgrader_config.py 写进一个现有的课程文件夹"
        "（新建课程：`python -m autograder init DIR`）",
    "warning: {path} is a second gradebook: nbgrader run in {folder} made it there and "
    "recorded into it; this course's is {own}. Run nbgrader in the course root ({root}), and "
    "move that file away once you have read what it holds":
        "警告：{path} 是第二个成绩册：在 {folder} 中运行的 nbgrader 在那里建了它，"
        "并把成绩记进了它；本课程的成绩册是 {own}。请在课程根目录（{root}）中运行 "
        "nbgrader；看过其中的内容后，把那个文件移走",
    "English": "英文",
    "Simplified Chinese": "简体中文",
    "{config} exists; --config-only never replaces it (move it away first to write the kit's "
    "default one)":
        "{config} 已存在；--config-only 绝不替换它（要写本套件的默认配置，请先把它移开）",
    "{folder} records no language: none of its source/ notebooks says which language it was "
    "built in (none is built, they were built by an older kit, or they disagree). Say it: "
    "`python -m autograder init --config-only --language en {folder}` (or --language zh)":
        "{folder} 没有记录语言：它 source/ 中没有哪个笔记本写明自己是用哪种语言构建的（还没有构建、"
        "由旧版套件构建，或者彼此不一致）。请明确指定：`python -m autograder init --config-only "
        "--language en {folder}`（或 --language zh）",
    "wrote {config} ({language}): the kit's defaults, course id {course_id!r} and the gradebook "
    "sqlite:///gradebook.db; set again what you had changed (course id, gradebook URL, due "
    "dates, sandbox limits), then run `python -m autograder validate` there":
        "已写入 {config}（{language}）：本套件的默认值，课程 id {course_id!r}，成绩册 "
        "sqlite:///gradebook.db；请重新设置你改过的值（课程 id、成绩册 URL、截止时间、沙箱限制），"
        "然后在那里运行 `python -m autograder validate`",
    "copying {count} assignments of the kit into assignments/":
        "正在把本套件的 {count} 次作业复制到 assignments/",
    "copying {count} assignment of the kit into assignments/":
        "正在把本套件的 {count} 次作业复制到 assignments/",
    "[{number}/{count}] rendered {id} in {language}: source/{id}/":
        "[{number}/{count}] 已生成 {id} 的 {language} 主笔记本：source/{id}/",
    "[{number}/{count}] released {id} (nbgrader generate_assignment): release/{id}/":
        "[{number}/{count}] 已发布 {id}（nbgrader generate_assignment）：release/{id}/",
    "course in {folder} ({count} assignments, {language}); go there and run the kit with "
    "this python, for example:":
        "课程已建在 {folder}（{count} 次作业，语言 {language}）；请进入该文件夹，"
        "用同一个 Python 运行本套件，例如：",
    "course in {folder} ({count} assignment, {language}); go there and run the kit with "
    "this python, for example:":
        "课程已建在 {folder}（{count} 次作业，语言 {language}）；请进入该文件夹，"
        "用同一个 Python 运行本套件，例如：",
    "(an assignment of your own)": "（你自己的一次作业）",
    "Keep {secret} (yours alone): each student's hidden cases are drawn from it, the same on "
    "every regrade; a course without it draws new ones for everyone.":
        "请保管好 {secret}（只归你所有）：每个学生的隐藏用例都由它抽取，每次重新评分都相同；"
        "课程没有了它，就会为所有人重新抽取。",
    # Grading (autograder/grading/parallel.py)
    "[{number}/{count}] registering {id} in the gradebook (nbgrader generate_assignment) ...":
        "[{number}/{count}] 正在把 {id} 登记到成绩册（nbgrader generate_assignment）……",
    "[{number}/{count}] {id} registered ({seconds:.1f} s)":
        "[{number}/{count}] {id} 已登记（{seconds:.1f} 秒）",
    "no {module} in this Python, and every kernel needs it: install it "
    "({python} -m pip install {module})":
        "这个 Python 中没有 {module}，而每个内核都需要它：请安装它"
        "（{python} -m pip install {module}）",
    "nothing to grade: submitted/ holds no notebook of {ids}{students}; collect them first "
    "({kit} collect ID --from FOLDER_OR_ZIP)":
        "没有需要评分的内容：submitted/ 中没有 {ids}{students} 的笔记本；请先收取提交"
        "（{kit} collect ID --from 文件夹或zip文件）",
    " for {students}": "（学生 {students}）",
    "{count} notebooks already graded (use --force to grade them again)":
        "{count} 个笔记本已经评过分（要重新评分请加 --force）",
    "{count} notebook already graded (use --force to grade it again)":
        "{count} 个笔记本已经评过分（要重新评分请加 --force）",
    "finishing an interrupted grade --force: {count} notebook it had not graded again is "
    "graded now":
        "继续完成上次中断的 grade --force：现在为它还没重新评分的 {count} 个笔记本评分",
    "finishing an interrupted grade --force: {count} notebooks it had not graded again are "
    "graded now":
        "继续完成上次中断的 grade --force：现在为它还没重新评分的 {count} 个笔记本评分",
    "error: {notebook}: not graded: {why}; {fix}": "错误：{notebook}：未评分：{why}；{fix}",
    "{value} is not a whole number above 0": "{value} 不是大于 0 的整数",
    "{root}: no such folder; pass a course's folder to --root (or run inside one)":
        "{root}：没有这个文件夹；请用 --root 指定课程文件夹（或者在课程文件夹里运行）",
    "the machine failed, not the notebook: check its limits (processes, memory) and run grade "
    "again":
        "出错的是机器，不是笔记本：请检查它的限制（进程数、内存），然后重新运行 grade",
    "the kernel that runs the notebook could not be started on this machine (a limit on "
    "processes or memory, or the sandbox refused it)":
        "运行笔记本的内核无法在这台机器上启动（进程数或内存受到限制，或者沙箱拒绝了它）",
    "the kernel that judges the steps could not be started on this machine (a limit on "
    "processes or memory, the sandbox refused it, or the machine was too busy to start it "
    "within the notebook's time limit)":
        "评判各步骤的内核无法在这台机器上启动（进程数或内存受到限制，沙箱拒绝了它，或者机器太忙，"
        "没能在笔记本的时间限制内启动它）",
    "score changed: {student} {id}: {old:g} -> {new:g}":
        "分数有变：{student} {id}：{old:g} -> {new:g}",
    "grading {count} notebook": "正在为 {count} 个笔记本评分",
    "no submission of {ids} yet: not graded, nor registered in the gradebook (`python -m "
    "autograder grade ID` registers one all the same)":
        "{ids} 还没有人提交：不评分，也不登记到成绩册（`python -m autograder grade ID` 仍可登记）",
    "grading {count} notebooks": "正在为 {count} 个笔记本评分",
    " on {workers} worker": "，用 {workers} 个工作进程",
    " on {workers} workers": "，用 {workers} 个工作进程",
    " of {address}": "（集群 {address}）",
    "interrupted: every notebook graded so far is kept; run grade again to go on":
        "已中断：已经评完的笔记本都保留了；再运行一次 grade 即可继续",
    "another grade is running in this course ({holder}); wait for it to finish, or stop it, "
    "then run grade again":
        "这门课程正有另一次 grade 在运行（{holder}）；请等它结束或停止它，再运行一次 grade",
    "another process": "另一个进程",
    "warning: a grade is running in this course ({holder}): the notebooks it has not graded "
    "yet are read as they were before it; run this again once it ends":
        "警告：这门课程正有一次 grade 在运行（{holder}）：它还没评到的笔记本按评分前的样子读取；"
        "等它结束后再运行一次本命令",
    "warning: {count} of them was graded with hidden checks that changed since (checks.py, "
    "probes.py, reference.py or a module they share in assignments/): run {command} to grade "
    "it with the current ones":
        "警告：其中 {count} 份评分时用的隐藏检查此后已改动（checks.py、probes.py、reference.py "
        "或 assignments/ 中它们共用的模块）：运行 {command}，用现在的检查重新评分",
    "warning: {count} of them were graded with hidden checks that changed since (checks.py, "
    "probes.py, reference.py or a module they share in assignments/): run {command} to grade "
    "them with the current ones":
        "警告：其中 {count} 份评分时用的隐藏检查此后已改动（checks.py、probes.py、reference.py "
        "或 assignments/ 中它们共用的模块）：运行 {command}，用现在的检查重新评分",
    "warning: {count} of them was graded under another due date, extension or late penalty "
    "than nbgrader_config.py gives now ({students}): its penalty is the old one until "
    "{command} grades it again":
        "警告：其中 {count} 份评分时用的截止时间、延期或迟交扣分与 nbgrader_config.py 现在的不同"
        "（{students}）：在 {command} 重新评分之前，扣分仍按旧的算",
    "warning: {count} of them were graded under another due date, extension or late penalty "
    "than nbgrader_config.py gives now ({students}): their penalties are the old ones until "
    "{command} grades them again":
        "警告：其中 {count} 份评分时用的截止时间、延期或迟交扣分与 nbgrader_config.py 现在的不同"
        "（{students}）：在 {command} 重新评分之前，扣分仍按旧的算",
    "pid {pid} on {host}, started {started}": "进程 {pid}，在 {host} 上，开始于 {started}",
    # Deadlines in nbgrader_config.py (autograder/course/deadlines.py)
    "its time zone {zone!r} is not one the kit knows: name one of the tz database "
    "(Asia/Shanghai) or an offset (+08:00)":
        "它的时区 {zone!r} 不是本工具认得的：请写时区数据库里的名字（Asia/Shanghai），或一个时差"
        "（+08:00）",
    "c.Deadlines.due_dates[{id!r}] = {value!r} is not a date ({error}); write it as {example}":
        "c.Deadlines.due_dates[{id!r}] = {value!r} 不是日期（{error}）；请写成 {example}",
    "c.Deadlines in nbgrader_config.py names {unknown}, not an assignment of the course "
    "({known}): correct the id, or delete its entry":
        "nbgrader_config.py 的 c.Deadlines 写了 {unknown}，但它不是本课程的作业（{known}）："
        "请改正这个作业编号，或者删掉这一项",
    "{id}: nbgrader_config.py still names it in {entries}: delete those entries (grade leaves "
    "them be while removed/{id}/ is there)":
        "{id}：nbgrader_config.py 的 {entries} 里还写着它：请删掉这些项（只要 removed/{id}/ 还在，"
        "grade 就不理会它们）",
    "c.Deadlines.extension_hours[{id!r}] must map student ids to hours (a number >= 0), "
    "e.g. {example}":
        "c.Deadlines.extension_hours[{id!r}] 必须把学生 id 映射到小时数（不小于 0 的数），"
        "例如 {example}",
    # The dask cluster (autograder/engine/cluster.py)
    "no dask scheduler answers at {address} ({error}); start one with `dask scheduler` or "
    "correct --scheduler":
        "{address} 上没有 dask 调度器响应（{error}）；请用 `dask scheduler` 启动一个，"
        "或改正 --scheduler",
    "warning: the scheduler at {address} speaks without TLS: whoever can reach it (on a shared "
    "machine, every user: 127.0.0.1 is theirs too) can connect and run code as its workers' "
    "user, reading the course's secret and reference answers; give the cluster dask's TLS "
    "settings (python -m autograder guide clusters)":
        "警告：{address} 上的调度器不使用 TLS：能连到它的人（在共享的机器上，就是每个用户："
        "127.0.0.1 对他们同样可用）都能连上它，以其 worker 的用户身份运行代码，读到课程的密钥和"
        "参考答案；请给这个集群配置 dask 的 TLS 设置（python -m autograder guide clusters）",
    "the scheduler at {address} speaks TLS, and this command has no TLS settings of dask's "
    "({error}); give it the cluster's distributed.comm.tls certificates (python -m autograder "
    "guide clusters)":
        "{address} 上的调度器使用 TLS，而本命令没有 dask 的 TLS 设置（{error}）；请给它配上"
        "这个集群的 distributed.comm.tls 证书（python -m autograder guide clusters）",
    "the scheduler at {address} has no worker after {seconds:.0f} s; start some with "
    "`{command}`":
        "{address} 上的调度器 {seconds:.0f} 秒后仍没有工作进程；请用 `{command}` 启动几个",
    "dashboard: {link}": "dask 监控面板：{link}",
    "{path}: SQLite cannot open or make the course's gradebook there; the folder must be "
    "writable by the user running the command (ls -ld shows who may), on a file system that is "
    "not read-only":
        "{path}：SQLite 无法在此打开或创建课程的成绩册；该文件夹必须对运行命令的用户可写"
        "（ls -ld 可查看谁有权限），且不能位于只读文件系统上",
    "{path}: {reason}; the course folder must be on a file system the command can write: "
    "mount it read-write, or copy the course where it can":
        "{path}：{reason}；课程文件夹必须位于此命令可写入的文件系统上：请以读写方式挂载，"
        "或把课程复制到可写的位置",
    "{mb} MB free": "剩余 {mb} MB",
    "its free space unknown": "剩余空间未知",
    "c.PercentPerDay.percent_per_day is {value:g}: a percent of the score lost per day late "
    "must be from 0 to 100 (0: no penalty)":
        "c.PercentPerDay.percent_per_day 为 {value:g}：每迟交一天扣除的分数百分比必须在 0 到 100 "
        "之间（0 表示不扣分）",
    "c.PercentPerDay.grace_minutes is {value:g}: minutes of grace must be 0 or more":
        "c.PercentPerDay.grace_minutes 为 {value:g}：宽限的分钟数必须大于或等于 0",
    "--student {pattern}: no student of submitted/ is {pattern} ({known}); check the id":
        "--student {pattern}：submitted/ 里没有 {pattern} 这个学生（{known}）；请检查 id",
    "did you mean {names}?": "是不是 {names}？",
    "it holds {count} student": "里面有 {count} 个学生",
    "it holds {count} students": "里面有 {count} 个学生",
    "the disk that holds {root} is full ({free}): free some space on it, then run the command "
    "again; what the command finished before is kept (a gradebook's write is whole or not "
    "there)":
        "存放 {root} 的磁盘已满（{free}）：请在该磁盘上腾出空间后重新运行命令；命令此前完成的"
        "部分都已保留（成绩册的每次写入要么完整，要么不存在）",
    "{path}: no space left ({reason}); free some on that disk, then run the command again":
        "{path}：磁盘空间不足（{reason}）；请在该磁盘上腾出空间后重新运行命令",
    "{path}: {reason}; this command must read and write the course folder: run it as the "
    "folder's owner, or give that user the right (ls -ld shows who may)":
        "{path}：{reason}；此命令需要读写课程文件夹：请以该文件夹的所有者身份运行，"
        "或给该用户相应权限（ls -ld 可查看谁有权限）",
    "the figures of a Chinese course are drawn with the kit's CJK font, which is not installed: "
    "pip install noto-cjk-sans-otc==0.0.1 (a dependency of the kit's package)":
        "中文课程的图用本工具包自带的中日韩字体绘制，但该字体未安装：请运行 "
        "pip install noto-cjk-sans-otc==0.0.1（本工具包的依赖之一）",
    "dashboard: {link} (bokeh is installed; the page is open to every user of this machine "
    "while grading runs)":
        "dask 监控面板：{link}（已安装 bokeh；评分期间本机的每个用户都能打开这个页面）",
    # A run whose cluster lost its workers (autograder/engine/worker_watch.py)
    "the cluster at {address} has had no worker for {seconds:.0f} s, so its tasks cannot "
    "run: what was finished is kept, and the next run does the rest; {advice}":
        "{address} 上的集群已有 {seconds:.0f} 秒没有工作进程，任务无法运行：已完成的都已保留，"
        "其余的由下一次运行完成；{advice}",
    "start workers with `{command}`": "请用 `{command}` 启动工作进程",
    "its workers ended and did not start again: grade.log says why":
        "它的工作进程已结束且没有重新启动：原因见 grade.log",
    # The gradebook (autograder/course/gradebook_guard.py)
    " and {more} more": " 等，另有 {more} 个",
    "c.CourseDirectory.db_url in nbgrader_config.py":
        "nbgrader_config.py 中的 c.CourseDirectory.db_url",
    "{setting} is {url!r}: SQLAlchemy names PostgreSQL 'postgresql://'; write "
    "postgresql+psycopg2://USER@HOST/DATABASE":
        "{setting} 是 {url!r}：SQLAlchemy 把 PostgreSQL 写作 'postgresql://'；"
        "请写成 postgresql+psycopg2://USER@HOST/DATABASE",
    "the gradebook {path} ({setting}) does not exist, but autograded/ holds {count} graded "
    "notebooks: restore the gradebook from a backup or point db_url at it; `python -m "
    "autograder grade --force` grades every submission again into a new one":
        "成绩册 {path}（{setting}）不存在，但 autograded/ 中有 {count} 个已评分的笔记本："
        "请从备份恢复成绩册，或让 db_url 指向它；`python -m autograder grade --force` "
        "会把每份提交重新评分，写入一个新的成绩册",
    "cannot open the gradebook {url!r} ({setting}): its database driver {driver} is not "
    "installed where the kit runs; install it there: `{python} -m pip install {package}`":
        "无法打开成绩册 {url!r}（{setting}）：运行本套件的环境里没有安装它的数据库驱动 "
        "{driver}；请在那里安装：`{python} -m pip install {package}`",
    "cannot open the gradebook {url!r} ({setting}): {reason}; start the database server or "
    "correct db_url":
        "无法打开成绩册 {url!r}（{setting}）：{reason}；请启动数据库服务器，或改正 db_url",
    "the gradebook {url!r} ({setting}) has no record of {count} graded notebooks ({listed}): "
    "it is not this course's gradebook; point db_url at the course's, or grade them again "
    "with `python -m autograder grade --force`":
        "成绩册 {url!r}（{setting}）中没有 {count} 个已评分笔记本的记录（{listed}）："
        "它不是这门课程的成绩册；请让 db_url 指向本课程的成绩册，或用 "
        "`python -m autograder grade --force` 重新评分",
    # What build and validate find wrong in an assignment (autograder/checks/audit.py,
    # autograder/build/proof.py)
    "{where}: this test cell names no step to check; a graded cell checks one step "
    "(# %% tests NAME points=N)":
        "{where}：这个测试单元格没有指定要检查的步骤；每个计分单元格检查一个步骤"
        "（# %% tests NAME points=N）",
    "{where}: no hidden checks are declared for {name!r} (the steps of {checks} are "
    "{known}); {fix} ({guide})":
        "{where}：没有为 {name!r} 声明隐藏检查（{checks} 中的步骤有 {known}）；{fix}（{guide}）",
    "did you mean {close!r}? If not, add a Step named {name!r} to its STEPS":
        "是不是想写 {close!r}？如果不是，请在它的 STEPS 里添加一个名为 {name!r} 的 Step",
    "add a Step named {name!r} to its STEPS": "请在它的 STEPS 里添加一个名为 {name!r} 的 Step",
    "none": "无",
    "{where}: step {name!r}: {problem}": "{where}：步骤 {name!r}：{problem}",
    "{where}: no {language} text for {english!r}: add it to CATALOG there (the students of "
    "this course would read it in English)":
        "{where}：{english!r} 没有 {language} 译文：请把它加进那里的 CATALOG"
        "（否则这门课的学生会读到英文）",
    "it has no random case, so every student meets the same inputs and a notebook could "
    "hard-code the answers; give it random_cases=... drawing inputs from the generator it is "
    "given ({guide})":
        "它没有随机用例，每个学生遇到的输入都一样，笔记本可以把答案写死；请给它 "
        "random_cases=...，用传给它的生成器抽取输入（{guide}）",
    "its random case {label!r} draws the same inputs every time; draw them from the generator "
    "random_cases is given (randn(gen, ...), sizes(gen, ...)), or, if they are fixed on "
    "purpose, move the case to fixed_cases":
        "它的随机用例 {label!r} 每次抽到的输入都相同；请用传给 random_cases 的生成器抽取"
        "（randn(gen, ...)、sizes(gen, ...)），如果是有意固定的，请把这个用例移到 "
        "fixed_cases",
    "its rule {rule!r} tells a mask from a cache only on a sequence of {least} positions or "
    "more, whose length is no other size of the call (d_in, d_k ...), and {short} of {draws} "
    "draws of its cases have none; draw one case's sequence so (sizes(gen, 4, low={least}, "
    "...) draws distinct sizes), or add such a fixed case":
        "它的规则 {rule!r} 只有在序列至少有 {least} 个位置、且长度不同于调用中其他任何尺寸"
        "（d_in、d_k……）时才能分辨掩码和缓存，而它的用例抽取 {draws} 次中有 {short} 次一个这样的"
        "序列也没有；请这样抽取某个用例的序列（sizes(gen, 4, low={least}, ...) 抽出互不相同的"
        "尺寸），或添加一个这样的固定用例",
    "its hidden checks fail the reference ({finding}); fix the check or the reference, they "
    "must agree":
        "参考答案通不过它的隐藏检查（{finding}）；请修改检查或参考答案，两者必须一致",
    "{where}: mistake {mistake!r} of {name!r}: its code does not run ({kind}: {error}); it "
    "must define {name}":
        "{where}：{name!r} 的常见错误 {mistake!r}：它的代码无法运行（{kind}：{error}）；"
        "它必须定义 {name}",
    "{where}: mistake {mistake!r} passes every check of {name!r}: add a case or property that "
    "it fails, or remove it":
        "{where}：常见错误 {mistake!r} 通过了 {name!r} 的所有检查：请添加一个它通不过的用例"
        "或性质，或者删掉这个错误",
    "{where}: mistake {mistake!r} fails {name!r} but is never named: no failing case gives its "
    "numbers (a property or a rule catches it); add a case it gets wrong":
        "{where}：常见错误 {mistake!r} 通不过 {name!r}，但从未被点名：没有哪个失败的用例"
        "给出它的数值（是性质或规则抓住了它）；请添加一个它会算错的用例",
    "{where}: with the reference's code, this cell fails in a fresh kernel: {error}; "
    "fix the test or the reference":
        "{where}：填入参考答案的代码后，这个单元格在新内核中运行失败：{error}；"
        "请修改测试或参考答案",
    "{notebook}: with the reference's code, the notebook {stopped}":
        "{notebook}：填入参考答案的代码后，笔记本{stopped}",
    "{id} is not built:": "{id} 没有构建：",
    "{where}: the public test of {step} types a value for the mistake {name!r}, which {step}'s "
    "mistakes in checks.py do not list ({listed}); name one of them as Mistake(...) spells it, "
    "or add it there":
        "{where}：{step} 的公开测试给常见错误 {name!r} 写了数值，但 checks.py 中 {step} 的常见错误"
        "里没有它（有：{listed}）；请按 Mistake(...) 中的写法写其中一个的名字，或者把它加到那里",
    "{where}: the public test of {step} could not be run with the code of the mistake {name!r} "
    "(checks.py); check that the Mistake's code defines {step}":
        "{where}：无法用常见错误 {name!r}（checks.py）的代码运行 {step} 的公开测试；"
        "请检查这个 Mistake 的代码是否定义了 {step}",
    "{where}: with the code of the mistake {name!r} (checks.py) in place of {step}, the public "
    "test stops before its checks: {error}; make the test reach its check of that mistake, or "
    "fix the Mistake's code":
        "{where}：用常见错误 {name!r}（checks.py）的代码代替 {step} 后，公开测试在检查之前就停了："
        "{error}；请让测试能走到检查这个错误的那一步，或者修改这个 Mistake 的代码",
    "it passes: the mistake gives the expected value on this input":
        "检查通过了：在这个输入上，这个错误给出的正是期望的数值",
    "{where}: the value the public test of {step} types for the known mistake {name!r} ({what}) "
    "is not what that Mistake's code in checks.py computes; with it the check says: {said}. "
    "Type the value the mistake gives on this input, or fix the Mistake's code":
        "{where}：{step} 的公开测试给常见错误 {name!r}（{what}）写的数值，不是 checks.py 中这个 "
        "Mistake 的代码算出的数值；用它的代码时，检查说：{said}。请写上这个错误在这个输入上"
        "给出的数值，或者修改这个 Mistake 的代码",
    "{where}: the public test of {step} names the mistake {name!r} in no expect_close or "
    "expect_equal call that runs":
        "{where}：{step} 的公开测试点名了常见错误 {name!r}，但没有哪个会运行的 expect_close 或 "
        "expect_equal 调用用到它",
    # Validating (autograder/tools/validate.py)
    "{folder} holds no assignment to validate: write one with `python -m autograder new ID` "
    "({guide})":
        "{folder} 中没有可以验证的作业：请用 `python -m autograder new ID` 写一个（{guide}）",
    "FAILED: {failure}": "未通过：{failure}",
    "valid: {ids} (solutions full marks, stubs zero)":
        "验证通过：{ids}（参考答案得满分，待完成的函数得零分）",
    "checking {id}: its hidden checks, its build, its public tests ...":
        "正在检查 {id}：隐藏检查、构建结果、公开测试……",
    "{id} is not built (no source/ or release/ folder): run `python -m autograder build {id}`":
        "{id} 还没有构建（没有 source/ 或 release/ 文件夹）：请运行 "
        "`python -m autograder build {id}`",
    "source/{id}/ is older than assignments/{id}/: run `python -m autograder build {id}`, "
    "then validate again":
        "source/{id}/ 比 assignments/{id}/ 旧：请运行 `python -m autograder build {id}`，"
        "再重新验证",
    "{id}: could not be graded": "{id}：无法评分",
    "{id}: the solution loses points in {cell} ({score:g}/{most:g})":
        "{id}：参考答案在 {cell} 中丢了分（{score:g}/{most:g}）",
    "; {why}": "；{why}",
    "{id}: the blank stub earns points in {cell} ({score:g})":
        "{id}：没有作答的待完成函数在 {cell} 中得了分（{score:g}）",
    # A new assignment (autograder/tools/scaffold.py)
    "{folder} exists: new writes a new assignment and replaces nothing; choose another id, "
    "or edit that folder":
        "{folder} 已经存在：new 只写新的作业，不替换任何东西；请换一个 id，或直接编辑那个文件夹",
    "wrote {folder}/: notebook.py (prose, stub, public test), reference.py, documents.py, "
    "checks.py{more}":
        "已写好 {folder}/：notebook.py（正文、待完成的函数、公开测试）、reference.py、"
        "documents.py、checks.py{more}",
    ", {name}": "、{name}",
    "next: edit them ({guide}), then": "下一步：修改这些文件（{guide}），然后运行",
    # gradescope (autograder/gradescope/package.py)
    "the pinned versions name no torch (torch==VERSION): install the kit's requirements.lock "
    "in this environment first":
        "固定版本中没有 torch（torch==VERSION）：请先在这个环境中安装本套件的 requirements.lock",
    "{id} is not built (no source/{id}/): run `python -m autograder build {id}` first":
        "{id} 还没有构建（没有 source/{id}/）：请先运行 `python -m autograder build {id}`",
    "{folder}: no such folder; create it or write the zip elsewhere (--to)":
        "{folder}：没有这个文件夹；请先创建它，或用 --to 把 zip 写到别处",
    "{path} exists and is not a Gradescope zip the kit wrote; choose another --to (nothing was "
    "overwritten)":
        "{path} 已存在，且不是本套件写出的 Gradescope zip；"
        "请用 --to 换一个位置（没有覆盖任何文件）",
    "wrote {path} ({mb:.1f} MB): on Gradescope, create a Programming Assignment, upload this "
    "zip under Configure Autograder, and let students upload {notebook}":
        "已写出 {path}（{mb:.1f} MB）：在 Gradescope 上创建 Programming Assignment，在 Configure "
        "Autograder 中上传这个 zip，再让学生上传 {notebook}",
    # The similarity report's console (autograder/outputs/similarity*.py)
    "{path}: no such release notebook; the similarity report needs it to tell the release's "
    "code from the students' (run build)":
        "{path}：没有这个发布版笔记本；相似度报告要靠它区分发布版的代码和学生自己的代码"
        "（请运行 build）",
    "{folder}: no such folder; create it or write the similarity report elsewhere (--to)":
        "{folder}：没有这个文件夹；请先创建它，或用 --to 把相似度报告写到别处",
    "similarity {assignment}: skipped, no notebook handed in":
        "相似度 {assignment}：跳过，没有交上来的笔记本",
    "similarity {assignment}: skipped, its checks could not be read: {why}":
        "相似度 {assignment}：跳过，读不了它的检查：{why}",
    "similarity: not compared, since their checks could not be read (said above): "
    "{assignments}; fix them, then run {command}":
        "相似度：读不了检查（见上文），没有比较：{assignments}；修好后运行 {command}",
    "similarity {assignment}: {notebooks}, {flagged} flagged ({flag}): {path}":
        "相似度 {assignment}：{notebooks}，标记了 {flagged}（{flag}）：{path}",
    "{count} notebook": "{count} 个笔记本",
    "{count} notebooks": "{count} 个笔记本",
    "{count} pair": "{count} 对",
    "{count} pairs": "{count} 对",
    "none: the code of this assignment is too short to tell a copy from students who wrote "
    "it alone":
        "不标记：这次作业的代码太短，分不清是抄袭还是各自独立写出的",
    "Independent correct solutions of this assignment share as much code as copies do "
    "(bench/similarity_calibration.py measured it), so no pair is flagged. The {count} most "
    "alike pairs are below for you to read; --threshold and --characters flag pairs anyway.":
        "这次作业中各自独立写出的正确答案，与抄袭的答案有同样多的相同代码"
        "（bench/similarity_calibration.py 测量过），所以不标记任何一对。下面列出最相似的 "
        "{count} 对，供你自己阅读；用 --threshold 和 --characters 仍可标记。",
    "No pair is flagged in {assignments}: their code is too short to tell a copy from "
    "students who wrote it alone. python -m autograder similarity ID still lists their most "
    "alike pairs for you to read.":
        "{assignments} 中没有标记任何一对：这些作业的代码太短，分不清是抄袭还是各自独立写出的。"
        "python -m autograder similarity ID 仍会列出其中最相似的几对供你阅读。",
    "--characters {value}: give a number of characters, 0 or more":
        "--characters {value}：请给出字符数，0 或更多",
    "{share} or more of one notebook's own code in common with the other":
        "一方自己的代码有 {share} 或更多与另一方相同",
    "{share} or more of one notebook's own code, and {characters} characters or more, in "
    "common with the other":
        "一方自己的代码有 {share} 或更多、且两者有 {characters} 个或更多字符与另一方相同",
    "--threshold {value}: give a share above 0 and at most 1, such as 0.5":
        "--threshold {value}：请给出大于 0、不超过 1 的比例，例如 0.5",
    "--common {value}: give a number of notebooks, 1 or more":
        "--common {value}：请给出笔记本的个数，至少为 1",
    # The similarity report's pages and the class report's section on it
    # (autograder/outputs/similarity_page.py, similarity_report.py)
    "cell {number}": "单元格 {number}",
    "Only the students' own code is compared: the release's code, the helper cell and the "
    "locked cells never count. Names the student chose, comments, blank lines and the order "
    "of functions change nothing; a passage found in more than {common} notebooks is the "
    "course's and is not marked.":
        "只比较学生自己的代码：发布版的代码、辅助单元格和只读单元格一律不算。学生自己取的名字、"
        "注释、空行和函数的先后顺序都不影响结果；在超过 {common} 个笔记本中出现的片段属于课程"
        "本身，不作标记。",
    "{share_first} of {first}'s own code matches {second}'s, and {share_second} of {second}'s "
    "matches {first}'s ({matched} characters of code in common, names and layout aside).":
        "{first} 自己的代码有 {share_first} 与 {second} 的相同，{second} 的代码有 "
        "{share_second} 与 {first} 的相同（不计名字和排版，相同的代码共 {matched} 个字符）。",
    "all pairs of {assignment}": "{assignment} 的全部配对",
    "Similar code in {assignment}: {first} and {second}":
        "{assignment} 中的相似代码：{first} 和 {second}",
    "side by side": "并排对照",
    "similarity": "相似度",
    "each one's share": "各自的占比",
    "characters in common": "相同的字符数",
    "page": "页面",
    "{notebooks} compared; {flagged} flagged, with {flag}.":
        "比较了 {notebooks}；标记了 {flagged}，标准是{flag}。",
    "No code of their own: {students}": "没有自己的代码：{students}",
    "Not compared, their notebook was not read: {students}":
        "未参与比较，其笔记本未被读取：{students}",
    "similarity {assignment}: {student} not compared: {why}":
        "相似度 {assignment}：{student} 未参与比较：{why}",
    "its code cannot be read for comparison ({error})": "其代码无法读取以供比较（{error}）",
    "Similar code in {assignment}": "{assignment} 中的相似代码",
    "Similar code": "相似代码",
    "The pairs of notebooks that their assignment's similarity check flags, the most alike "
    "first, at most {top} per assignment. A pair is flagged when one notebook has at least "
    "the assignment's share of its own code in common with the other, and the two have at "
    "least its number of characters of code in common (names, comments and layout do not "
    "count). python -m autograder similarity ID shows an assignment's thresholds, lists every "
    "pair and writes a page for each.":
        "各次作业标记出的笔记本配对：一方自己的代码与另一方相同的比例，以及两者相同代码的字符数，"
        "都达到该作业设定的标准（不计名字、注释和排版）；最相似的排在前面，每次作业最多列出 "
        "{top} 对。python -m autograder similarity ID 会说明该作业的标准，列出全部配对，"
        "并为每一对写出页面。",
    # Who may read the course (autograder/course/access.py, build/course_folder.py)
    "every user of this machine": "本机的每个用户",
    "the group {group} ({users})": "用户组 {group}（{users}）",
    "{path} can be read by {who}: it holds the course's solutions, checks, grades or students' "
    "work":
        "{who}都能读取 {path}：其中有课程的答案、检查、成绩或学生的作业",
    "close it with `python -m autograder secure` (or, knowingly, set c.Course.shared_readable = "
    "True in nbgrader_config.py)":
        "请用 `python -m autograder secure` 把它关上（或在明知后果的情况下，在 "
        "nbgrader_config.py 里设 c.Course.shared_readable = True）",
    "{root} is now {mode:o}{group}: no other user of this machine reaches what it holds "
    "({count} modes changed)":
        "{root} 现在的权限是 {mode:o}{group}：本机的其他用户都碰不到其中的内容"
        "（改了 {count} 处权限）",
    "{root} is now {mode:o}{group}: no other user of this machine reaches what it holds "
    "(1 mode changed)":
        "{root} 现在的权限是 {mode:o}{group}：本机的其他用户都碰不到其中的内容"
        "（改了 1 处权限）",
    "{root} was already {mode:o}{group}: no other user of this machine reaches what it holds; "
    "nothing changed":
        "{root} 原本就是 {mode:o}{group}：本机的其他用户都碰不到其中的内容；什么也没改",
    " (group {group})": "（用户组 {group}）",
    "{config}: c.Course.group = {group!r} written, so that grade and serve accept the group's "
    "access":
        "{config}：已写入 c.Course.group = {group!r}，grade 和 serve 由此接受该用户组的访问权限",
    "there is no group {group!r} on this machine: make it first (`groupadd {group}`, then "
    "`usermod -aG {group} USER` for each TA)":
        "本机没有用户组 {group!r}：请先建立它（`groupadd {group}`，再为每位助教运行 "
        "`usermod -aG {group} USER`）",
    # update (course/kit_update.py)
    "the same as the kit's": "与本套件的相同",
    "newer in the kit": "本套件中的较新",
    "new in the kit": "本套件中新增",
    "changed in the course (the kit's is as init copied it)":
        "在课程中改动过（本套件的仍是 init 复制时的样子）",
    "changed in the course, and mended in the kit since init copied it":
        "在课程中改动过，而 init 复制之后本套件也修补了它",
    "deleted in the course": "已在课程中删除",
    "--to {path}: the command writes a file there, and {path} is no file (a pipe, a device, a "
    "folder, or - ); give a file's path, then read that file (`cat grades.csv`)":
        "--to {path}：命令要在那里写一个文件，而 {path} 不是文件（是管道、设备、文件夹或 -）；"
        "请给出一个文件路径，再读取那个文件（`cat grades.csv`）",
    "assignments/{id}/ has no notebook.py, so no command can build or grade {id}: put it back "
    "(one of the kit's: `{kit} update {id} --apply --take assignments/{id}/notebook.py`), or "
    "remove the folder":
        "assignments/{id}/ 里没有 notebook.py，所以任何命令都无法构建或批改 {id}：请把它放回去"
        "（本套件的作业：`{kit} update {id} --apply --take assignments/{id}/notebook.py`），"
        "或删除这个文件夹",
    "deleted in the course, and mended in the kit since init copied it":
        "已在课程中删除，而 init 复制之后本套件修补了它",
    "not the kit's (no record tells what init copied, and no kit had it so)":
        "与本套件的不同（没有记录说明 init 复制的是什么，也没有哪一版套件是这样的）",
    "the kit's {path} cannot be read ({error}): install the kit again (`{pip} install "
    "--force-reinstall --no-deps` with the wheel or the folder you installed it from)":
        "本套件的 {path} 无法读取（{error}）：请重新安装本套件（用你当初安装它的 wheel 或文件夹"
        "运行 `{pip} install --force-reinstall --no-deps`）",
    "warning: the kit has no {path} (the versions of its files older kits wrote), so an older "
    "kit's file shows as not the kit's, and a later kit's as newer in this one: install the "
    "kit again (`{pip} install --force-reinstall --no-deps` with the wheel or the folder you "
    "installed it from)":
        "警告：本套件缺少 {path}（较早的套件写过的各版文件），因此较早套件的文件会显示为与本套件"
        "的不同，较晚套件的文件会显示为本套件中的较新：请重新安装本套件（用你当初安装它的 wheel "
        "或文件夹运行 `{pip} install --force-reinstall --no-deps`）",
    "{option} {path}: a later kit than this one wrote it; update it with that kit (this one "
    "knows only its own older file)":
        "{option} {path}：它是比本套件更晚的套件写的；请用那个套件来更新它（本套件只知道它自己"
        "较旧的那个文件）",
    "from a later kit than this one (update it with that kit)":
        "来自比本套件更晚的版本（请用那个版本的套件来更新它）",
    "not a table of paths and digests under \"files\"": "\"files\" 下不是路径与摘要的表",
    "not a list of paths under \"kept\"": "\"kept\" 下不是路径的列表",
    " (named with --keep: stays the course's own)": "（已用 --keep 指定：保留为课程自己的）",
    " (kept as the course's own by an earlier --keep)": "（先前的 --keep 已将其保留为课程自己的）",
    "stopped after taking {count} of {all}; the next update finds them the same as the kit's":
        "取用了 {all}中的 {count} 个之后停了下来；下一次 update 会发现它们与本套件的相同",
    "{count} file": "{count} 个文件",
    "{count} files": "{count} 个文件",
    "not in the course (no record tells whether init copied it)":
        "课程中没有（没有记录说明 init 是否复制过它）",
    "the course holds none of the kit's assignments: nothing to compare":
        "课程中没有本套件的作业：没有可比较的内容",
    "{option} {path}: not in the course {root}": "{option} {path}：不在课程 {root} 之中",
    "  {state}: {path}": "  {state}：{path}",
    "    compare: diff {path} {kit}": "    比较：diff {path} {kit}",
    "{path} cannot be read ({error}): it records which files the course took from the kit; "
    "move it away and run `{kit} update --apply` to record them again (the kit's versions are "
    "told from yours by the kit's history, and each other file is asked of)":
        "无法读取 {path}（{error}）：它记录了课程从本套件取用了哪些文件；把它移开，再运行 "
        "`{kit} update --apply` 重新记录（本套件的各版文件会依据本套件的历史与你的文件区分开，"
        "其余的每个文件都会询问你）",
    "{id} is not one of the kit's assignments: update brings only the kit's files (the kit's: "
    "{ids})":
        "{id} 不是本套件的作业：update 只带来本套件的文件（本套件的作业：{ids}）",
    "the course did not take {id} from the kit (it has no {id}, or one of its own: neither "
    "init's record nor any kit holds a file of it as it is); to add the kit's, make a course "
    "with it (`{kit} init DIR {id}`) and copy its assignments/{id}/ folder":
        "课程没有从本套件取用 {id}（课程中没有 {id}，或者是课程自己的同名作业：init 的记录里"
        "没有它的文件，也没有哪一版套件有它现在这样的文件）；若要加入本套件的，请先用它建一个"
        "课程（`{kit} init DIR {id}`），再复制其中的 assignments/{id}/ 文件夹",
    "{option} {path}: not a file of the kit's assignments {ids} (give it as update lists it, "
    "such as assignments/{id}/checks.py)":
        "{option} {path}：不是本套件作业 {ids} 中的文件（请按 update 列出的写法给出，例如 "
        "assignments/{id}/checks.py）",
    "{path} is named with both --take and --keep: name it with one":
        "{path} 同时用 --take 和 --keep 指明了：请只用其中一个",
    "{path} is already the kit's: nothing to take or keep":
        "{path} 已经与本套件的相同：没有需要取用或保留的",
    "kept {path} deleted from the course: update asks again when the kit mends it":
        "已让 {path} 保持从课程中删除：本套件修补它时 update 会再次询问",
    "{id} cannot be built or graded without its {file}: write your own there, or take the "
    "kit's (--take {path})":
        "{id} 没有 {file} 就无法构建或评分：请在那里写你自己的，或者取本套件的（--take {path}）",
    "kept the course's {path} as its own: update asks again when the kit mends it":
        "已把课程的 {path} 保留为课程自己的：本套件修补它时 update 会再次询问",
    "{ids}: {same} of {files} the same as the kit's":
        "{ids}：{files}中有 {same} 个与本套件的相同",
    "{count} file would be taken from the kit: run `{command}` (each file replaced is kept "
    "first in .kit/replaced/)":
        "将从本套件取用 {count} 个文件：请运行 `{command}`（每个被替换的文件都先保存在 "
        ".kit/replaced/ 中）",
    "{count} files would be taken from the kit: run `{command}` (each file replaced is kept "
    "first in .kit/replaced/)":
        "将从本套件取用 {count} 个文件：请运行 `{command}`（每个被替换的文件都先保存在 "
        ".kit/replaced/ 中）",
    "{count} file would stay out of the course: run `{command}`":
        "将让 {count} 个文件继续不在课程中：请运行 `{command}`",
    "{count} files would stay out of the course: run `{command}`":
        "将让 {count} 个文件继续不在课程中：请运行 `{command}`",
    "{count} file the kit has is missing from the course and stays undecided until you name it "
    "with --take PATH (the kit's, put back) or --keep PATH (left out, until the kit mends it "
    "again)":
        "本套件有、课程里却缺少的 {count} 个文件，在你用 --take PATH（取本套件的，放回去）或 "
        "--keep PATH（继续不要，直到本套件再次修补它）指明之前尚未决定",
    "{count} files the kit has are missing from the course and stay undecided until you name "
    "each with --take PATH (the kit's, put back) or --keep PATH (left out, until the kit mends "
    "it again)":
        "本套件有、课程里却缺少的 {count} 个文件，在你用 --take PATH（取本套件的，放回去）或 "
        "--keep PATH（继续不要，直到本套件再次修补它）逐一指明之前尚未决定",
    "{count} file would be kept as the course's own: run `{command}`":
        "将把 {count} 个文件保留为课程自己的：请运行 `{command}`",
    "{count} files would be kept as the course's own: run `{command}`":
        "将把 {count} 个文件保留为课程自己的：请运行 `{command}`",
    "{count} file differs and stays undecided until you name it with --take PATH (the kit's) "
    "or --keep PATH (yours, until the kit mends it again); compare it with the kit's first: "
    "yours may hold your own changes":
        "{count} 个文件与本套件的不同，在你用 --take PATH（取本套件的）或 --keep PATH（保留你的，"
        "直到本套件再次修补它）指明之前尚未决定；请先与本套件的比较：你的文件里可能有你自己的改动",
    "{count} files differ and stay undecided until you name each with --take PATH (the kit's) "
    "or --keep PATH (yours, until the kit mends it again); compare each with the kit's first: "
    "yours may hold your own changes":
        "{count} 个文件与本套件的不同，在你用 --take PATH（取本套件的）或 --keep PATH（保留你的，"
        "直到本套件再次修补它）逐一指明之前尚未决定；请先逐一与本套件的比较：你的文件里可能有你"
        "自己的改动",
    "took the kit's {path}": "已取用本套件的 {path}",
    "the course's files it replaced are kept in {folder}": "被替换的课程文件保存在 {folder}",
    "{count} file taken from the kit": "从本套件取用了 {count} 个文件",
    "{count} files taken from the kit": "从本套件取用了 {count} 个文件",
    "nothing to take from the kit": "没有需要从本套件取用的文件",
    "the notebooks of {ids} changed: build them again (`{kit} build {ids}`) before releasing; "
    "students who fetched them keep the old text, and a release the gradebook recorded is "
    "then named by grade with how to record the new one":
        "{ids} 的笔记本变了：发布之前请重新构建（`{kit} build {ids}`）；已经取走它们的学生"
        "保留旧的文字，而成绩册记录过的发布版本会由 grade 指出，并说明如何记录新的版本",
    "then prove them: `{kit} validate {ids}`; the hidden checks taken apply at the next grade "
    "(`{kit} grade --force {ids}` regrades the notebooks graded before)":
        "然后验证它们：`{kit} validate {ids}`；取用的隐藏检查在下一次评分时生效"
        "（`{kit} grade --force {ids}` 会重新批改之前批改过的笔记本）",
    "note: this course has no record of the files init copied from the kit (made by an older "
    "kit), so a later kit's mended checks cannot be told from your own changes: `{kit} update` "
    "compares them, and `{kit} update --apply` records them":
        "注意：本课程没有 init 从本套件复制了哪些文件的记录（由较早的套件建立），因此分不清以后的"
        "套件修补过的检查和你自己的改动：`{kit} update` 会比较它们，`{kit} update --apply` "
        "会记录它们",
    "note: the kit has {count} newer file of {ids} (a mended check or text) that the course "
    "does not: `{kit} update` lists it and how to take it":
        "注意：本套件有 {ids} 的 {count} 个较新的文件（修补过的检查或文字），课程里还没有："
        "`{kit} update` 会列出它，并说明如何取用",
    "note: the kit has {count} newer files of {ids} (a mended check or text) that the course "
    "does not: `{kit} update` lists them and how to take them":
        "注意：本套件有 {ids} 的 {count} 个较新的文件（修补过的检查或文字），课程里还没有："
        "`{kit} update` 会列出它们，并说明如何取用",
    "note: {count} file of {ids} differs from the kit's and no record tells whether it is yours: "
    "`{kit} update` lists it, and --take or --keep decides":
        "注意：{ids} 有 {count} 个文件与本套件的不同，而没有记录说明它是否是你改的：`{kit} update` "
        "会列出它，由 --take 或 --keep 决定",
    "note: {count} files of {ids} differ from the kit's and no record tells whether they are "
    "yours: `{kit} update` lists them, and --take or --keep decides":
        "注意：{ids} 有 {count} 个文件与本套件的不同，而没有记录说明它们是否是你改的：`{kit} "
        "update` 会列出它们，由 --take 或 --keep 决定",
    # mutate (tools/mutations.py): its table and its refusals of a probes.py
    "PROBES maps a step's name to a function of a torch.Generator returning a list of runs, "
    "each calling(*arguments, **keywords) of autograder.checks.common (or a function of the "
    "step's callable): PROBES = {'STEP': lambda gen: [calling(randn(gen, 3, 4)), ...]}":
        "PROBES 把步骤名映射到一个接收 torch.Generator 的函数，该函数返回一组运行，每个运行是 "
        "autograder.checks.common 的 calling(*arguments, **keywords)（或步骤的可调用对象的"
        "函数）：PROBES = {'STEP': lambda gen: [calling(randn(gen, 3, 4)), ...]}",
    "{path} defines no PROBES; {format}": "{path} 没有定义 PROBES；{format}",
    "{path}: {name} is a {kind}, not a dict keyed by step name; {format}":
        "{path}：{name} 是 {kind}，不是以步骤名为键的字典；{format}",
    "{path}: {name}[{key!r}]: {id} has no step {key!r} (its steps: {steps}); key it by the "
    "name of a Step of checks.py":
        "{path}：{name}[{key!r}]：{id} 没有步骤 {key!r}（它的步骤：{steps}）；请用 checks.py "
        "中某个 Step 的名字作键",
    "{path}: HELPERS[{step!r}] must be a tuple of functions of reference.py mutated with the "
    "step, such as (reference.split_words,)":
        "{path}：HELPERS[{step!r}] 必须是 reference.py 中随该步骤一起变异的函数组成的元组，"
        "例如 (reference.split_words,)",
    "{path}: PROBES[{step!r}]{problem}; {format}": "{path}：PROBES[{step!r}]{problem}；{format}",
    " is a {kind}, not a function of gen": " 是 {kind}，不是 gen 的函数",
    "(gen) raised {kind}: {error}": "(gen) 抛出了 {kind}：{error}",
    "(gen) returned {kind} (empty), not a list of runs":
        "(gen) 返回了 {kind}（空的），不是一组运行",
    "(gen) returned {kind}, not a list of runs": "(gen) 返回了 {kind}，不是一组运行",
    "(gen)[{index}] is a {kind}, not a run: wrap each input in calling(...)":
        "(gen)[{index}] 是 {kind}，不是一个运行：请把每个输入包在 calling(...) 里",
    "(gen)[{index}]: the reference {step} raised TypeError on it (a call its signature does "
    "not take: check the arguments, or a run that is not a function of the step's callable)":
        "(gen)[{index}]：参考实现 {step} 在它上面抛出了 TypeError（其签名不接受这样的调用："
        "请检查参数，或者这个运行不是步骤的可调用对象的函数）",
    "(gen)[{index}] gave a function, not the step's output: write calling(arguments), not "
    "calling itself":
        "(gen)[{index}] 给出的是一个函数，不是步骤的输出：请写 calling(arguments)，而不是 "
        "calling 本身",
    "mutants of {count} step; seed {seed}; equivalence on {seeds} seeds of random cases and "
    "the probes; killed = found by all {draws} draws of the checks":
        "{count} 个步骤的变异体；种子 {seed}；等价性由 {seeds} 个种子的随机用例和探针判定；"
        "被发现 = 检查的全部 {draws} 次抽取都发现了它",
    "mutants of {count} steps; seed {seed}; equivalence on {seeds} seeds of random cases and "
    "the probes; killed = found by all {draws} draws of the checks":
        "{count} 个步骤的变异体；种子 {seed}；等价性由 {seeds} 个种子的随机用例和探针判定；"
        "被发现 = 检查的全部 {draws} 次抽取都发现了它",
    "mutants": "变异体",
    "equiv": "等价",
    "killed": "被发现",
    "survived": "存活",
    "kill rate": "发现率",
    "seconds": "秒",
    "  (no probes: equivalence on random cases only)": "  （没有探针：等价性只由随机用例判定）",
    "overall": "总计",
    "no step to mutate": "没有可以变异的步骤",
    "lowest step kill rate: {step} {rate:.1f}%": "发现率最低的步骤：{step} {rate:.1f}%",
    "equivalent on the cases and probes yet failing the checks: {count} (a probe is missing, "
    "or a check asks more than the reference does; --show-equivalent lists them)":
        "在用例和探针上等价却没通过检查的：{count} 个（缺少探针，或者某项检查要求的比参考实现"
        "更多；--show-equivalent 会列出它们）",
    "equivalent, dropped ({count}):": "等价，已剔除（{count} 个）：",
    "equivalent on the cases and probes yet failing the checks ({count}):":
        "在用例和探针上等价却没通过检查的（{count} 个）：",
    "survivors ({count}):": "存活的变异体（{count} 个）：",
}
