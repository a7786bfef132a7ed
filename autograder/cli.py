"""The kit's command line: `python -m autograder COMMAND` (or `attention-kit COMMAND`)."""

from __future__ import annotations

# Only light modules here: `--help` must answer at once. What a command needs (torch,
# nbgrader, nbformat, matplotlib come with it) is imported in `run`, when the command runs.
import argparse
import errno
import os
import shutil
import signal
import sys
from contextlib import contextmanager
from pathlib import Path

from autograder.checks.loader import assignment_ids
from autograder.course.ids import check_ids, course_ids, without_notebook
from autograder.i18n import (
    DEFAULT,
    LANGUAGES,
    config_language,
    current,
    language,
    locale_language,
    os_reason,
    t,
)
from autograder.plumbing import private_api
from autograder.plumbing.course_root import course_root_of, typed_here
from autograder.plumbing.ctrl_c import interrupted, raised_again
from autograder.plumbing.errors import KitError
from autograder.plumbing.hash_seed import hash_as_kernels
from autograder.plumbing.kit_command import KIT, kit_command
from autograder.plumbing.quiet_imports import paused
from autograder.plumbing.terminal_width import display_width, wide
from autograder.plumbing.timeline import mark
from autograder.serve.commands import given_root, served_unparsed

DESCRIPTION = """\
Build, check and grade a course of Jupyter assignments with nbgrader: the self-attention
course this kit comes with, and the assignments you write yourself.

Run it in the course root, the folder holding nbgrader_config.py, or in any folder below it:
as git does, the kit finds the course in the folders above (--root names another). A
course is a folder you own: each assignment is
a folder of it, assignments/<id>/ (notebook.py, reference.py, checks.py), and the kit finds
them there. Writing your own: `python -m autograder guide`, or

  python -m autograder new 10_positions          a working assignment to edit into yours
  python -m autograder mutate 10_positions       how many wrong versions its checks catch

A typical week:

  python -m autograder build                     assignments/ -> source/ -> release/
  python -m autograder validate                  solutions earn full marks, stubs zero
  python -m autograder collect 01_attention_by_hand --from lms-export.zip
  python -m autograder grade --workers 2         autograde everything not graded yet
  python -m autograder grade --scheduler tcp://10.0.0.5:8786   ... on a dask cluster
  python -m autograder regrade-check 01_attention_by_hand   the same grades when graded again?
  python -m autograder feedback                  one HTML page per student and assignment
  python -m autograder export --to grades.csv    a row per student and assignment, totals
  python -m autograder export --format canvas    the file Canvas's grade import takes (or moodle)
  python -m autograder report --to report.html   plots: scores, steps, named mistakes
  python -m autograder similarity 01_attention_by_hand   pairs of alike code, side by side
  python -m autograder demo                      all of the above on a simulated class
  python -m autograder gradescope 01_attention_by_hand   the autograder zip for Gradescope
  python -m autograder remove 10_rope            out of the gradebook and the course, files kept

The repository's root is the English course. A course folder of your own, with the kit's
assignments (or none: --empty) in English or Simplified Chinese (notebooks, messages, feedback
and report; the same ids, points and checks):

  python -m autograder init ../course-zh --language zh
  python -m autograder init --config-only .      a lost nbgrader_config.py written back

nbgrader itself stays usable in the same folder: nbgrader generate_assignment, autograde,
generate_feedback and export read the same nbgrader_config.py. The kit keeps its own records
in .kit/ (what it graded, the inputs it refused, the secret each student's hidden cases are
drawn from: the same on every regrade) and never deletes a grade it did not make.

Exit codes: 0 when everything asked for was done; 1 when something needs you: an input was
refused, a notebook could not be graded, nothing was there to grade, validate found a fault,
or an error (one line, naming the file and the fix); 2 for a wrong command line; 130 when
interrupted (what was finished is kept).
"""


