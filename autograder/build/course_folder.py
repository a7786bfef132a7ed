"""`python -m autograder init DIR --language zh`: a ready course folder in a language.

The folder gets an nbgrader_config.py (the kit's stages, then the course's values, the
language among them), the assignments of the kit's own course copied into assignments/ (all,
the ids given, or none with --empty: the instructor owns them from then on and adds more with
`python -m autograder new ID`), and source/ and release/ built from them in that language. An
instructor then runs nbgrader and the kit from that folder exactly as from the repository's
root (the repository is the English course made this way). The folder is built beside its
place and moved there whole, so an interrupted init leaves nothing half-written.

init takes only what a new course needs: each notebook rendered in the language, then all
released by nbgrader's generate_assignment in one process (a `build` starts nbgrader once per
assignment, about 10 s each). It does not run the build's proof again: the kit's assignments
are proven in both languages by the kit's own tests (tests/autograder/test_course_languages.py
grades their solutions and stubs in an English and a Chinese course), and `validate`, which
the closing lines suggest, proves them in the instructor's course.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from pathlib import Path

from autograder.build import BuildError, master_notebook, write_source
from autograder.build.render import KIT_METADATA
from autograder.checks.loader import ids_in
from autograder.course.access import CLOSED, GROUP_CLOSED
from autograder.course.config_file import course_config
from autograder.course.directory import (
    CONFIG,
    check_ids,
    copy_assignments,
    generate_with,
    nbgrader_api,
    open_gradebook,
)
from autograder.course.draw_keys import make_secret, secret_path
from autograder.course.kit_update import KIT_COURSE, record_copied
from autograder.course.time_limits import cell_seconds
from autograder.i18n import LANGUAGES, check_language, counted, t
from autograder.plumbing.kit_command import kit_command

COURSE_ID = "self-attention"  # the kit's own course (its assignments/: KIT_COURSE)

# A course's nbgrader_config.py; init fills in {course_id} and {language}.
CONFIG_TEMPLATE = r'''
"""nbgrader's settings for this course, read by nbgrader and the kit from the current folder:
run both from here. The kit's stages come first (kit_stages, imported below); the values below
are the course's own. Every trait the kit adds is listed, with its type, default and help, by
`{kit} guide settings`."""

from autograder.course.stages import kit_stages

c = get_config()  # noqa: F821 (nbgrader defines get_config)
c.merge(kit_stages())

c.CourseDirectory.course_id = "{course_id}"
# The gradebook: SQLite in this folder, or a PostgreSQL server every grader reaches
# ("postgresql+psycopg2://user:password@host:5432/gradebook").
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# The language students and instructors read: notebooks, checks' messages, feedback, report:
# "en" (English) or "zh" (Simplified Chinese). A change takes effect at the next build.
c.Course.language = "{language}"
# What nbgrader leaves in place of each solution in the student's version, in that language.
STUB_COMMENT = {"en": "# YOUR CODE HERE", "zh": "# 在这里写你的代码"}[c.Course.language]
c.ClearSolutions.code_stub = {"python": STUB_COMMENT + "\nraise NotImplementedError()"}

# Who may read this folder: it holds the solutions, the grades and every student's work.
# init made it 0700 (0750 with --group, for TAs); grade and serve refuse it while another
# user of the machine can read it, and `{kit} secure` closes it. True opens it
# knowingly (a machine of one user, a course with nothing to hide).
c.Course.shared_readable = False

# The sandbox: "full" (no network, course and home files out of reach, nothing outlives a
# notebook), built as root, as an ordinary user with user namespaces, or with Landlock; where
# none can be had, grading refuses and says why. "limits" (resource limits only: student code
# runs as you, can read your files and use the network) only knowingly. A cell, or one
# step's checks, may run 10 s; the student's cells 60 s in all.
c.GradeInSandbox.isolation = "full"
c.GradeInSandbox.cell_timeout = 10
c.GradeInSandbox.notebook_timeout = 60
# Sizes a notebook may reach in grading: a larger cell is not run, longer output is cut with a
# note, a larger answer of the kernel (or call of a stand-in) comes in parts, and fails its step
# only beyond 16 times max_reply_mb.
c.GradeInSandbox.max_source_kb = 256
c.GradeInSandbox.max_cell_output_kb = 256
c.GradeInSandbox.max_notebook_output_kb = 2048
c.GradeInSandbox.max_reply_mb = 4
# The release's cells that only show or measure (a plot, a printed example), left as released,
# are not run in grading: no check reads them, and the feedback page says so under each. True
# runs them, so that the page shows what they draw, at more CPU a notebook.
c.GradeInSandbox.run_unread_cells = False

# Where grade and feedback run: an embedded dask cluster of this machine's cores (--workers N,
# each worker process at most worker_memory_mb), or a running dask cluster whose workers need
# no course folder (`{kit} guide clusters`; also --scheduler).
# c.Cluster.scheduler = "tcp://10.0.0.5:8786"
c.Cluster.worker_memory_mb = 4096

# nbgrader's exchange on a shared server: the folder every user can write to, as the hub's
# administrator made it; each student's nbgrader reads the same root and course id (the
# administrator's /etc/jupyter/nbgrader_config.py; `{kit} guide where-courses-run`).
# c.Exchange.root = "/srv/nbgrader/exchange"

# Feedback on submit: while `python -m autograder serve` runs, each submission of these
# assignments is graded as it lands in the exchange and its feedback released at once (the
# student runs nbgrader fetch_feedback); per_day graded submissions per student, assignment and
# day at most, later ones stay in the exchange for your own collect and grade (0: no limit).
# c.FeedbackOnSubmit.assignments = ["01_attention_by_hand"]
c.FeedbackOnSubmit.per_day = 5

# Deadlines. A submission's time is the exchange's (nbgrader submit) or, for files from an
# LMS, the file name's (a (?P<timestamp>...) group in the pattern below), else the zip entry's
# date (read in c.Exchange.timezone), else the file's modification time. Late means after the
# due date plus the student's extension; each started day late costs 10 % of the score.
# `grade --force` applies a changed date to notebooks already graded.
# c.Deadlines.due_dates = {"01_attention_by_hand": "2026-12-04 23:59:00 Europe/Berlin"}
# c.Deadlines.extension_hours = {"01_attention_by_hand": {"ada": 48}}
c.Exchange.timezone = "UTC"
c.PercentPerDay.percent_per_day = 10
c.PercentPerDay.grace_minutes = 0

# Collecting from an LMS: a file "<student>_<assignment id>.ipynb" (in a zip or a folder).
# nbgrader matches the pattern against the file's whole path, hence the leading ".*/".
c.FileNameCollectorPlugin.named_regexp = (
    r".*/(?P<student_id>[A-Za-z0-9][A-Za-z0-9.-]*)_(?P<file_id>\d\d_[a-z0-9_]+\.ipynb)$"
)
'''.lstrip("\n")


def config_text(language, course_id=COURSE_ID, group="") -> str:
    text = CONFIG_TEMPLATE.replace("{course_id}", course_id).replace("{language}", language) \
        .replace("{kit}", kit_command())
    return text + (GROUP_SETTINGS.replace("{group}", group) if group else "")


# Written where `init --group` names the TAs' group.
GROUP_SETTINGS = '''
# The course's TAs: the Unix group that may read this folder (0750), and nbgrader's files
# shared with it.
c.Course.group = "{group}"
c.CourseDirectory.groupshared = True
'''


def record_group(root: Path, group: str, log=print) -> Path:
    """`secure --group GROUP` in a course whose config names no group or another: GROUP's
    settings appended to its nbgrader_config.py (a later assignment wins over an earlier
    one), so that grade and serve, which refuse a course readable beyond its configured
    group, accept the access secure gave. The file is replaced whole with its mode kept;
    what it held before is kept word for word above the new lines."""
    config = root / CONFIG
    text = config.read_text(encoding="utf-8")
    partial = root / f".{CONFIG}.partial"
    partial.write_text(text.rstrip("\n") + "\n" + GROUP_SETTINGS.replace("{group}", group),
                       encoding="utf-8")
    os.chmod(partial, config.stat().st_mode & 0o777)
    partial.replace(config)
    log(t("{config}: c.Course.group = {group!r} written, so that grade and serve accept the "
          "group's access", config=config, group=group))
    return config


def check_group(group):
    """A TA group that exists on this machine, else BuildError naming it."""
    import grp

    try:
        grp.getgrnam(group)
    except KeyError:
        raise BuildError(t("there is no group {group!r} on this machine: make it first "
                           "(`groupadd {group}`, then `usermod -aG {group} USER` for each TA)",
                           group=group)) from None
    return group


def init_course(folder: Path, language, ids=(), empty=False, log=print, group=None) -> Path:
    """Write `folder`: config, assignments/ (the kit's course's `ids`, all when none is given,
    none when `empty`), and source/ and release/ made from them in `language`; closed to other
    users from its first moment (course/access.py): 0700, or 0750 and `group`'s."""
    check_language(language)
    if group:
        check_group(group)
    ids = [] if empty else check_ids(ids, ids_in(KIT_COURSE))
    folder = folder.resolve()
    if folder.exists() and any(folder.iterdir()):
        raise BuildError(t("{folder} is not empty; init writes a new course: give a new or "
                           "empty folder (nothing in an existing one is replaced). To add an "
                           "assignment to a course, run `python -m autograder new ID` there",
                           folder=folder))
    staged = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(staged, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    staged.mkdir(mode=CLOSED)
    try:
        if group:
            shutil.chown(staged, group=group)
            staged.chmod(GROUP_CLOSED)
        (staged / CONFIG).write_text(config_text(language, group=group or ""), encoding="utf-8")
        make_secret(secret_path(staged))  # each student's hidden cases are drawn from it
        if ids:  # the kit's assignments, with the modules they share
            log(counted(len(ids), "copying {count} assignment of the kit into assignments/",
                        "copying {count} assignments of the kit into assignments/"))
            copy_assignments(KIT_COURSE, staged / "assignments", ids)
            record_copied(staged, KIT_COURSE, ids)  # what `update` compares with later
            release_all(staged, ids, language, log)
        else:
            (staged / "assignments").mkdir()
        if folder.exists():
            folder.rmdir()  # empty, checked above
        staged.replace(folder)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    # The gradebook, made here with its schema's version: nbgrader's first command would make
    # it too, but, run from a virtualenv not activated, without the version (its `alembic`
    # command not on PATH), and then remove the release it was generating.
    open_gradebook(folder).close()
    log(closing_lines(folder, len(ids), language))
    return folder


def written_language(folder: Path):
    """The language a course's notebooks were built in, as the build recorded it in each
    notebook of source/ (its metadata "kit": {"language": ...}); None when no notebook records
    one, or when they disagree. Never guessed from the characters of a text: an English
    notebook quotes the Chinese title of a source."""
    import json

    recorded = set()
    for path in sorted(folder.glob("source/*/*.ipynb")):
        try:
            metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
        except (OSError, ValueError):
            continue
        code = metadata.get(KIT_METADATA, {}).get("language")
        if code in LANGUAGES:
            recorded.add(code)
    return recorded.pop() if len(recorded) == 1 else None


def write_config(folder: Path, language=None, log=print) -> Path:
    """`init --config-only DIR`: nbgrader_config.py alone, written into the existing course
    folder DIR that lost it (the kit's settings and defaults, in `language`, else the language
    its built notebooks record, else refused). Refused where DIR is no folder or already
    holds one: nothing is replaced."""
    folder = folder.resolve()
    config = folder / CONFIG
    if not folder.is_dir():
        raise BuildError(t("{folder} is not a folder; --config-only writes nbgrader_config.py "
                           "into an existing course folder (a new course: `python -m "
                           "autograder init DIR`)", folder=folder))
    if config.exists():
        raise BuildError(t("{config} exists; --config-only never replaces it (move it away "
                           "first to write the kit's default one)", config=config))
    language = check_language(language or recorded_language(folder))
    partial = folder / f".{CONFIG}.partial"
    partial.write_text(config_text(language), encoding="utf-8")
    partial.replace(config)
    log(t("wrote {config} ({language}): the kit's defaults, course id {course_id!r} and the "
          "gradebook sqlite:///gradebook.db; set again what you had changed (course id, "
          "gradebook URL, due dates, sandbox limits), then run `python -m autograder validate` "
          "there", config=config, language=language_name(language), course_id=COURSE_ID))
    return config


def recorded_language(folder: Path):
    """The language recorded in the course's built notebooks, else refused with the way
    out: --config-only never guesses a course's language."""
    recorded = written_language(folder)
    if recorded is None:
        raise BuildError(t("{folder} records no language: none of its source/ notebooks says "
                           "which language it was built in (none is built, they were built by "
                           "an older kit, or they disagree). Say it: `python -m autograder "
                           "init --config-only --language en {folder}` (or --language zh)",
                           folder=folder))
    return recorded


def release_all(root: Path, ids, language, log):
    """source/ (each master notebook rendered in `language`, and its self-check script) and
    release/ (nbgrader's generate_assignment, every assignment in this one process, with a
    throwaway gradebook: the course's own is made when it first grades)."""
    count, cell_limit = len(ids), cell_seconds(course_config(root))
    for number, assignment_id in enumerate(ids, 1):
        write_source(root / "source", assignment_id,
                     master_notebook(root, assignment_id, language), language, cell_limit)
        log(t("[{number}/{count}] rendered {id} in {language}: source/{id}/", number=number,
              count=count, id=assignment_id, language=language_name(language)))
    here = Path.cwd()
    with tempfile.TemporaryDirectory(prefix="kit-init-") as scratch:
        try:
            api = nbgrader_api(root, CourseDirectory={
                "db_url": f"sqlite:///{Path(scratch) / 'gradebook.db'}"})
            for number, assignment_id in enumerate(ids, 1):
                generate_with(api, root, assignment_id)
                log(t("[{number}/{count}] released {id} (nbgrader generate_assignment): "
                      "release/{id}/", number=number, count=count, id=assignment_id))
        finally:
            os.chdir(here)  # nbgrader_api moved there, and the folder is about to move


def language_name(code):
    """The course language's name, in the console's language."""
    return t("English") if code == "en" else t("Simplified Chinese")


def closing_lines(folder: Path, count, language):
    """Where the course is and what to run next, with the python that ran init."""
    kit = kit_command()
    return (counted(count, "course in {folder} ({count} assignment, {language}); go there and "
                    "run the kit with this python, for example:", "course in {folder} ({count} "
                    "assignments, {language}); go there and run the kit with this python, for "
                    "example:", folder=folder, language=language_name(language)) +
            f"\n  cd {shlex.quote(str(folder))}\n  {kit} new 10_my_topic    " +
            t("(an assignment of your own)") + f"\n  {kit} validate\n" +
            t("Keep {secret} (yours alone): each student's hidden cases are drawn from it, the "
              "same on every regrade; a course without it draws new ones for everyone.",
              secret=secret_path(folder)))
