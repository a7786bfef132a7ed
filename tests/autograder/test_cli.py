"""The command line answers `--help` without importing the heavy modules (torch, nbgrader,
nbformat, matplotlib take seconds to import), and still reports the kit's errors as errors.

These are properties of what gets imported, not timings: each run is a fresh interpreter
under `python -X importtime`, which lists every module it imports on stderr.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import os
import re
import shlex
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.cli import main, parse, parser
from autograder.plumbing.errors import KitError
from autograder.plumbing.kit_command import USER_PATH, kit_command

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "nbgrader", "nbformat", "matplotlib", "numpy", "jupyter_client")


def subcommands():
    action = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def imported_modules(stderr):
    """The modules named by `-X importtime` lines: 'import time: self | cumulative | name'."""
    return {line.rsplit("|", 1)[1].strip() for line in stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2}


def run_help(*args):
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "autograder", *args,
                           "--help"], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args", [(), *((name,) for name in subcommands())],
                         ids=lambda args: " ".join(args) or "top level")
def test_help_imports_nothing_heavy(args):
    """Does `python -m autograder [COMMAND] --help` exit 0 with its usage, without importing
    torch, nbgrader, nbformat or matplotlib?"""
    result = run_help(*args)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.startswith(f"usage: {kit_command()}"), result.stdout[:500]
    modules = imported_modules(result.stderr)
    assert "autograder.cli" in modules  # the listing is real
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert not heavy, f"--help imported {heavy[:10]}"


def test_building_the_parser_imports_nothing_heavy():
    """After `import autograder.cli` and building the parser, is none of torch, nbgrader,
    nbformat or matplotlib in sys.modules?"""
    code = ("import sys, autograder.cli; autograder.cli.parser(); "
            f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"


def test_every_subcommand_is_listed_in_the_top_help():
    """Does the top-level help name every command?"""
    names = subcommands()
    assert {"build", "validate", "collect", "grade", "feedback", "export", "report",
            "demo"} <= set(names)
    text = parser().format_help()
    assert all(name in text for name in names)


@pytest.mark.parametrize("module, name", [
    ("autograder.build.authoring", "AuthoringError"),
    ("autograder.build", "BuildError"),
    ("autograder.outputs.collect", "CollectError"),
    ("autograder.grading.parallel", "GradeError"),
    ("autograder.course.directory", "NbgraderError"),
])
def test_the_kits_errors_are_kit_errors(module, name):
    """Is each error class the command line reports (exit 1, no traceback) a KitError?"""
    assert issubclass(getattr(importlib.import_module(module), name), KitError)


def test_a_kit_error_exits_1_with_its_message(tmp_path, capsys):
    """Does main() turn a kit error (no nbgrader_config.py in --root) into exit 1 and a
    one-line message, not a traceback?"""
    assert main(["--root", str(tmp_path), "grade"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "has no nbgrader_config.py" in err


def test_a_root_without_its_folder_is_refused_once(tmp_path, capsys, monkeypatch):
    """Does `--root` with no folder after it exit 2 with argparse's refusal said once, by the
    command line's own parser (its usage line)?"""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as end:
        main(["grade", "--root"])
    err = capsys.readouterr().err
    assert end.value.code == 2
    assert err.count("error:") == 1 and err.startswith(f"usage: {kit_command()}")


def test_ids_may_follow_options():
    """Are ids after an option taken as ids (`init DIR --language zh 08 09`, `grade --force
    01`), as the usage line suggests, while an unknown option is still refused?"""
    args = parse(["init", "course-zh", "--language", "zh", "01_a", "02_b"])
    assert (args.folder.name, args.language, args.ids) == ("course-zh", "zh", ["01_a", "02_b"])
    assert parse(["grade", "--force", "01_a"]).ids == ["01_a"]
    with pytest.raises(SystemExit):
        parse(["grade", "01_a", "--no-such-option"])


def test_an_unknown_option_shows_its_commands_usage(capsys):
    """Is `grade --bogus` refused with grade's own usage (its options listed), not the kit's
    list of commands, exit 2 as argparse's?"""
    with pytest.raises(SystemExit) as stopped:
        parse(["grade", "--bogus"])
    said = capsys.readouterr().err
    assert stopped.value.code == 2
    assert said.startswith("usage: ") and " grade" in said.splitlines()[0], said
    assert "--reseed" in said and "COMMAND" not in said, said  # grade's options, not the list
    assert said.rstrip().endswith("grade: error: unrecognized arguments: --bogus"), said


