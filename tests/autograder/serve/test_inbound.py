"""Does `serve` read the exchange's inbound folder as nbgrader's collect reads it?"""

from __future__ import annotations

from traitlets.config import Config

from autograder.serve.inbound import handed_in, inbound_folder

ID = "01_attention_by_hand"


def test_submissions_are_read_oldest_first_and_foreign_folders_passed_over(tmp_path):
    """Are the chosen assignment's submissions listed oldest first (a student name with '+'
    kept whole), and another assignment's, a malformed name and a bad time passed over?"""
    names = [f"ada+{ID}+2026-11-28 10:00:02.000001 UTC+b",
             f"ben+x+{ID}+2026-11-28 09:00:00.000001 UTC+a",
             "ada+02_embeddings+2026-11-28 08:00:00.000001 UTC+c",
             f"ada+{ID}+not a time+d", "stray-folder"]
    for name in names:
        (tmp_path / name).mkdir()
    found = handed_in(tmp_path, {ID})
    assert [(h.student, h.name) for h in found] == [("ben+x", names[1]), ("ada", names[0])]


def test_no_exchange_means_no_inbound_folder():
    """Without c.Exchange.root and a course id, is there no folder to watch (not the
    current one)?"""
    assert inbound_folder(Config()) is None
    config = Config({"Exchange": {"root": "/srv/exchange"},
                     "CourseDirectory": {"course_id": "sa"}})
    assert str(inbound_folder(config)) == "/srv/exchange/sa/inbound"
