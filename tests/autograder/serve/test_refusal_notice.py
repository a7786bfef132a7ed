"""Does a refused submission's notice land where the student's fetch_feedback looks, and is
nothing a student planted in the submission followed on the way?"""

from __future__ import annotations

import os
import stat

import pytest
from nbgrader.utils import notebook_hash

from autograder.serve.inbound import handed_in
from autograder.serve.refusal_notice import release_notice

ID = "01_attention_by_hand"
SECRET = "ab" * 64  # as nbgrader's submit writes it: token_hex(64)


@pytest.fixture
def exchange(tmp_path):
    """An exchange course folder with one student's submission in its inbound."""
    course = tmp_path / "course"
    folder = course / "inbound" / f"ada+{ID}+2026-11-28 10:00:00.000001 UTC+x"
    folder.mkdir(parents=True)
    (folder / f"{ID}.ipynb").write_text("{}")
    (folder / "submission_secret.txt").write_text(SECRET)
    return course, folder


def release(course, why="its notebook is 40.0 MB <b>"):
    [handed] = handed_in(course / "inbound", {ID})
    return release_notice(course, course / "inbound", handed, why)


def test_the_notice_is_named_as_nbgrader_names_the_students_feedback(exchange):
    """Is the notice written under the digest of the submission's secret and notebook id
    (where fetch_feedback looks), readable by the student, the reason escaped, in a feedback
    folder that cannot be listed?"""
    course, _ = exchange
    assert release(course) == 1
    page = course / "feedback" / f"{notebook_hash(secret=SECRET, notebook_id=ID)}.html"
    text = page.read_text(encoding="utf-8")
    assert "its notebook is 40.0 MB &lt;b&gt;" in text and "<b>" not in text
    assert "submit again" in text
    assert stat.S_IMODE(page.stat().st_mode) == 0o644
    assert stat.S_IMODE((course / "feedback").stat().st_mode) == 0o711
    assert sorted(os.listdir(course / "feedback")) == [page.name]  # nothing half-written


def test_every_notebook_of_the_submission_gets_the_notice(exchange):
    """Does a submission whose notebook was renamed get the notice under the name it has
    (fetch_feedback names pages by the notebooks in the student's copy)?"""
    course, folder = exchange
    (folder / f"{ID}.ipynb").rename(folder / "my copy.ipynb")
    assert release(course, why="it holds no 01_attention_by_hand.ipynb") == 1
    page = course / "feedback" / f"{notebook_hash(secret=SECRET, notebook_id='my copy')}.html"
    assert "it holds no" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("plant", ["link", "fifo", "huge", "missing"])
def test_a_planted_secret_is_never_followed_nor_waited_on(exchange, plant):
    """Is a secret that is a link (to a file the instructor may read), a named pipe (a read
    would wait forever), far longer than nbgrader's or missing refused with an error, and no
    page written?"""
    course, folder = exchange
    secret = folder / "submission_secret.txt"
    secret.unlink()
    if plant == "link":
        (folder.parent.parent / "private").write_text(SECRET)
        secret.symlink_to(folder.parent.parent / "private")
    elif plant == "fifo":
        os.mkfifo(secret)
    elif plant == "huge":
        secret.write_text("a" * 5000)
    with pytest.raises(OSError):
        release(course)
    assert not (course / "feedback").exists()