def positive(text):
    """An option's whole number above 0 (workers, seconds), else argparse's refusal saying so."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value <= 0:
        raise argparse.ArgumentTypeError(t("{value} is not a whole number above 0", value=text))
    return value


def description():
    """The help's description in the current language (zh_help.py holds the Chinese: a text
    this long is no catalog key)."""
    text = DESCRIPTION
    if current() == "zh":
        from autograder.i18n.zh_help import DESCRIPTION as text
    typed = kit_command()
    if typed == KIT:
        return text
    note = t("Here `python` is not the interpreter that runs the kit: in the commands below, "
             "type `{python}` where they say `python`.",
             python=typed.removesuffix(" -m autograder"))
    return "\n".join(display_wrap(note, 88)) + "\n\n" + text


def add_ids(command, what=None):
    command.add_argument("ids", nargs="*", metavar="ID",
                         help=what or t("assignment ids (all when none is given)"))


def add_students(command, what):
    command.add_argument("--student", dest="students", action="append", default=[],
                         metavar="ID", help=what)


def add_engine(command):
    """Where the per-notebook work runs: the embedded dask cluster or a running one."""
    command.add_argument("--workers", type=positive, default=os.cpu_count(),
                         help=t("worker processes of the embedded dask cluster, one notebook "
                         "each at a time (default: the number of cores)"))
    command.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                         help=t("run on a running dask cluster instead (its workers started "
                         "with `PYTHONHASHSEED=0 dask worker tcp://HOST:PORT --nthreads 1 "
                         "--preload autograder.engine.worker`; they need no course folder); "
                         "default: c.Cluster.scheduler of nbgrader_config.py, else the embedded "
                         "cluster"))


CLOSING = frozenset("）)】」』》〉：；，。、！？")  # never the first character of a line


def display_wrap(text, width):
    """`text` in lines of at most `width` columns, broken at a space or beside a wide
    character (Chinese breaks between any two characters), never inside a Latin word or a
    `code span` (a command to paste stays on one line), nor before closing punctuation."""
    tokens = []  # (token, a space before it)
    spaced = code = False
    for char in text:
        if code and tokens:
            tokens[-1][0] += char
            code = char != "`"
            continue
        if char == "`":
            code = True
        if char.isspace():
            spaced = True
        elif char in CLOSING and tokens and not spaced:
            tokens[-1][0] += char
        elif wide(char) or not tokens or tokens[-1][2] or spaced:
            tokens.append([char, spaced, wide(char)])
            spaced = False
        else:
            tokens[-1][0] += char
    lines, line = [], ""
    for token, space, _ in tokens:
        joined = line + (" " if space and line else "") + token
        if line and display_width(joined) > width:
            lines.append(line)
            line = token
        else:
            line = joined
    return [*lines, line] if line else lines


class WidthFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's help, wrapped by the columns a line takes (textwrap counts characters, so
    a Chinese help line ran to twice the terminal's width)."""

    def _split_lines(self, text, width):
        return display_wrap(" ".join(text.split()), width)


class KitParser(argparse.ArgumentParser):
    """The kit's parser and its commands' (add_subparsers makes them of this class)."""

    def __init__(self, *args, formatter_class=WidthFormatter, **kwargs):
        super().__init__(*args, formatter_class=formatter_class, **kwargs)


def command(commands, name, help):  # noqa: A002 - argparse's word
    """A command of the kit: `help` is its line in the list of commands, and opens its own
    --help too (argparse's description, which else listed the options alone), wrapped as
    argparse wraps (the kit's formatter keeps a description's lines as they are)."""
    width = max(shutil.get_terminal_size().columns - 2, 20)
    return commands.add_parser(name, help=help,
                               description="\n".join(display_wrap(help, width)))


