"""Does the kit read nbgrader's API results as nbgrader writes them?"""

from __future__ import annotations

from nbgrader.utils import capture_log
from traitlets.config import Application

from autograder.course.directory import api_warnings


class Warns(Application):
    """An application that logs as nbgrader's commands do, at every level."""

    def start(self):
        self.log.info("Collecting submission: ada")
        self.log.warning("Owner of file %s (%s) does not match user %s", "x", 1001, "ada")
        self.log.error("No notebooks were matched")


def test_the_warnings_of_a_command_are_read_from_nbgraders_own_log():
    """From the log nbgrader's own capture_log keeps of a command, are its warnings and errors
    picked out, each with its level, and its information left?"""
    result = capture_log(Warns())
    assert result["success"]
    assert api_warnings(result) == ["WARNING: Owner of file x (1001) does not match user ada",
                                    "ERROR: No notebooks were matched"]
    assert api_warnings({"success": True}) == []