# --- What the instructor's console says, and init's closing lines ------------------------

CJK = re.compile(r"[\u3400-\u9fff\u3000-\u303f\uff00-\uffef]")
# Three English words in a row: a sentence, once what a console line rightly keeps as typed
# is set aside.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,;:'-]+[A-Za-z]+){2,}")
SET_ASIDE = [
    re.compile(r"`[^`\n]*`"),  # code in backticks
    re.compile(r"^\s+cd \S+$", re.MULTILINE),  # a command to paste
    re.compile(r"(?:\S*python\S*|attention-kit) -m (?:autograder|pip)[^\n，。；：（）()]*"),
    re.compile(r"nbgrader [a-z_]+"),  # nbgrader's own commands
    re.compile(r"(?<!\w)--?[a-z][\w-]*"),  # options
    re.compile(r"[!-~]*[/_.\d][!-~]*"),  # paths, file names, ids, numbers
    re.compile(r"\b[A-Z][A-Z_]+\b"),  # metavars (ID, DIR, COMMAND), CSV, HTML
    re.compile(r"\b(?:build|init|new|guide|mutate|validate|collect|grade|feedback|export|"
               r"report|demo|similarity|gradescope|regrade-check)\b"),  # the kit's commands, named
]
# Kit modules whose console texts go through `t`, and what each module's texts may be passed
# to `t` as (COUNTS: the progress bar's items).
CONSOLE_MODULES = ["cli.py", "engine/progress.py", "course/directory.py", "build/__init__.py",
                   "build/course_folder.py", "grading/parallel.py", "tools/validate.py",
                   "tools/scaffold.py", "course/deadlines.py", "engine/cluster.py",
                   "course/gradebook_guard.py", "course/ledger.py", "checks/audit.py",
                   "build/proof.py", "outputs/score_summary.py", "tools/remove.py",
                   "course/kit_update.py", "course/draw_keys.py", "checks/draws.py",
                   "build/translate.py", "build/printed_values.py", "course/ids.py",
                   "checks/loader.py", "build/authoring.py", "tools/mutations.py"]


def english_left(output):
    """Each line of `output` that still holds English: a run of three English words, or a
    word with no Chinese on its line."""
    problems = []
    for line in output.splitlines():
        kept = line
        for pattern in SET_ASIDE:
            kept = pattern.sub(" ", kept)
        if ENGLISH_RUN.search(kept) or (re.search(r"[A-Za-z]{2,}", kept)
                                        and not CJK.search(kept)):
            problems.append(line)
    return problems


def test_english_left_finds_english():
    """Does the console check catch an English sentence, a lone English line, and pass a
    Chinese line with its paths, ids and commands?"""
    assert english_left("graded 1, already graded 0")
    assert english_left("grades: g.csv")
    assert english_left("错误：the ids are 01_a")
    assert english_left("  --force               grade again what is already graded")
    assert not english_left("正在把 01_attention_by_hand 登记到成绩册（nbgrader "
                            "generate_assignment）\n  cd /tmp/x\n  /a b/python -m autograder "
                            "new 10_my_topic    （你自己的一次作业）")