def parser():
    top = KitParser(prog=kit_command(), description=description())
    top.add_argument("--root", type=Path, default=None,
                     help=t("the course root (default: the nearest folder holding "
                            "nbgrader_config.py, the current one or one above it, as git "
                            "finds its repository; paths you type stay relative to where you "
                            "are)"))
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    top.commands = commands  # a command's own parser, for its errors: commands.choices[name]

    cmd = command(commands, "build", help=t("prove each assignment (its checks pass the "
                              "reference, the reference passes its public tests), then render "
                              "source/ from assignments/ and release/ with nbgrader "
                              "generate_assignment"))
    add_ids(cmd)

    cmd = command(commands, "init", help=t("write a ready course folder in a language: "
                              "nbgrader_config.py, the kit's assignments (or none) in "
                              "assignments/, and source/ and release/ built from them"))
    cmd.add_argument("folder", type=Path, metavar="DIR", help=t("a new or empty folder"))
    add_ids(cmd, t("the kit's assignments to copy (all when none is given)"))
    cmd.add_argument("--language", default=None, choices=sorted(LANGUAGES),
                     help=t("the course's language: en (English, default) or zh (Simplified "
                     "Chinese): notebooks, messages, feedback and report"))
    cmd.add_argument("--empty", action="store_true", help=t("no assignment of the kit's: a "
                     "course of your own assignments only (add them with `new`)"))
    cmd.add_argument("--group", default=None, metavar="GROUP", help=t(
        "the Unix group of the course's TAs: the folder is made 0750 and that group's, "
        "instead of 0700, the instructor's alone"))
    cmd.add_argument("--config-only", action="store_true", help=t(
        "write only nbgrader_config.py into DIR, an existing course folder that lost it (the "
        "kit's settings and defaults; nothing else in DIR is touched, and an existing "
        "nbgrader_config.py is never replaced); the language is --language, else the one its "
        "source/ notebooks record they were built in (refused when none does). Then set again "
        "what you had changed (course id, gradebook URL, due dates)"))

    cmd = command(commands, "new", help=t("write a working assignment in assignments/ID/ "
                              "(one step: stub, public test, hidden checks with a document "
                              "value, random cases and a named mistake) to edit into your own"))
    cmd.add_argument("id", metavar="ID", help=t("the new assignment's id: two digits, an "
                     "underscore and lower-case words, such as 10_positions"))
    cmd.add_argument("--title", default=None, help=t("the notebook's title (default: from the id)"))

    cmd = command(commands, "update", help=t(
        "bring the kit's newer files of its assignments into this course (a mended rule or "
        "hidden check): lists each file that differs from the kit's; with --apply takes those "
        "still as init copied them, keeping every replaced file in .kit/replaced/"))
    add_ids(cmd, t("the kit's assignments of the course to compare (all when none is given)"))
    cmd.add_argument("--apply", action="store_true", help=t(
        "take the kit's files: those newer in the kit and those new in it; a file changed in "
        "the course is taken only when named with --take"))
    cmd.add_argument("--take", action="append", default=[], type=Path, metavar="PATH", help=t(
        "also take this file (as update lists it, such as assignments/06_scoring_functions/"
        "checks.py), though it was changed in the course or the course has no record of it; "
        "yours is kept in .kit/replaced/"))
    cmd.add_argument("--keep", action="append", default=[], type=Path, metavar="PATH", help=t(
        "keep the course's file as its own (it was changed in the course, or the course has no "
        "record of it): --apply then records it so and stops asking, until the kit mends the "
        "file again"))

    cmd = command(commands, "guide", help=t("print the guide to writing your own assignment "
                              "(the folder, the cell markers, the hidden checks, a worked "
                              "example), or another page of the documentation"))
    cmd.add_argument("page", nargs="?", default=None, metavar="PAGE", help=t(
        "the page to print instead, by its name or its last part: sandbox, lms, settings (every "
        "setting nbgrader_config.py can change), where-courses-run, ..."))
    cmd.add_argument("--list", action="store_true", help=t("list the pages, with their titles"))

    cmd = command(commands, "mutate", help=t("the mutation harness: make wrong versions of "
                              "each step's reference and count how many its hidden checks "
                              "catch (a benchmark of the checks, not of a student)"))
    add_ids(cmd)
    cmd.add_argument("--steps", nargs="+", metavar="NAME", default=None,
                     help=t("only these steps of the assignments"))
    cmd.add_argument("--limit", type=int, metavar="N", default=None,
                     help=t("at most N mutants per step, a sample drawn under --seed"))
    cmd.add_argument("--seed", type=int, default=0, help=t("seed of the checks' random cases"))
    cmd.add_argument("--show-equivalent", action="store_true",
                     help=t("also list the mutants dropped as equivalent to the reference"))

    cmd = command(commands, "validate", help=t("grade the solutions (full marks expected) and "
                              "the stubs (zero expected); exit 1 otherwise"))
    add_ids(cmd)
    cmd.add_argument("--workers", type=positive, default=None, help=t("parallel graders"))

    cmd = command(commands, "collect", help=t("copy notebooks from a folder or an LMS zip into "
                              "submitted/ (nbgrader zip_collect)"))
    cmd.add_argument("id", metavar="ID", help=t("the assignment the files belong to"))
    cmd.add_argument("--from", dest="source", type=Path, required=True,
                     help=t("a folder of notebooks or a zip file"))
    cmd.add_argument("--pattern", default=None, help=t("regular expression for file names with "
                     "groups student_id and file_id (default: FileNameCollectorPlugin.named_regexp "
                     "in nbgrader_config.py)"))

    cmd = command(commands, "grade", help=t("autograde submitted/ in parallel; a re-run skips "
                              "what is graded"))
    add_ids(cmd)
    add_engine(cmd)
    cmd.add_argument("--force", action="store_true", help=t("grade again what is already graded"))
    cmd.add_argument("--timeout", type=positive, default=None,
                     help=t("seconds a cell may run (default: nbgrader_config.py)"))
    add_students(cmd, t("grade only these students (an id or a glob such as 'a*'; repeat the "
                 "option for more); with --force, regrade them and print whose score changed"))
    cmd.add_argument("--reseed", action="store_true", help=t(
        "draw new hidden cases for every notebook graded (implies --force): each student's "
        "random cases are otherwise drawn from the course's secret (.kit/secret), the same "
        "on every regrade; the new draw is kept for each notebook, and later regrades draw it "
        "again"))

    cmd = command(commands, "regrade-check", help=t(
        "grade the graded notebooks of an assignment again, aside (the course is not "
        "written), and say for each student whether the score, the failing cases and the "
        "named mistakes are the same; exit 1 when any differs or could not be checked"))
    cmd.add_argument("id", metavar="ID", help=t("the assignment to check"))
    add_students(cmd, t("only these students (an id or a glob)"))
    add_engine(cmd)

    cmd = command(commands, "serve", help=t("feedback on submit: grade each submission of "
                              "the assignments in c.FeedbackOnSubmit.assignments as it lands "
                              "in nbgrader's exchange and release its feedback, on an engine "
                              "kept warm, until stopped (Ctrl-C or SIGTERM); a stop ends it "
                              "with 0, as a service ends, or 1 where a submission it took "
                              "could not be graded"))
    cmd.add_argument("--once", action="store_true", help=t("take what is in the exchange now, "
                     "then stop (for a timer such as cron instead of a service)"))

    cmd = command(commands, "feedback", help=t("one HTML page per student and assignment, "
                              "hidden tests removed; assignments with nothing graded are "
                              "skipped"))
    add_ids(cmd)
    add_students(cmd, t("only these students' pages (an id or a glob)"))
    add_engine(cmd)

    cmd = command(commands, "export", help=t("CSV: a row per student and assignment, totals; "
                              "or the file Canvas's or Moodle's grade import takes (--format)"))
    add_ids(cmd, t("only these assignments: their rows of the kit's CSV, their columns of "
                   "Canvas's or Moodle's file (all when none is given)"))
    cmd.add_argument("--format", default="kit", choices=["kit", "canvas", "moodle"],
                     help=t("kit (default): the kit's CSV. canvas: Canvas's grade import, "
                     "a student's row found by ID, their lms_user_id in the gradebook. moodle: "
                     "Moodle's, by Email address (map it to email). A cell: the points of "
                     "grades.csv, 0 if nothing was handed in; a student with a notebook not "
                     "graded yet is left out of the file (exit 1: an empty cell would clear "
                     "the LMS's grade); a student lacking the field stops it, nothing written "
                     "(`python -m autograder guide lms`)"))
    cmd.add_argument("--to", type=Path, default=None, metavar="FILE", help=t(
        "the file to write (default: grades.csv, canvas.csv or moodle.csv, after the format)"))

    cmd = command(commands, "report", help=t("self-contained HTML class report with plots"))
    add_ids(cmd)
    cmd.add_argument("--to", type=Path, default=None, metavar="FILE",
                     help=t("the page to write (default: report.html in the course root)"))

    cmd = command(commands, "similarity", help=t("the similarity report: the pairs of "
                              "notebooks whose students' own code is alike (names, comments, "
                              "blank lines and order aside), ranked, and a page per pair with "
                              "the two notebooks' code side by side, the shared passages "
                              "marked; the folder of each assignment's pages printed"))
    add_ids(cmd, t("assignment ids (all with notebooks handed in when none is given)"))
    cmd.add_argument("--to", type=Path, default=None, metavar="FOLDER",
                     help=t("where the pages go, a folder per assignment in it (default: "
                            "similarity, which the class report links to)"))
    cmd.add_argument("--threshold", type=float, metavar="SHARE",
                     help=t("flag a pair when one notebook has this share of its own code in "
                            "common with the other (default: the assignment's, SIMILARITY in "
                            "its checks.py, else 0.5)"))
    cmd.add_argument("--characters", type=int, metavar="N",
                     help=t("and when the two have N characters of code or more in common "
                            "(default: the assignment's, else 0)"))
    cmd.add_argument("--common", type=int, default=10, metavar="N",
                     help=t("a passage found in more than N notebooks is the course's, not a "
                            "copy (as MOSS's -m; default: 10)"))

    cmd = command(commands, "remove", help=t(
        "take an assignment out of the gradebook (nbgrader's own remove, as `nbgrader db "
        "assignment remove`) and out of the course: its folders (assignments/, source/, "
        "release/, each student's submitted/, autograded/ and feedback/) are moved, never "
        "deleted, under removed/ID/; refused while the gradebook holds its grades, unless "
        "--force"))
    cmd.add_argument("id", metavar="ID", help=t("the assignment to remove (an id of the "
                     "gradebook or of the course folder)"))
    cmd.add_argument("--force", action="store_true", help=t(
        "remove it even when the gradebook holds submissions of it: their grades, a TA's "
        "scores and comments among them, leave the gradebook with it (their files are kept "
        "under removed/ID/)"))

    cmd = command(commands, "secure", help=t(
        "close the course to the other users of this machine: its folder 0700 (0750 and the "
        "group's with --group, for TAs), nothing inside it left to other users; grade and "
        "serve refuse a course another user can read until it is closed"))
    cmd.add_argument("--group", default=None, metavar="GROUP", help=t(
        "the Unix group of the course's TAs, who may read it (default: c.Course.group)"))

    cmd = command(commands, "demo", help=t("a simulated class of 42 students through build, "
                              "collect, grade, feedback, export and report"))
    cmd.add_argument("--out", type=Path, default=Path("demo"), help=t(
        "the demo's own course folder (default: demo/ in the course); a folder holding files "
        "the demo did not make is refused, one a demo made is replaced"))
    cmd.add_argument("--workers", type=positive, default=os.cpu_count(),
                     help=t("worker processes of the embedded dask cluster, one notebook "
                            "each at a time (default: the number of cores)"))
    cmd.add_argument("--timeout", type=positive, default=10, help=t("seconds a cell may run"))

    cmd = command(commands, "gradescope", help=t("write the autograder zip of an assignment "
                              "for Gradescope: setup.sh, run_autograder, the kit and the "
                              "assignment; its run grades the student's upload with the same "
                              "checks and sandbox and writes results.json"))
    cmd.add_argument("id", metavar="ID", help=t("the assignment to grade on Gradescope"))
    cmd.add_argument("--to", type=Path, default=None,
                     help=t("the zip to write (default: ID-gradescope.zip here)"))
    cmd.add_argument("--visibility", default="visible",
                     choices=["visible", "after_due_date", "after_published", "hidden"],
                     help=t("when students see each step's score and verdict on Gradescope "
                            "(default: visible); every finding of a failed step is shown "
                            "after_published, integrity flags never"))
    cmd.add_argument("--isolation", default=None, choices=["full", "limits"],
                     help=t("the sandbox on Gradescope (default: the course's, full as root); "
                            "limits when Gradescope's container cannot make namespaces: "
                            "student code then runs as root beside the autograder, so use it "
                            "knowingly"))
    return top


