"""Does the demo, started outside any course, say where to run it, writing nothing?"""

from __future__ import annotations

import subprocess
import sys

import pytest

from autograder.course.directory import OWN_FOLDER_AND_GRADEBOOK, nbgrader_env


def test_the_demo_outside_a_course_says_to_run_it_in_one(tmp_path):
    """In a folder with no course: does `demo` exit 1 with one line naming the folder and
    where to run it instead, and leave no --out folder behind?"""
    result = subprocess.run([sys.executable, "-m", "autograder", "demo", "--out", "demo"],
                            cwd=tmp_path, env=nbgrader_env(), capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{tmp_path} is no course with assignments: run the demo inside one" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "demo").exists()


def test_the_demo_never_replaces_a_folder_it_did_not_make(tmp_path):
    """Is an --out that holds the instructor's files, the course itself or a folder above it
    refused, each file kept, while a folder a demo made before is replaced, and does the
    demo's course copy the course's config and assignments without touching its source/ and
    release/?"""
    from autograder.tools.demo import MARK, DemoError, demo_course

    project = tmp_path / "course"
    (project / "assignments" / "01_a").mkdir(parents=True)
    (project / "assignments" / "01_a" / "checks.py").write_text("STEPS = ()\n")
    (project / "nbgrader_config.py").write_text("c = get_config()\n")
    (project / "release").mkdir()
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "chapter1.tex").write_text("three years of work")
    said = []
    for out in (thesis, project, tmp_path):
        with pytest.raises(DemoError, match="--out"):
            demo_course(project, out, ["01_a"], said.append)
    assert (thesis / "chapter1.tex").read_text() == "three years of work"
    assert (project / "nbgrader_config.py").is_file() and (project / "release").is_dir()

    demo = demo_course(project, project / "demo", ["01_a"], said.append).root
    assert (demo / MARK).is_file() and (demo / "assignments" / "01_a" / "checks.py").is_file()
    assert (demo / "nbgrader_config.py").read_text() == (  # its own gradebook, not the course's
        "c = get_config()\n" + OWN_FOLDER_AND_GRADEBOOK)
    (demo / "gradebook.db").write_text("")
    demo_course(project, project / "demo", ["01_a"], said.append)
    assert not (demo / "gradebook.db").exists() and said == [
        f"replacing the demo made before in {demo}"]
    assert list((project / "release").iterdir()) == []


def test_a_course_inside_the_course_is_no_stray_gradebook(tmp_path):
    """Is the gradebook of a course of its own in a subfolder (the demo's, with its config)
    not said to be one nbgrader made there, while a lone gradebook.db still is?"""
    from autograder.course.config_file import stray_gradebooks

    (tmp_path / "nbgrader_config.py").write_text("c = get_config()\n")
    (tmp_path / "demo").mkdir()
    (tmp_path / "demo" / "nbgrader_config.py").write_text("c = get_config()\n")
    (tmp_path / "demo" / "gradebook.db").write_text("")
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "gradebook.db").write_text("")
    assert stray_gradebooks(tmp_path) == [tmp_path / "source" / "gradebook.db"]
