"""Users and groups of this machine that tests make, as root, where missing: safe when two test
processes make the same one at once (scripts/kit test runs files two at a time). useradd,
groupadd and usermod lock /etc/passwd and /etc/group; one that finds them locked, or finds the
user just made by the other process, fails at once, so each is run again until what it makes
is there."""

from __future__ import annotations

import grp
import pwd
import subprocess
import time
from pathlib import Path

PATIENCE = 60  # seconds another process may hold the account files


def ensure_user(name, home=False):
    """The user `name`, made where missing (with a home of its own when `home`); its home."""
    made = ["--create-home"] if home else ["--no-create-home", "--home-dir", "/nonexistent"]
    until_done(["useradd", *made, name], lambda: exists(pwd.getpwnam, name))
    return Path(pwd.getpwnam(name).pw_dir)


def ensure_member(user, group):
    """The group `group`, made where missing, with `user` (made where missing) in it."""
    until_done(["groupadd", group], lambda: exists(grp.getgrnam, group))
    ensure_user(user)
    until_done(["usermod", "-aG", group, user], lambda: user in grp.getgrnam(group).gr_mem)


def exists(lookup, name):
    try:
        lookup(name)
    except KeyError:
        return False
    return True


def until_done(command, done):
    """Run `command` until `done()` holds; fail with its last error after PATIENCE seconds."""
    deadline = time.monotonic() + PATIENCE
    while not done():
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode == 0 or done():
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"{' '.join(command)} failed: {result.stderr.strip()}")
        time.sleep(0.2)