class NotACourse(KitError):
    """The folder the command runs in is not a course."""


def course_language_at(root: Path):
    """c.Course.language of the course at `root`, read with traitlets alone (light: `--help`
    speaks it too); the user's locale's where there is no course (LANG=zh_CN.UTF-8), English
    where its config cannot be read (the command then says why)."""
    if not (root / "nbgrader_config.py").exists():
        return locale_language()
    from traitlets.config.loader import PyFileConfigLoader

    try:
        return config_language(PyFileConfigLoader("nbgrader_config.py",
                                                  path=str(root.resolve())).load_config())
    except Exception:  # the command itself reports a broken config, in English then
        return DEFAULT


def console_language(args):
    """The language the command speaks: init's --language, else the course's (for
    --config-only, the one its built notebooks record, as the config it writes)."""
    if args.command == "init":
        if args.language or not args.config_only:
            return args.language or DEFAULT
        from autograder.build.course_folder import written_language

        return written_language(args.folder) or DEFAULT
    if args.command in ("demo", "guide"):
        return DEFAULT  # the demo is the repository's English course; the guide is English
    return course_language_at(args.root)


def help_language(argv):
    """The language of the help and of argparse's refusals: the course's at --root (or the
    course this folder is in); outside a course, the user's locale's (LANG=zh_CN.UTF-8)."""
    return course_language_at(given_root(argv) or course_root_of(typed_here()) or Path.cwd())


