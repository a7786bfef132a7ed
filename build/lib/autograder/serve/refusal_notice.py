"""The notice of a refused submission, where the student's `nbgrader fetch_feedback` finds it.

nbgrader names a released feedback page by a digest of the submission's secret
(submission_secret.txt, written by `nbgrader submit` into the submission and into the
student's own cache) and the notebook's id, in the exchange's `<course>/feedback/` folder. A
page put there under that name is fetched by the student like any other feedback. So a
submission refused at intake (too large, a link inside, no notebook, a time in the future)
gets a short page saying why and what to change, under the names of its own notebooks.

The submission is the student's folder in a folder every student can write: its secret and
its names are read without following a link, regular files only, and the page is written
into the instructor's own feedback folder, never through anything a student made.
"""

from __future__ import annotations

import html
import os
import stat
from pathlib import Path

from nbgrader.utils import notebook_hash

from autograder.i18n import t
from autograder.outputs.plain_page import plain_page
from autograder.serve.collect_one import OPEN_FILE, OPEN_FOLDER

SECRET_BYTES = 1024  # nbgrader's submit writes 128 hexadecimal characters
FOLDER_MODE = 0o711  # nbgrader's own for <course>/feedback: pages fetched by name, never listed
GROUP_MODE = 0o2060  # and with c.CourseDirectory.groupshared, the group's too (nbgrader's)
PAGE_MODE = 0o644  # as nbgrader's release_feedback leaves a page: a student reads it by name
STYLE = "body{font-family:sans-serif;margin:1.5em auto;max-width:48em;padding:0 1em}"


def secret_and_notebooks(folder: Path) -> tuple[str, list[str]]:
    """The secret of the submission `folder` and the ids of the notebooks it holds, read
    without following a link (OSError when the secret is missing, not a regular file, or not
    what nbgrader's submit writes)."""
    folder_fd = os.open(folder, OPEN_FOLDER)
    try:
        names = os.listdir(folder_fd)
        secret_fd = os.open("submission_secret.txt", OPEN_FILE, dir_fd=folder_fd)
        with os.fdopen(secret_fd, "rb") as secret_file:
            if not stat.S_ISREG(os.fstat(secret_file.fileno()).st_mode):
                raise OSError(t("its submission_secret.txt is not a regular file"))
            secret = secret_file.read(SECRET_BYTES + 1)
    finally:
        os.close(folder_fd)
    if not secret or len(secret) > SECRET_BYTES:
        raise OSError(t("its submission_secret.txt is not what nbgrader submit writes"))
    notebooks = sorted(name.removesuffix(".ipynb") for name in names if name.endswith(".ipynb"))
    return secret.decode("utf-8", "replace"), notebooks


def notice_page(handed, why) -> str:
    """The page that tells the student why the submission was refused, in the course's
    language."""
    title = t("{assignment}: your submission was not graded", assignment=handed.assignment)
    said = t("Your submission of {time} was refused before grading: {why}.",
             time=f"{handed.timestamp:%Y-%m-%d %H:%M:%S}", why=why)
    next_step = t("Nothing of this submission was graded, and your earlier feedback, if any, "
                  "still stands. Change what is said above and submit again; if you cannot "
                  "tell what to change, ask your instructor.")
    return plain_page(title, f"<p>{html.escape(said)}</p><p>{html.escape(next_step)}</p>",
                      STYLE)


def release_notice(exchange_course: Path, inbound: Path, handed, why, groupshared=False):
    """Put the notice of the refused submission `handed` (a folder of `inbound`) where the
    student's fetch_feedback finds it; returns how many notebooks it names (OSError when it
    cannot)."""
    secret, notebooks = secret_and_notebooks(inbound / handed.name)
    if not notebooks:
        raise OSError(t("it holds no notebook to name the notice by"))
    folder = exchange_course / "feedback"
    if not folder.is_dir():
        folder.mkdir(mode=FOLDER_MODE)
        os.chmod(folder, FOLDER_MODE | (GROUP_MODE if groupshared else 0))
    page = notice_page(handed, why).encode()
    folder_fd = os.open(folder, OPEN_FOLDER)
    try:
        for notebook in notebooks:
            name = notebook_hash(secret=secret, notebook_id=notebook)
            write_page(folder_fd, f"{name}.html", page)
    finally:
        os.close(folder_fd)
    return len(notebooks)


def write_page(folder_fd, name, page: bytes):
    """`page` as the file `name` of the folder `folder_fd`, whole or not at all."""
    part = f".{name}.part"
    try:
        os.unlink(part, dir_fd=folder_fd)
    except FileNotFoundError:
        pass
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PAGE_MODE,
                 dir_fd=folder_fd)
    with os.fdopen(fd, "wb") as out:
        out.write(page)
    os.chmod(part, PAGE_MODE, dir_fd=folder_fd)  # whatever the umask
    os.replace(part, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