def kit(*args, cwd, env=None, ok=True):
    """The real command line in a fresh interpreter: (exit code, stdout + stderr)."""
    result = subprocess.run([sys.executable, "-m", "autograder", *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=900)
    output = result.stdout + result.stderr
    assert (result.returncode == 0) == ok, output[-3000:]
    return output


def t_literals(path):
    """(line, text) of every literal text the module passes to `t` (both of
    `t("a" if x else "b")`) or to `counted` (its one and its many)."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = getattr(node.func, "id", None)
        given = node.args[:1] if name == "t" else node.args[1:3] if name == "counted" else []
        for first in given:
            for text in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):
                if isinstance(text, ast.Constant):
                    yield node.lineno, text.value


def fields(text):
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name)


@pytest.mark.parametrize("module", CONSOLE_MODULES)
def test_console_texts_have_chinese(module):
    """Has every text a console module passes to `t` a Chinese text with the same fields, and
    none a field named `text` (t's own argument, so t(..., text=...) raises a TypeError)?"""
    from autograder.course.kit_update import States
    from autograder.engine.progress import COUNTS
    from autograder.i18n import kit_catalog

    chinese = kit_catalog("zh")
    texts = list(t_literals(ROOT / "autograder" / module))
    if module == "engine/progress.py":
        texts += [(0, text) for text in COUNTS.values()]
    if module == "course/kit_update.py":
        texts += [(0, text) for name, text in vars(States).items() if not name.startswith("_")]
    assert texts
    missing = [f"line {line}: {text!r}" for line, text in texts
               if text not in chinese or fields(chinese[text]) != fields(text)
               or not CJK.search(chinese[text]) or "text" in fields(text)]
    assert not missing, "\n".join(missing)


def help_texts():
    """Every text of the command line's help: the description, each command's and option's."""
    top = parser()
    texts = []
    for command in [top, *subcommands_of(top).choices.values()]:
        texts += [action.help for action in command._actions
                  if action.help and action.help != argparse.SUPPRESS]
    texts += [action.help for action in subcommands_of(top)._choices_actions]
    return texts


def subcommands_of(top):
    return next(a for a in top._actions if isinstance(a, argparse._SubParsersAction))


def test_help_texts_have_chinese(monkeypatch):
    """Has every text of `--help` a Chinese text, none with a '%' argparse would take for a
    format, and has the description a Chinese one? (Read where PATH finds the kit's python and
    dask, so that the texts are as written.)"""
    from autograder.i18n import kit_catalog, language

    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}/usr/bin:/bin")
    monkeypatch.delenv(USER_PATH, raising=False)

    with language("zh"):
        assert CJK.search(parser().description) and "%" not in parser().description
    chinese = kit_catalog("zh")
    texts = help_texts()
    assert len(texts) > 30
    missing = [text[:70] for text in texts if text not in chinese
               or not CJK.search(chinese[text]) or "%" in chinese[text]]
    assert not missing, "\n".join(missing)


@pytest.fixture(scope="module")
def zh_console(tmp_path_factory):
    """The console of a Chinese course through a week: init, the help, a wrong option, build
    (typed in the assignment's folder),
    grade with nothing to grade, an unknown id, new (twice), update (a file of the course's
    own), grade a submission, grade again, validate, a wrong gradebook URL."""
    where = tmp_path_factory.mktemp("console")
    course = where / "course-zh"
    said = {"init": kit("init", str(course), "--language", "zh", "01_attention_by_hand",
                        cwd=where)}
    said["--help"] = kit("--help", cwd=course)
    said["grade --help"] = kit("grade", "--help", cwd=course)
    said["a wrong option"] = kit("grade", "--no-such-option", cwd=course, ok=False)
    # typed in the assignment's folder, whose notebook.py is no module jupyter's notebook
    said["build"] = kit("build", "01_attention_by_hand",
                        cwd=course / "assignments" / "01_attention_by_hand")
    said["grade, nothing submitted"] = kit("grade", cwd=course, ok=False)
    said["grade an unknown id"] = kit("grade", "99_nothing", cwd=course, ok=False)
    said["new"] = kit("new", "10_my_topic", cwd=course)
    said["new again"] = kit("new", "10_my_topic", cwd=course, ok=False)
    said["update"] = kit("update", cwd=course)
    said["update --help"] = kit("update", "--help", cwd=course)
    checks = course / "assignments" / "01_attention_by_hand" / "checks.py"
    own = checks.read_text(encoding="utf-8")
    checks.write_text(own + "# the instructor's\n", encoding="utf-8")
    said["update --apply, a file of the course's own"] = kit("update", "--apply", cwd=course)
    checks.write_text(own, encoding="utf-8")
    mine = course / "assignments" / "10_my_topic"
    (mine / "checks.py").rename(mine / "checks.kept")
    said["build, checks.py missing"] = kit("build", "10_my_topic", cwd=course, ok=False)
    (mine / "checks.kept").rename(mine / "checks.py")
    written = (mine / "notebook.py").read_text(encoding="utf-8")
    (mine / "notebook.py").write_text(written + "\n# %% nonsense\n", encoding="utf-8")
    said["build, an unknown cell marker"] = kit("build", "10_my_topic", cwd=course, ok=False)
    (mine / "notebook.py").write_text(written, encoding="utf-8")
    submitted = course / "submitted" / "ada" / "01_attention_by_hand"
    submitted.mkdir(parents=True)
    shutil.copy(course / "release" / "01_attention_by_hand" / "01_attention_by_hand.ipynb",
                submitted)
    said["grade"] = kit("grade", cwd=course)
    said["grade again"] = kit("grade", cwd=course)
    said["validate"] = kit("validate", "01_attention_by_hand", cwd=course)
    said["feedback"] = kit("feedback", cwd=course)
    said["feedback of a mistyped student"] = kit("feedback", "--student", "adaa", cwd=course,
                                                 ok=False)
    said["export"] = kit("export", "--to", "grades.csv", cwd=course)
    said["export to no folder"] = kit("export", "--to", "nowhere/grades.csv", cwd=course,
                                      ok=False)
    said["report"] = kit("report", "--to", "report.html", cwd=course)
    said["collect from nothing"] = kit("collect", "01_attention_by_hand", "--from",
                                       "missing.zip", cwd=course, ok=False)
    config = course / "nbgrader_config.py"
    kept = config.read_text(encoding="utf-8")
    config.write_text(kept + 'c.CourseDirectory.db_url = "postgres://kit@localhost/course"\n',
                      encoding="utf-8")
    said["grade, a gradebook URL SQLAlchemy refuses"] = kit("grade", cwd=course, ok=False)
    config.write_text(kept, encoding="utf-8")
    return said


def test_the_chinese_console_is_chinese(zh_console):
    """In a course whose nbgrader_config.py says c.Course.language = "zh", does every line
    init, the help, build, grade (its progress bar, summary and errors), new and validate
    print say it in Chinese (paths, ids, options, metavars and commands aside)?"""
    problems = [f"{command}: {line}" for command, output in zh_console.items()
                for line in english_left(output)]
    assert not problems, "\n".join(problems)


def test_the_chinese_console_says_what_happened(zh_console):
    """Is the Chinese console the English one's content: counts, the progress bar, the ids?"""
    said = [
        ("init", "[1/1] 已发布 01_attention_by_hand"),
        ("grade an unknown id", "未知的作业 id '99_nothing'"),
        ("build, checks.py missing", "10_my_topic/checks.py：请在那里声明作业的隐藏检查"),
        ("build, an unknown cell marker", "未知的单元格标记 '# %% nonsense'"),
        ("grade", "1/1 个笔记本"),
        ("grade", "本次评分 1 份，此前已评分 0 份"),
        ("grade", "01_attention_by_hand（满分 10）：ada 0"),  # the score summary
        ("grade again", "1 个笔记本已经评过分"),
        ("validate", "验证通过：01_attention_by_hand"),
        ("a wrong option", "无法识别的参数：--no-such-option"),
        ("build", "[1/1] 已构建 01_attention_by_hand"),
        ("update", "个与本套件的相同"),
        ("update --apply, a file of the course's own",
         "在课程中改动过（本套件的仍是 init 复制时的样子）：assignments/01_attention_by_hand/"
         "checks.py"),
        ("feedback", "反馈 01_attention_by_hand：feedback/ 中共 1 个页面"),
        ("export", "成绩：grades.csv"),
        ("export to no folder", "没有这个文件夹"),
        ("collect from nothing", "missing.zip：没有这个文件或文件夹"),
        ("grade, a gradebook URL SQLAlchemy refuses",
         "错误：nbgrader_config.py 中的 c.CourseDirectory.db_url"),
    ]
    assert [(command, text) for command, text in said if text not in zh_console[command]] == []
    assert zh_console["--help"].startswith(f"用法：{kit_command()}")


def test_the_english_console_is_unchanged(tmp_path):
    """In an English course, does grade still print its summary in the kit's English words?"""
    kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path)
    said = kit("grade", cwd=tmp_path / "course", ok=False)
    assert "graded 0, already graded 0, not graded 0, inputs refused 0, graded with " \
        "warnings 0" in said
    assert not CJK.search(said)