ROOTLESS = ("init", "demo", "guide")  # commands that need no course around them
PATH_OPTIONS = ("folder", "source", "to", "out", "take", "keep")  # paths typed: relative to here


def locate(args, here=None):
    """Settle args.root: --root when given, else the nearest folder holding nbgrader_config.py
    from here up (as git finds its repository), else here. When the course was found above,
    the paths the user typed are made absolute from here and the command runs in the root, so
    its defaults (report.html, similarity/) land there as from the root; run in the root, or
    with --root, nothing moves and paths stay as typed."""
    typed = here or typed_here()  # through a link into the course, as the shell names it
    here = typed.resolve()
    args.here = here  # where the user typed it: the commands a command prints run there
    args.root_given = args.root is not None
    if args.root is None:
        found = None if args.command in ROOTLESS else course_root_of(typed)
        args.root = found or here
    args.root = args.root.resolve()
    if not args.root_given and args.root != here:
        for name in PATH_OPTIONS:
            value = getattr(args, name, None)
            if isinstance(value, Path) and not value.is_absolute():
                setattr(args, name, here / value)
            elif isinstance(value, list):  # an option given again and again (update --take)
                setattr(args, name, [here / v if isinstance(v, Path) and not v.is_absolute()
                                     else v for v in value])
        os.chdir(args.root)
    return args


@contextmanager
def argparse_in_course_language():
    """argparse's own words ("usage: ", "options", its refusals) through `t`: argparse looks
    each up with its module's `_` (gettext) when it prints."""
    if not private_api.applies("translated argparse"):
        yield  # argparse's own words, in English
        return
    before = argparse._
    argparse._ = t
    try:
        yield
    finally:
        argparse._ = before


def not_a_course(root, given):
    """Why `root` is no course, and the two ways on: a new course, or the config written back
    into a course folder that lost it."""
    if given and not root.is_dir():
        return t("{root}: no such folder; pass a course's folder to --root (or run inside "
                 "one)", root=root)
    where = (t("{root} has no nbgrader_config.py", root=root) if given else
             t("{root} has no nbgrader_config.py, nor has any folder above it", root=root))
    return where + t(": run inside a course folder or pass --root. A new course: `python -m "
                     "autograder init DIR`; a course folder whose nbgrader_config.py was lost "
                     "or deleted: `python -m autograder init --config-only DIR` writes it "
                     "back (nothing else is touched)")


def file_to_write(path):
    """`path` (--to), refused when it names no file one can write in place: `-`, a device or
    a pipe (/dev/stdout), a folder."""
    if path is not None and (str(path) == "-" or path.exists() and not path.is_file()):
        raise KitError(t("--to {path}: the command writes a file there, and {path} is no file "
                         "(a pipe, a device, a folder, or - ); give a file's path, then read "
                         "that file (`cat grades.csv`)", path=path))
    return path


def export(root, args):
    """The kit's CSV, or an LMS's import file (exit 1 while a notebook handed in awaits a
    grade)."""
    ids = check_ids(args.ids, course_ids(root)) if args.ids else None
    file_to_write(args.to)
    if args.format == "kit":
        from autograder.outputs.feedback import export_grades

        return 1 if export_grades(root, args.to or Path("grades.csv"), ids=ids) else 0
    from autograder.outputs.lms_export import export_lms

    return 1 if export_lms(root, args.format, args.to, ids) else 0


def start_embedded_early(root, students, workers):
    """What a grade's embedded cluster needs first, started before the command's own imports
    so that they run at once: for the notebooks of a few students (one is graded in this
    process) the kernel template; for a class the process its workers are forked from and
    the pool of templates they take, a copy for each of `workers` (all cores when None). Not
    when the course grades on a scheduler of its own (c.Cluster.scheduler)."""
    from autograder.course.config_file import course_config, isolation_of  # light: no nbgrader yet
    from autograder.sandbox import template_start

    try:
        config = course_config(root)
    except Exception:  # noqa: BLE001 - any error of the course's config is grading's to say
        return
    setting = isolation_of(config)
    if config.Cluster.get("scheduler"):
        return
    if students:
        template_start.start_early_for(setting, few_kernels=True)
    else:
        from autograder.engine.fork_server import start_early

        start_early()
        template_start.start_pool_early(setting, max(1, workers or os.cpu_count() or 1),
                                        root / "grade.log")


