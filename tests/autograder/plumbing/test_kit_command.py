"""Does every command the kit names read as the user runs the kit here: the short `python -m
autograder` when `python` on PATH is the kit's interpreter, its full path otherwise (Debian's
login shell has no `python`), in every text t() gives, once, in both languages?"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

from autograder.i18n import language, t
from autograder.plumbing.kit_command import (
    KIT,
    USER_PATH,
    as_typed,
    kit_command,
    kit_folder_first,
    with_kit_folder_first,
)

FULL = f"{shlex.quote(sys.executable)} -m autograder"
NO_PYTHON = "/usr/bin:/bin"  # Debian's own python3.11 is there, no `python`


def test_the_python_on_path_is_named_python(monkeypatch):
    """Is the command the short `python -m autograder` when `python` on PATH is the
    interpreter running the kit, and the full path once PATH leads elsewhere?"""
    monkeypatch.delenv(USER_PATH, raising=False)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{NO_PYTHON}")
    assert kit_command() == (KIT if Path(sys.executable).name == "python" else FULL)
    monkeypatch.setenv("PATH", NO_PYTHON)
    assert kit_command() == FULL


def test_the_kit_s_own_folder_first_on_path_changes_nothing(monkeypatch):
    """Once the kit put its interpreter's folder first on PATH (nbgrader runs alembic from
    it), is the command still the one the user's shell runs, here and in a process started
    with that PATH; is the folder put first once however often the gradebook is opened; and
    does a PATH set since count as the user's?"""
    monkeypatch.setenv("PATH", NO_PYTHON)
    monkeypatch.delenv(USER_PATH, raising=False)
    with_kit_folder_first(os.environ)
    made = os.environ["PATH"]
    assert made.startswith(str(Path(sys.executable).parent)) and kit_command() == FULL
    with_kit_folder_first(os.environ)
    assert os.environ["PATH"] == made == kit_folder_first(made)
    child = subprocess.run([sys.executable, "-c", "from autograder.plumbing.kit_command "
                            "import kit_command; print(kit_command())"], env=dict(os.environ),
                           capture_output=True, text=True, timeout=60)
    assert child.stdout.strip() == FULL, child.stderr
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}/bin")
    assert kit_command() == (KIT if Path(sys.executable).name == "python" else FULL)


def test_a_text_names_the_interpreter_once(monkeypatch):
    """Does t() write the interpreter into a command it names, and leave a command already
    written with the path as it is (an error's message passed through t() twice)?"""
    monkeypatch.setenv("PATH", NO_PYTHON)
    said = t("error: {message}", message=t("run `python -m autograder build {id}`", id="01_x"))
    assert said == f"error: run `{FULL} build 01_x`"
    assert as_typed(said) == said
    with language("zh"):
        assert t("error: {message}", message="python -m autograder grade") == \
            f"错误：{FULL} grade"


def test_the_environment_s_tools_are_named_where_path_lacks_them(monkeypatch):
    """Where PATH finds neither, do an instructor's nbgrader and dask commands name the kit's
    environment's files, and a student's `nbgrader submit` and prose naming them stay as
    written?"""
    monkeypatch.setenv("PATH", NO_PYTHON)
    folder = Path(sys.executable).parent
    said = t("add it (`nbgrader db student add ID`); start `dask worker ADDRESS`; students "
             "run `nbgrader submit ID`")
    assert said == (f"add it (`{folder / 'nbgrader'} db student add ID`); start "
                    f"`{folder / 'dask'} worker ADDRESS`; students run `nbgrader submit ID`")
    assert as_typed(said) == said
    prose = "no dask scheduler answers (nbgrader generate_assignment ran)"  # no command
    assert t(prose) == prose


def test_a_text_is_left_alone_where_python_is_the_kit(monkeypatch):
    """Where `python` is the kit's interpreter, is a text given back unchanged?"""
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{NO_PYTHON}")
    if kit_command() == KIT:
        assert t("run `python -m autograder build`") == "run `python -m autograder build`"


def test_the_console_names_the_interpreter(tmp_path):
    """Run with no `python` on PATH, do the refusal outside a course, the help's usage line
    and init's closing lines (after it opened the gradebook) name the kit's interpreter, so
    that a pasted line runs?"""
    env = {**os.environ, "PATH": NO_PYTHON}
    run = [sys.executable, "-m", "autograder"]
    refused = subprocess.run([*run, "build"], cwd=tmp_path, env=env, capture_output=True,
                             text=True, timeout=120)
    assert refused.returncode == 1
    assert refused.stderr.count(f"`{FULL} init") == 2, refused.stderr
    helped = subprocess.run([*run, "--help"], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=120)
    made = subprocess.run([*run, "init", "course", "01_attention_by_hand"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-2000:]
    assert "(1 assignment, English)" in made.stdout, made.stdout[-2000:]
    assert f"  {FULL} validate" in made.stdout and " python -m" not in made.stdout
    assert helped.stdout.startswith(f"usage: {FULL}"), helped.stdout[:300]
    assert f"`{shlex.quote(sys.executable)}` where they say `python`" in \
        " ".join(helped.stdout.split()), helped.stdout[:600]
