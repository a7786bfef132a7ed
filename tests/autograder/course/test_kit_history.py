"""Does the kit ship the digest of every version its history holds of each of its assignment
files, so that `update` can tell an older course's untouched file from its instructor's own,
and is an older kit's file found so in a course made before init's record?"""

from __future__ import annotations

import subprocess

import pytest

from autograder.course.directory import copy_assignments
from autograder.course.kit_history import blob_digests, committed_blobs, main, versions
from autograder.course.kit_update import (
    KIT_COURSE,
    PAST,
    States,
    digest,
    past_versions,
    states,
)

REPO = KIT_COURSE.parent
ID = "03_scaled_dot_product"
CHECKS = f"assignments/{ID}/checks.py"


def test_the_shipped_table_holds_every_version_git_has():
    """Does assignments/past_versions.json hold, for every file of the kit's assignments,
    each committed version's digest and the file's as it is (else: the command to run)?"""
    shipped = past_versions(KIT_COURSE)
    made = versions(REPO, KIT_COURSE)
    missing = {path: set(found) - shipped.get(path, frozenset()) for path, found in made.items()}
    lacking = {path: len(digests) for path, digests in missing.items() if digests}
    assert not lacking, (f"{PAST} lacks versions of {lacking}: run "
                         "`python -m autograder.course.kit_history` and commit it")
    assert len(made[CHECKS]) > 1  # 03's checks have changed since the first commit


def test_an_older_kits_file_in_a_course_without_record_is_newer(tmp_path):
    """A course made by an older kit, before the record: is its checks.py, a version an
    earlier commit holds, found newer in the kit (taken by --apply), and the same file with a
    line of the instructor's not the kit's?"""
    blobs = committed_blobs(REPO, [CHECKS])[CHECKS]
    older = [blob for blob, found in blob_digests(REPO, blobs).items()
             if found != digest(KIT_COURSE / ID / "checks.py")]
    if not older and shallow():
        pytest.skip("a shallow clone holds no older version of the kit's files")
    older = older[0]
    root = tmp_path / "course"
    copy_assignments(KIT_COURSE, root / "assignments", [ID])
    text = subprocess.run(["git", "-C", str(REPO), "cat-file", "blob", older],
                          capture_output=True, check=True).stdout
    (root / CHECKS).write_bytes(text)
    assert state_in(root, CHECKS) == States.NEWER
    (root / CHECKS).write_bytes(text + b"\n# the instructor's own case\n")
    assert state_in(root, CHECKS) == States.UNKNOWN


def test_the_command_refuses_a_kit_outside_its_repository(tmp_path, capsys):
    """Does the command, given a kit with no git history beside it (an installed one), exit
    2 naming why, and write nothing?"""
    kit = tmp_path / "assignments"
    copy_assignments(KIT_COURSE, kit, [ID])
    assert main(kit) == 2
    assert "not the kit's repository" in capsys.readouterr().err
    assert not (kit / PAST).exists()


def state_in(root, path):
    return next(f.state for f in states(root, KIT_COURSE, [ID]) if f.path == path)


def shallow():
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "--is-shallow-repository"],
                          capture_output=True, text=True).stdout.strip() == "true"