def start_page_workers_early(root, ids, workers, warm):
    """For a class's feedback pages on the embedded cluster, the process its workers are
    forked from, importing what a page needs (no torch) while this command imports the rest.
    Not when the course grades on a scheduler of its own, nor when the autograded notebooks of
    `ids` are too few to be worth worker processes (engine/run_size.py, `warm` as there;
    feedback decides again on the students the gradebook has)."""
    from autograder.course.config_file import course_config  # light: no nbgrader yet
    from autograder.engine.run_size import pages_in_this_process

    try:
        if course_config(root).Cluster.get("scheduler"):
            return
    except Exception:  # noqa: BLE001 - any error of the course's config is feedback's to say
        return
    counts = [len(list((root / "autograded").glob(f"*/{i}/{i}.ipynb"))) for i in ids]
    if pages_in_this_process(counts, workers, warm):
        return
    from autograder.engine.fork_server import PAGE_IMPORTS, start_early

    start_early(PAGE_IMPORTS)


# The commands that read what the course holds, and those that write grades or students' work
# for the instructor alone (an export, a report, similarity pages, a Gradescope zip: the modes
# of the files inside it are the zip's own, set by gradescope/package.py).
READS_COURSE = ("build", "grade", "serve", "feedback", "export", "report")
WRITES_FOR_INSTRUCTOR = ("export", "report", "similarity", "gradescope")  # the zip: the secret


def course_group(root):
    """The course's TA group (c.Course.group), "" when none or when the config does not read."""
    from autograder.course.access import settings
    from autograder.course.config_file import course_config  # light: no nbgrader

    try:
        return settings(course_config(root))[0]
    except Exception:  # noqa: BLE001 - a config that does not read is the command's to say
        return ""


def check_access(root, refuse):
    """Say where users besides the instructor (and the TA group) can reach the course; with
    `refuse` (grade, serve), refuse it unless c.Course.shared_readable opens it knowingly.
    Returns the course's TA group ("" when none or when the config does not read)."""
    from autograder.course.access import opening_lines, openings, settings
    from autograder.course.config_file import course_config, db_url, sqlite_file  # light

    try:
        group, shared = settings(course_config(root))
        found = openings(root, group, sqlite_file(db_url(root)))
    except Exception:  # noqa: BLE001 - a config that does not read is the command's to say
        return ""
    if not found:
        return group
    lines = opening_lines(found)
    if refuse and not shared:
        raise KitError("\n".join(lines))
    if not shared:
        for line in lines:
            print(t("warning: {message}", message=line), file=sys.stderr)
    return group


def say_grade_running(root):
    """A grade running in the course meanwhile: what it has not graded yet is not read."""
    from autograder.course.ledger import grade_running  # light: no nbgrader

    holder = grade_running(root)
    if holder:
        print(t("warning: a grade is running in this course ({holder}): the notebooks it has "
                "not graded yet are read as they were before it; run this again once it "
                "ends", holder=holder), file=sys.stderr)


def say_stray_gradebooks(root):
    """A gradebook nbgrader made in a subfolder holds grades the course's does not: say so."""
    from autograder.course.config_file import db_url, stray_gradebooks  # light: no nbgrader

    try:
        stray = stray_gradebooks(root)
    except Exception:  # noqa: BLE001 - a config that does not read is the command's to say
        return
    for path in stray:
        print(t("warning: {path} is a second gradebook: nbgrader run in {folder} made it "
                "there and recorded into it; this course's is {own}. Run nbgrader in the "
                "course root ({root}), and move that file away once you have read what it "
                "holds", path=path, folder=path.parent, own=db_url(root), root=root),
              file=sys.stderr)


def run(args):
    root = args.root.resolve()
    if args.command == "guide":
        from autograder.tools.guide import AUTHORING, find_page, page_list, page_text

        print(page_list() if args.list else page_text(find_page(args.page or AUTHORING)))
        return 0
    if args.command not in ("demo", "init") and not (root / "nbgrader_config.py").exists():
        raise NotACourse(not_a_course(root, getattr(args, "root_given", True)))
    group = None
    if args.command in READS_COURSE and args.command != "grade":  # grade: after its ids
        group = check_access(root, refuse=args.command == "serve")
    if args.command in ("grade", "export", "report", "validate", "feedback"):
        say_stray_gradebooks(root)
    if args.command in ("export", "report", "feedback", "similarity"):
        say_grade_running(root)
    if args.command in WRITES_FOR_INSTRUCTOR:  # their --to may lie outside the closed course
        from autograder.course.access import private_files

        with private_files(course_group(root) if group is None else group):
            return run_command(root, args)
    return run_command(root, args)


def written_ids(root, ids):
    """The ids asked for among the assignments written in the course's assignments/ (all when
    none), a folder that lost its notebook.py named as such."""
    return check_ids(ids, assignment_ids(root), without_notebook(root / "assignments"))