def test_init_names_the_python_that_ran_it(tmp_path):
    """When `python` on PATH is not the kit's interpreter, do init's closing lines name the
    one that ran it, so that the lines pasted into a shell run the kit?"""
    env = {**os.environ, "PATH": "/usr/bin:/bin"}  # the kit's python is not on it
    said = kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path, env=env)
    commands = [line.split("    ")[0].strip() for line in said.splitlines()
                if line.startswith("  ")]
    assert commands[1].startswith(f"{shlex.quote(sys.executable)} -m autograder new "), said
    pasted = subprocess.run(["bash", "-c", " && ".join(commands[:2])], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert pasted.returncode == 0, pasted.stderr[-2000:]
    assert (tmp_path / "course" / "assignments" / "10_my_topic" / "notebook.py").exists()


@pytest.mark.parametrize("command", ["grade", "feedback", "report", "validate", "build",
                                     "mutate"])
def test_a_wrong_id_is_refused_before_anything_heavy_is_imported(command):
    """Is a wrong assignment id refused (exit 1, the known ids named) before the command
    imports torch, nbgrader or dask (seconds of imports before a one-line refusal)?"""
    probe = ("import sys\nfrom autograder.cli import main\n"
             f"code = main(['--root', {str(ROOT)!r}, {command!r}, '99_nothing'])\n"
             "heavy = sorted(m for m in ('torch', 'nbgrader', 'distributed', 'nbformat')"
             " if m in sys.modules)\n"
             "print(code, heavy)\n")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=120, cwd=ROOT)
    assert result.stdout.strip() == "1 []", result.stdout + result.stderr
    assert "unknown assignment id '99_nothing'" in result.stderr
    assert "01_attention_by_hand" in result.stderr


