"""The kit's command line: `python -m autograder COMMAND` (or `attention-kit COMMAND`)."""

from __future__ import annotations

# Only light modules here: `--help` must answer at once. What a command needs (torch,
# nbgrader, nbformat, matplotlib come with it) is imported in `run`, when the command runs.
import argparse
import os
import sys
from pathlib import Path

from autograder.errors import KitError
from autograder.i18n import LANGUAGES

DESCRIPTION = """\
Build, check and grade the self-attention course with nbgrader.

Run it from the course root, the folder holding nbgrader_config.py (nbgrader reads its
configuration from the current directory). A typical week:

  python -m autograder build                     assignments/ -> source/ -> release/
  python -m autograder validate                  solutions earn full marks, stubs zero
  python -m autograder collect 01_attention_by_hand --from lms-export.zip
  python -m autograder grade --workers 2         autograde everything not graded yet
  python -m autograder feedback                  one HTML page per student and assignment
  python -m autograder export --to grades.csv    a row per student and assignment, totals
  python -m autograder report --to report.html   plots: scores, steps, named mistakes
  python -m autograder demo                      all of the above on a simulated class

The repository's root is the English course. For a course in Simplified Chinese (notebooks,
messages, feedback and report; the same ids, points and checks), write a course folder and
work from there:

  python -m autograder init ../course-zh --language zh

nbgrader itself stays usable in the same folder: nbgrader generate_assignment, autograde,
generate_feedback and export read the same nbgrader_config.py. The kit keeps its own records
in .kit/ (what it graded, the inputs it refused) and never deletes a grade it did not make.

Exit codes: 0 when everything asked for was done; 1 when something needs you: an input was
refused, a notebook could not be graded, nothing was there to grade, validate found a fault,
or an error (one line, naming the file and the fix); 2 for a wrong command line; 130 when
interrupted (what was finished is kept).
"""


def add_ids(command, what="assignment ids (all when none is given)"):
    command.add_argument("ids", nargs="*", metavar="ID", help=what)


def add_students(command, what):
    command.add_argument("--student", dest="students", action="append", default=[],
                         metavar="ID", help=what)


def parser():
    top = argparse.ArgumentParser(prog="python -m autograder", description=DESCRIPTION,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    top.add_argument("--root", type=Path, default=Path.cwd(),
                     help="the course root (default: the current folder)")
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    cmd = commands.add_parser("build", help="render source/ from assignments/ and release/ "
                              "with nbgrader generate_assignment")
    add_ids(cmd)

    cmd = commands.add_parser("init", help="write a ready course folder in a language: "
                              "nbgrader_config.py, source/ and release/ built from assignments/")
    cmd.add_argument("folder", type=Path, metavar="DIR", help="a new or empty folder")
    add_ids(cmd)
    cmd.add_argument("--language", default="en", choices=sorted(LANGUAGES),
                     help="the course's language: en (English, default) or zh (Simplified "
                     "Chinese): notebooks, messages, feedback and report")

    cmd = commands.add_parser("validate", help="grade the solutions (full marks expected) and "
                              "the stubs (zero expected); exit 1 otherwise")
    add_ids(cmd)
    cmd.add_argument("--workers", type=int, default=None, help="parallel graders")

    cmd = commands.add_parser("collect", help="copy notebooks from a folder or an LMS zip into "
                              "submitted/ (nbgrader zip_collect)")
    cmd.add_argument("id", metavar="ID", help="the assignment the files belong to")
    cmd.add_argument("--from", dest="source", type=Path, required=True,
                     help="a folder of notebooks or a zip file")
    cmd.add_argument("--pattern", default=None, help="regular expression for file names with "
                     "groups student_id and file_id (default: FileNameCollectorPlugin.named_regexp "
                     "in nbgrader_config.py)")

    cmd = commands.add_parser("grade", help="autograde submitted/ in parallel; a re-run skips "
                              "what is graded")
    add_ids(cmd)
    cmd.add_argument("--workers", type=int, default=os.cpu_count(),
                     help="parallel workers, each owning a disjoint set of students "
                     "(default: the number of cores)")
    cmd.add_argument("--force", action="store_true", help="grade again what is already graded")
    cmd.add_argument("--timeout", type=int, default=None,
                     help="seconds a cell may run (default: nbgrader_config.py)")
    add_students(cmd, "grade only these students (an id or a glob such as 'a*'; repeat the "
                 "option for more); with --force, regrade them and print whose score changed")

    cmd = commands.add_parser("feedback", help="one HTML page per student and assignment, "
                              "hidden tests removed; assignments with nothing graded are "
                              "skipped")
    add_ids(cmd)
    add_students(cmd, "only these students' pages (an id or a glob)")

    cmd = commands.add_parser("export", help="CSV: a row per student and assignment, totals")
    cmd.add_argument("--to", type=Path, default=Path("grades.csv"))

    cmd = commands.add_parser("report", help="self-contained HTML class report with plots")
    add_ids(cmd)
    cmd.add_argument("--to", type=Path, default=Path("report.html"))

    cmd = commands.add_parser("demo", help="a simulated class of 42 students through build, "
                              "collect, grade, feedback, export and report")
    cmd.add_argument("--out", type=Path, default=Path("demo"), help="the demo course folder")
    cmd.add_argument("--workers", type=int, default=os.cpu_count())
    cmd.add_argument("--timeout", type=int, default=10, help="seconds a cell may run")
    return top


def run(args):
    root = args.root.resolve()
    if args.command not in ("build", "demo", "init") and not (root / "nbgrader_config.py").exists():
        from autograder.build import BuildError

        raise BuildError(f"{root} has no nbgrader_config.py: run from the course root or "
                         "pass --root")
    if args.command == "build":
        from autograder.build import build

        build(root, args.ids)
    elif args.command == "init":
        from autograder.build.course_folder import init_course

        init_course(root, args.folder, args.language, args.ids)
    elif args.command == "validate":
        from autograder.build import assignment_ids
        from autograder.tools.validate import validate

        return 1 if validate(root, args.ids or assignment_ids(root), args.workers) else 0
    elif args.command == "collect":
        from autograder.course import check_ids, course_ids
        from autograder.outputs.collect import collect

        check_ids([args.id], course_ids(root))
        problems = collect(root, args.id, args.source, args.pattern)
        return 1 if problems else 0
    elif args.command == "grade":
        from autograder.grading.parallel import grade

        result = grade(root, args.ids, args.workers, args.force, args.timeout,
                       students=args.students)
        print(f"graded {len(result.graded)}, already graded {len(result.skipped)}, "
              f"not graded {len(result.failed)}, inputs refused {len(result.refused)}, "
              f"graded with warnings {len(result.problems) - len(result.refused)}")
        return 0 if result.ok else 1
    elif args.command == "feedback":
        from autograder.course import check_ids, course_ids
        from autograder.outputs.feedback import write_feedback

        done = write_feedback(root, check_ids(args.ids, course_ids(root)), args.students)
        return 0 if done or not args.ids else 1
    elif args.command == "export":
        from autograder.outputs.feedback import export_grades

        export_grades(root, args.to)
    elif args.command == "report":
        from autograder.course import check_ids, course_ids
        from autograder.outputs.report import write_report

        write_report(root, check_ids(args.ids, course_ids(root)), args.to)
    elif args.command == "demo":
        from autograder.tools.demo import run_demo

        run_demo(root, (root / args.out).resolve(), args.workers, args.timeout)
    return 0


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return run(args)
    except KitError as error:  # AuthoringError, BuildError, CollectError, GradeError, ...
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