def run_command(root, args):
    """The command itself, once the course around it is found and its access checked."""
    if args.command == "build":
        written_ids(root, args.ids)  # a wrong id is refused at once
        from autograder.build import build

        build(root, args.ids)
    elif args.command == "init":
        from autograder.build.course_folder import init_course, write_config

        if args.config_only:
            write_config(args.folder, args.language)
        else:
            init_course(args.folder, args.language or DEFAULT, args.ids, empty=args.empty,
                        group=args.group)
    elif args.command == "secure":
        from autograder.course.access import close
        from autograder.course.config_file import db_url, sqlite_file

        configured = course_group(root)
        new_group = args.group if args.group and args.group != configured else None
        if new_group:
            from autograder.build.course_folder import check_group

            check_group(new_group)  # before any mode changes
        close(root, args.group if args.group is not None else configured,
              sqlite_file(db_url(root)))
        if new_group:
            from autograder.build.course_folder import record_group

            record_group(root, new_group)
    elif args.command == "new":
        from autograder.course.config_file import course_language
        from autograder.tools.scaffold import new_assignment

        new_assignment(root, args.id, course_language(root), args.title)
    elif args.command == "update":
        from autograder.course.kit_update import KIT_COURSE, update

        return update(root, KIT_COURSE, args.ids, args.apply, args.take, args.keep,
                      here=args.here)
    elif args.command == "mutate":
        ids = written_ids(root, args.ids)
        from autograder.tools.mutations import main as mutate

        return mutate(root, ids, args.steps, args.limit, args.seed, args.show_equivalent)
    elif args.command == "validate":
        ids = written_ids(root, args.ids)
        from autograder.tools.validate import validate

        return 1 if validate(root, ids, args.workers) else 0
    elif args.command == "collect":
        check_ids([args.id], course_ids(root))  # before importing what collecting needs
        from autograder.outputs.collect import collect

        problems = collect(root, args.id, args.source, args.pattern)
        return 1 if problems else 0
    elif args.command == "grade":
        ids = check_ids(args.ids, course_ids(root))  # a wrong id is refused at once
        check_access(root, refuse=True)
        if not args.scheduler:  # the embedded cluster's start begins now (below)
            start_embedded_early(root, args.students, args.workers)
        with paused():  # the collector, while torch, dask and nbgrader are imported
            from autograder.grading.parallel import grade, isolation_line

        result = grade(root, args.ids, args.workers, args.force, args.timeout,
                       students=args.students, scheduler=args.scheduler, reseed=args.reseed)
        print(t("graded {graded}, already graded {skipped}, not graded {failed}, inputs "
                "refused {refused}, graded with warnings {warned}",
                graded=len(result.graded), skipped=len(result.skipped),
                failed=len(result.failed), refused=len(result.refused),
                warned=len(result.problems) - len(result.refused))
              + (t(", test cells without hidden checks {count}", count=len(result.unchecked))
                 if result.unchecked else "")
              + (t(", held back by a changed release {count}", count=len(result.held))
                 if result.held else "")
              + (t("; ") + isolation_line(result.isolations) if result.isolations else ""))
        if result.graded or result.skipped:  # a gradebook is there to read
            from autograder.outputs.score_summary import summary

            for line in summary(root, ids, args.students):
                print(line)
        from autograder.course.kit_update import KIT_COURSE, newer_in_kit

        note = newer_in_kit(root, KIT_COURSE, ids, here=getattr(args, "here", None))
        if note:
            print(note)
        return 0 if result.ok else 1
    elif args.command == "regrade-check":
        check_ids([args.id], course_ids(root))
        with paused():
            from autograder.grading.regrade_check import regrade_check

        check = regrade_check(root, args.id, args.students, args.workers, args.scheduler)
        return 0 if check.ok else 1
    elif args.command == "serve":
        from autograder.serve.service import serve

        return serve(root, main, args.once)
    elif args.command == "feedback":
        ids = check_ids(args.ids, course_ids(root))
        # What pages need, imported before this command (by serve, which runs it): warm.
        warm = "autograder.outputs.feedback" in sys.modules
        if not (args.students or args.scheduler):
            start_page_workers_early(root, ids, args.workers, warm)
        with paused():  # numpy and nbconvert: a Ctrl-C meanwhile comes after them
            from autograder.outputs.feedback import write_feedback

        done = write_feedback(root, ids, args.students, workers=args.workers,
                              scheduler=args.scheduler, warm=warm)
        return 0 if done or not (args.ids or args.students) else 1  # asked for, not written
    elif args.command == "export":
        return export(root, args)
    elif args.command == "report":
        ids = check_ids(args.ids, course_ids(root))
        from autograder.outputs.report import write_report

        written = write_report(root, ids, file_to_write(args.to) or Path("report.html"))
        return 1 if written.unreadable else 0  # the page is written, short of their pairs
    elif args.command == "gradescope":
        check_ids([args.id], course_ids(root))  # before importing what packing needs
        from autograder.gradescope.package import write_zip

        write_zip(root, args.id, args.to or Path(f"{args.id}-gradescope.zip"),
                  args.visibility, args.isolation)
    elif args.command == "similarity":
        ids = check_ids(args.ids, course_ids(root))
        from autograder.outputs.similarity_page import write_similarity

        to = (args.to or Path("similarity")).resolve()
        results = write_similarity(root, ids, to, args.threshold, args.characters, args.common)
        # a notebook left out is said above; the report is not whole, so the exit says so too
        return 0 if results and not any(result.left_out for result in results) else 1
    elif args.command == "remove":
        from autograder.tools.remove import remove

        return remove(root, args.id, args.force)
    elif args.command == "demo":
        from autograder.tools.demo import run_demo

        run_demo(root, (root / args.out).resolve(), args.workers, args.timeout)
    return 0