# --- The course root, found as git finds its repository ----------------------------------

def test_the_course_is_found_in_the_folders_above(tmp_path):
    """Run from a subfolder of a course, does a command work on that course (`new` writes
    into its assignments/), and does --root still win?"""
    kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path)
    deep = tmp_path / "course" / "notes" / "week1"
    deep.mkdir(parents=True)
    kit("new", "10_from_below", cwd=deep)
    assert (tmp_path / "course" / "assignments" / "10_from_below" / "notebook.py").exists()
    assert not (deep / "assignments").exists()
    said = kit("--root", str(deep), "new", "11_here", cwd=deep, ok=False)
    assert f"{deep} has no nbgrader_config.py:" in said


def test_a_command_typed_in_an_assignment_folder_linked_into_the_course_finds_it(tmp_path):
    """In an assignment folder that is a link into the course (the folder itself elsewhere),
    does a command find the course as the shell names the folder ($PWD), where the system's
    current folder is the link's target, outside any course; and does a $PWD that names
    another folder count for nothing?"""
    kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path)
    kit("new", "10_linked", cwd=tmp_path / "course")
    linked = tmp_path / "course" / "assignments" / "10_linked"
    elsewhere = tmp_path / "elsewhere"
    linked.rename(elsewhere)
    linked.symlink_to(elsewhere)
    said = kit("build", "10_linked", cwd=linked, env={**os.environ, "PWD": str(linked)})
    assert "built 10_linked" in said, said
    assert (tmp_path / "course" / "release" / "10_linked").is_dir()
    said = kit("build", "10_linked", cwd=linked, ok=False,
               env={**os.environ, "PWD": str(tmp_path / "course")})
    assert "nbgrader_config.py" in said, said  # the target's folder: in no course, said so


def test_an_assignment_folder_without_its_notebook_is_named_with_the_fix(tmp_path):
    """An assignment folder whose notebook.py is gone: does `build ID` name that (not an
    "unknown id"), with how to put it back, and does `build` of every assignment build the
    others and say it last, where it used to pass over it in silence?"""
    kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path)
    course = tmp_path / "course"
    for assignment_id in ("10_kept", "11_lost"):
        kit("new", assignment_id, cwd=course)
    (course / "assignments" / "11_lost" / "notebook.py").unlink()
    said = kit("build", "11_lost", cwd=course, ok=False)
    assert "assignments/11_lost/ has no notebook.py" in said and "unknown" not in said, said
    assert "update 11_lost --apply --take assignments/11_lost/notebook.py" in said, said
    said = kit("build", cwd=course)
    assert "built 10_kept" in said, said
    assert said.rstrip().splitlines()[-1].startswith("warning: assignments/11_lost/"), said


