"""Does the demo, started outside any course, say where to run it, writing nothing?"""

from __future__ import annotations

import subprocess
import sys

from autograder.course.directory import nbgrader_env


def test_the_demo_outside_a_course_says_to_run_it_in_one(tmp_path):
    """In a folder with no course: does `demo` exit 1 with one line naming the folder and
    where to run it instead, and leave no --out folder behind?"""
    result = subprocess.run([sys.executable, "-m", "autograder", "demo", "--out", "demo"],
                            cwd=tmp_path, env=nbgrader_env(), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{tmp_path} is no course with assignments: run the demo inside one" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "demo").exists()