def parse(argv=None):
    """The command line, ids allowed after options too (`init DIR --language zh 08 09`):
    argparse ends a command's ID list at the first option and would refuse the rest."""
    cli = parser()
    args, extra = cli.parse_known_args(argv)
    own = cli.commands.choices[args.command]  # its usage, not the kit's list of commands
    if extra and isinstance(getattr(args, "ids", None), list) and not any(
            word.startswith("-") for word in extra):
        args.ids += extra
    elif extra:
        own.error(t("unrecognized arguments: %s") % " ".join(extra))
    if args.command == "init" and args.config_only and (args.ids or args.empty):
        own.error(t("--config-only writes nbgrader_config.py alone: give no assignment ids "
                    "and no --empty"))
    return args


def main(argv=None, serve_asked=False):
    """Run a command line (`argv`, else this process's); `serve_asked`: the caller handed it
    to the course's serve already, and none ran it (autograder/__main__.py). This process's
    own command runs where strings hash as in the kernels (plumbing/hash_seed.py), and once
    it is done, a Ctrl-C no longer stops the process's ending: its exit handlers end the
    templates and kernels and remove temporary folders, and a Ctrl-C among them printed
    Python's traceback ("Exception ignored in ...") instead of the command's outcome. A
    Ctrl-C that a finalizer swallows while the command runs is raised again
    (plumbing/ctrl_c.py)."""
    if argv is not None:
        return command_line(argv, serve_asked)
    try:
        if not serve_asked:
            served = handed_to_serve(sys.argv[1:])  # before a restart: serve's hashes so
            if served is not None:
                return served
        hash_as_kernels()  # where a Ctrl-C held while it restarted the command is raised
        raised_again()
        return command_line(sys.argv[1:], serve_asked=True)
    except KeyboardInterrupt:  # before the command line could say it in the course's words
        return interrupted()
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def handed_to_serve(argv):
    """The exit status of the command line `argv` run by the course's serve, warm, when one
    runs and takes it; else None."""
    mark("command: started")
    return served_unparsed(argv)


FILE_SYSTEM_REFUSALS = {errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT}


def refused_by_file_system(error, root):
    """One line for a file the system would not let the command read or write (a course
    folder that is read-only or another user's, a full disk): the file, why, and the fix.
    What the command wrote before is as it left it; every write of the kit's is whole or
    not there."""
    path, reason = error.filename or "?", os_reason(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        if error.filename is None:  # a stream's write: the course's disk, most likely
            return no_space(root)
        return t("{path}: no space left ({reason}); free some on that disk, then run the "
                 "command again", path=path, reason=reason)
    if error.errno == errno.EROFS:
        return t("{path}: {reason}; the course folder must be on a file system the command "
                 "can write: mount it read-write, or copy the course where it can",
                 path=path, reason=reason)
    return t("{path}: {reason}; this command must read and write the course folder: run it "
             "as the folder's owner, or give that user the right (ls -ld shows who may)",
             path=path, reason=reason)


SQLITE_FULL = 13  # sqlite3.Error.sqlite_errorcode of "database or disk is full"


def full_disk(error):
    """Is the error, or one it was raised from or while handling, a full disk: an OSError
    of no space (or quota), or SQLite's "database or disk is full" (a gradebook's write,
    which nbgrader raises again as its own InvalidEntry)?"""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
            return True
        if type(error).__module__ == "sqlite3" and \
                getattr(error, "sqlite_errorcode", None) == SQLITE_FULL:
            return True
        error = error.__cause__ or error.__context__
    return False


def no_space(root):
    """The line for a full disk whose file is not known: the course's disk, its free space,
    the fix, and what is kept."""
    try:
        usage = shutil.disk_usage(root)
        free = t("{mb} MB free", mb=usage.free // 10**6)
    except OSError:
        free = t("its free space unknown")
    return t("the disk that holds {root} is full ({free}): free some space on it, then run "
             "the command again; what the command finished before is kept (a gradebook's "
             "write is whole or not there)", root=root, free=free)


def command_line(argv, serve_asked):
    """The exit status of the command line `argv` (main)."""
    if not serve_asked:
        served = handed_to_serve(argv)
        if served is not None:
            return served
    with language(help_language(argv)), argparse_in_course_language():
        args = locate(parse(argv))
    with language(console_language(args)):
        try:
            code = run(args)
            mark("command: done")
            return code
        except KitError as error:  # AuthoringError, BuildError, CollectError, GradeError, ...
            print(t("error: {message}", message=error), file=sys.stderr)
            return 1
        except BrokenPipeError:  # a reader gone, where main(argv) runs without reader_gone.py
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except OSError as error:  # after BrokenPipeError, one of its kinds
            if error.errno not in FILE_SYSTEM_REFUSALS:
                raise
            print(t("error: {message}", message=refused_by_file_system(error, args.root)),
                  file=sys.stderr)
            return 1
        except Exception as error:
            if not full_disk(error):  # a library's error made of a full disk (SQLite's)
                raise
            print(t("error: {message}", message=no_space(args.root)), file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print(t("interrupted"), file=sys.stderr)
            return 130