def test_a_destination_that_is_no_file_is_refused_before_anything_is_written(tmp_path):
    """Do `export --to -`, `export --to /dev/null` (a device) and `report --to` a folder end
    with an error naming the path and the fix, where /dev/stdout gave a traceback and - wrote
    a file named -?"""
    kit("init", str(tmp_path / "course"), "--empty", cwd=tmp_path)
    course = tmp_path / "course"
    for command in (("export", "--to", "-"), ("export", "--to", os.devnull),
                    ("report", "--to", str(tmp_path))):
        said = kit(*command, cwd=course, ok=False)
        assert f"--to {command[-1]}: the command writes a file there" in said, said
        assert "Traceback" not in said, said
    assert not (course / "-").exists()


def test_typed_paths_stay_relative_to_where_you_are(tmp_path, monkeypatch):
    """From a subfolder, is a path the user types taken from that subfolder, while the
    command runs in the course root (so report.html and similarity/ land there by default)?"""
    (tmp_path / "nbgrader_config.py").write_text("")
    sub = tmp_path / "sub"
    sub.mkdir()
    monkeypatch.chdir(sub)
    from autograder.cli import locate

    args = locate(parse(["export", "--to", "grades.csv"]))
    assert (args.root, args.to, Path.cwd()) == (tmp_path, sub / "grades.csv", tmp_path)
    monkeypatch.chdir(sub)
    args = locate(parse(["--root", str(tmp_path), "report"]))
    assert (args.root, args.to, Path.cwd()) == (tmp_path, None, sub)


def test_not_a_course_says_how_to_get_the_config_back(tmp_path, capsys):
    """In a folder with no course around it, does the error say that neither it nor a folder
    above is a course, and name both ways on: init DIR and init --config-only DIR?"""
    from autograder.cli import locate

    args = locate(parse(["grade"]), here=tmp_path)
    with pytest.raises(KitError) as error:
        from autograder.cli import run

        run(args)
    said = str(error.value)
    assert "nor has any folder above it" in said
    assert "python -m autograder init DIR" in said
    assert "python -m autograder init --config-only DIR" in said


EARLY_STARTS = """
import multiprocessing.forkserver, sys
from pathlib import Path
from autograder.cli import start_embedded_early
from autograder.sandbox import template_start
start_embedded_early(Path(sys.argv[1]), sys.argv[2:], 2)
print(sorted(template_start._early), sorted(template_start._early_pools),
      multiprocessing.forkserver._forkserver._forkserver_pid is not None,
      "nbgrader.api" in sys.modules)
"""


@pytest.mark.parametrize("scheduler", [False, True])
def test_grade_starts_early_only_what_its_embedded_cluster_takes(tmp_path, scheduler):
    """Does grade start the kernel template early for one student, and the fork server and
    the pool of templates for a class, but none of them when the course grades on a
    scheduler of its own (c.Cluster.scheduler), whose workers have their own? And does it
    read the course's config for that without importing nbgrader (0.4 s)?"""
    (tmp_path / "nbgrader_config.py").write_text(
        'c = get_config()\nc.GradeInSandbox.isolation = "limits"\n'
        + ('c.Cluster.scheduler = "tcp://127.0.0.1:1"\n' if scheduler else ""))

    def started(*students):
        done = subprocess.run([sys.executable, "-c", EARLY_STARTS, str(tmp_path), *students],
                              capture_output=True, text=True, timeout=120, check=True)
        return done.stdout.strip()

    if scheduler:
        assert started("s1") == started() == "[] [] False False"
    else:
        assert started("s1") == "['limits'] [] False False"
        assert started() == "[] ['limits'] True False"


