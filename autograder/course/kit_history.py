"""The table of the kit's past file versions that update reads (kit_update.PAST, beside the
kit's assignments, shipped with them): for each file the kit's assignments hold now, the
digest of every version of it the repository's history holds, and of the file as it is.

A course made before init recorded what it copied has no record; with this table, update
still tells a file that is as an older kit wrote it (taken by `update --apply`) from one its
instructor changed (theirs to compare and take by hand).

Run in the kit's repository, after changing a file of assignments/ (the test of this module
fails, naming this command, while the table lacks a version):

    python -m autograder.course.kit_history
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from autograder.checks.loader import ids_in
from autograder.course.kit_update import ASSIGNMENTS, KIT_COURSE, PAST, digest, kit_files

NO_BLOB = "0" * 40  # git's name for the side of a change where the file is not


def committed_blobs(repo: Path, paths) -> dict[str, set[str]]:
    """The git blobs of every committed version of each of `paths` (relative to `repo`)."""
    wanted, blobs = set(paths), {path: set() for path in paths}
    log = subprocess.run(["git", "-C", str(repo), "log", "--format=", "--raw", "--no-abbrev",
                          "--no-renames", "--", ASSIGNMENTS],
                         capture_output=True, text=True, check=True).stdout
    for line in log.splitlines():
        if not line.startswith(":"):
            continue
        fields, path = line.split("\t", 1)
        blob = fields.split()[3]  # :mode mode old new status
        if path in wanted and blob != NO_BLOB:
            blobs[path].add(blob)
    return blobs


def blob_digests(repo: Path, blobs) -> dict[str, str]:
    """The sha256 of each git blob's content, read in one `git cat-file --batch`."""
    blobs = sorted(set(blobs))
    out = subprocess.run(["git", "-C", str(repo), "cat-file", "--batch"],
                         input="".join(f"{blob}\n" for blob in blobs).encode(),
                         capture_output=True, check=True).stdout
    digests, at = {}, 0
    for blob in blobs:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])  # <blob> blob <size>
        content = out[header_end + 1:header_end + 1 + size]
        digests[blob] = hashlib.sha256(content).hexdigest()
        at = header_end + 1 + size + 1  # the content, then a newline
    return digests


def versions(repo: Path, kit: Path) -> dict[str, list[str]]:
    """For each file of the kit's assignments at `kit` (the folder assignments/ of `repo`),
    the sorted digests of its committed versions and of the file as it is."""
    paths = kit_files(kit, ids_in(kit))
    blobs = committed_blobs(repo, paths)
    digests = blob_digests(repo, {blob for found in blobs.values() for blob in found})
    return {path: sorted({digests[blob] for blob in blobs[path]} |
                         {digest(kit / Path(path).relative_to(ASSIGNMENTS))})
            for path in paths}


def table_text(table) -> str:
    return json.dumps({"files": table}, indent=1, sort_keys=True) + "\n"


def main(kit: Path = KIT_COURSE) -> int:
    repo = kit.parent
    if not (repo / ".git").exists():
        print(f"{repo} is not the kit's repository: the table is made from its git history",
              file=sys.stderr)
        return 2
    target = kit / PAST
    target.write_text(table_text(versions(repo, kit)), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