def test_help_is_wrapped_by_the_columns_a_line_takes():
    """Does a help text mixing Chinese and English wrap into lines no wider than the
    terminal (a Chinese character takes two columns), losing no character, breaking no
    Latin word and starting no line with closing punctuation?"""
    from autograder.cli import display_width, display_wrap

    text = ("只把 nbgrader_config.py 写进 DIR，即一个丢了它的现有课程文件夹（本套件的设置和"
            "默认值；DIR 里别的东西一概不动）；语言取 --language，否则取 source/ 中记录的语言")
    lines = display_wrap(text, 40)
    assert all(display_width(line) <= 40 for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    words = {w for w in text.split() if w.isascii()}
    assert words <= {w for line in lines for w in line.split()}
    assert display_wrap("an English line of words", 10) == ["an English", "line of", "words"]
    command = "先用 `dask worker tcp://HOST:PORT --nthreads 1` 启动"
    assert "`dask worker tcp://HOST:PORT --nthreads 1`" in display_wrap(command, 20)
    for width in range(8, 30):  # no line starts with closing punctuation, wherever it falls
        wrapped = display_wrap("默认：按 nbgrader_config.py）；否则：隐含 --force）：都是", width)
        assert not [line for line in wrapped if line[0] in "）：；"], (width, wrapped)


def test_a_gradebook_nbgrader_made_in_a_subfolder_is_said(tmp_path, capsys):
    """nbgrader run in source/ makes a gradebook there and records into it: does a course
    command say so, naming the file and the course's own gradebook, and leave it be?"""
    from autograder.cli import say_stray_gradebooks

    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    (tmp_path / "gradebook.db").write_bytes(b"the course's")
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "gradebook.db").write_bytes(b"a stray one")
    (tmp_path / ".kit").mkdir()
    (tmp_path / ".kit" / "gradebook.db").write_bytes(b"the kit's own scratch")
    say_stray_gradebooks(tmp_path)
    said = capsys.readouterr().err
    assert f"{tmp_path / 'source' / 'gradebook.db'} is a second gradebook" in said
    assert ".kit" not in said and said.count("second gradebook") == 1
    assert (tmp_path / "source" / "gradebook.db").read_bytes() == b"a stray one"


def test_a_root_that_is_no_folder_is_said_so(tmp_path, capsys, monkeypatch):
    """Does `--root` naming a folder that does not exist (a typo) say there is no such folder,
    exit 1, rather than that it has no nbgrader_config.py?"""
    monkeypatch.chdir(tmp_path)
    assert main(["--root", "my-cours", "grade"]) == 1
    err = capsys.readouterr().err
    assert "my-cours: no such folder" in err and "nbgrader_config.py" not in err


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="a read-only mount of the course needs root (unshare --mount)")
def test_a_course_the_command_cannot_write_is_one_line_not_a_traceback(tmp_path):
    """On a course folder mounted read-only (as a folder of another user's, the file system
    refuses the write), do grade, feedback and report each exit 1 with one line that names
    the file and what to do, and no traceback?"""
    kit("init", "course", "01_attention_by_hand", cwd=tmp_path)
    course = tmp_path / "course"
    (course / "gradebook.db").unlink()  # each command must make it: a write, refused
    for command in ("grade", "feedback", "report"):
        script = (f"mount --bind -o ro {shlex.quote(str(course))} {shlex.quote(str(course))} "
                  f"&& cd {shlex.quote(str(course))} && exec {shlex.quote(sys.executable)} -m "
                  f"autograder {command}")
        result = subprocess.run(["unshare", "--mount", "bash", "-c", script],
                                capture_output=True, text=True, timeout=600,
                                env={**os.environ, "KIT_NO_SERVE": "1"})
        said = result.stdout + result.stderr
        assert result.returncode == 1, said[-3000:]
        assert "Traceback" not in said, said[-3000:]
        errors = [line for line in said.splitlines() if line.startswith("error: ")]
        assert len(errors) == 1 and str(course) in errors[0], said[-3000:]
        assert "read-only" in errors[0].lower() or "Read-only" in errors[0], errors[0]


HAND_IN = """import sys
from pathlib import Path
import nbformat
from autograder.tools import simulate
course, assignment = Path(sys.argv[1]), sys.argv[2]
release = nbformat.read(course / "release" / assignment / f"{assignment}.ipynb", 4)
source = nbformat.read(course / "source" / assignment / f"{assignment}.ipynb", 4)
for number in range(6):
    folder = course / "submitted" / f"s{number}" / assignment
    folder.mkdir(parents=True)
    nbformat.write(simulate.correct(release, source), folder / f"{assignment}.ipynb")
"""


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="a small disk for the course needs root (unshare --mount, tmpfs)")
def test_a_full_disk_is_one_line_and_grade_takes_up_after(tmp_path):
    """With the course on a disk left with 150 KB free (the gradebook's write then fails in
    SQLite, which nbgrader raises as an error of its own), does grade exit 1 with one line
    that names the course's folder, its free space and what to do, and no traceback? And
    once space is freed, does grade take up and grade every notebook?"""
    (tmp_path / "disk").mkdir()
    (tmp_path / "hand_in.py").write_text(HAND_IN)
    python, course = shlex.quote(sys.executable), "disk/course"
    script = "\n".join([
        "set -e", "mount -t tmpfs -o size=60M,mode=0700 tmpfs disk",
        f"{python} -m autograder init {course} 01_attention_by_hand > /dev/null",
        f"{python} hand_in.py {course} 01_attention_by_hand",
        "free=$(df --output=avail -k disk | tail -1)",
        "head -c $(( (free - 150) * 1024 )) /dev/zero > disk/filler || true",
        f"cd {course}", "set +e", f"{python} -m autograder grade --workers 1 2>&1",
        "echo \"first exit $?\"", "rm ../filler",
        f"{python} -m autograder grade --workers 1 2>&1", "echo \"second exit $?\""])
    result = subprocess.run(["unshare", "--mount", "bash", "-c", script], cwd=tmp_path,
                            capture_output=True, text=True, timeout=900,
                            env={**os.environ, "KIT_NO_SERVE": "1"})
    said = result.stdout + result.stderr
    first, _, second = said.partition("first exit")
    assert second.startswith(" 1\n"), said[-3000:]
    assert "Traceback" not in first and "Logging error" not in first, first[-3000:]
    errors = [line for line in first.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, first[-3000:]
    assert "the disk that holds" in errors[0] and "/disk/course is full (0 MB free)" in \
        errors[0] and "free some space on it" in errors[0], errors[0]
    assert "second exit 0" in second, second[-3000:]
    counts = re.search(r"graded (\d+), already graded (\d+), not graded 0", second)
    assert counts and int(counts[1]) + int(counts[2]) == 6, second[-3000:]


def test_sqlite_s_full_database_is_a_full_disk(tmp_path):
    """Is SQLite's "database or disk is full", as nbgrader raises it again (its InvalidEntry,
    raised while handling SQLAlchemy's error, itself from sqlite3's), read as a full disk, and
    another error of the database not?"""
    from nbgrader.api import InvalidEntry
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import OperationalError

    from autograder.cli import full_disk

    engine = create_engine(f"sqlite:///{tmp_path / 'gradebook.db'}")
    with engine.connect() as connection:
        connection.execute(text("CREATE TABLE grade (id INTEGER, note TEXT)"))
        connection.execute(text("PRAGMA max_page_count = 3"))  # the database may grow no more
        with pytest.raises(InvalidEntry) as raised:
            try:
                connection.execute(text("INSERT INTO grade VALUES (1, :note)"),
                                   {"note": "x" * 100_000})
            except OperationalError as error:
                raise InvalidEntry(*error.args)  # noqa: B904 - as nbgrader's api.py does
        with pytest.raises(OperationalError) as other:
            connection.execute(text("SELECT * FROM no_such_table"))
    assert "database or disk is full" in str(raised.value)
    assert full_disk(raised.value)
    assert not full_disk(other.value)


@pytest.mark.parametrize(("environ", "code"), [
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"), ({"LANGUAGE": "zh_CN:en"}, "zh"),
    ({"LANG": "de_DE.UTF-8"}, "en"), ({}, "en")])
def test_the_locale_names_the_language_where_no_course_does(environ, code):
    """Is the language of a locale read as gettext reads it (LC_ALL first, then LC_MESSAGES,
    LANGUAGE, LANG), Chinese for any zh_*, English for the rest?"""
    from autograder.i18n import locale_language

    assert locale_language(environ) == code


def test_help_outside_a_course_speaks_the_locale_s_language(tmp_path):
    """Outside any course, with LANG=zh_CN.UTF-8, are `--help` and a command's refusal in
    Chinese (a Chinese instructor's first look, before `init --language zh`)? And in English
    with LANG=C.UTF-8?"""
    chinese = {**os.environ, "LANG": "zh_CN.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    english = {**chinese, "LANG": "C.UTF-8"}
    assert kit("--help", cwd=tmp_path, env=chinese).startswith("用法：")
    assert "错误：" in kit("grade", cwd=tmp_path, env=chinese, ok=False)
    assert kit("--help", cwd=tmp_path, env=english).startswith("usage: ")
