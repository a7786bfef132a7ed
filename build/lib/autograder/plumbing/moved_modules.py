"""Old names of modules that moved, as files the kit does not own still write them.

Every course's nbgrader_config.py starts with `from autograder.course.stages import
kit_stages`; a course made before the kit's modules were put in rooms has `from
autograder.stages import kit_stages`. nbgrader reads that file itself and, when it cannot
import what it names, logs the error and goes on without the kit's stages: grading without
the sandbox. So the old name still imports the module, the same module object under both
names. A config that lists nbgrader's stages itself may name the kit's ReleaseChecksums where
it was before it moved to the course room (out of build, whose package imports torch).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

MOVED = {"autograder.stages": "autograder.course.stages",
         "autograder.build.release_checksums": "autograder.course.release_checksums"}


class OldName:
    """Finds a module of MOVED by its old name; loading it imports the new one. A finder and
    loader as the import system calls them (not importlib.abc's classes: importing that module
    imports importlib.resources, about 10 ms of every process's start)."""

    def find_spec(self, name, path=None, target=None):
        if name not in MOVED:
            return None
        return importlib.util.spec_from_loader(name, self)

    def create_module(self, spec):
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module):
        """The new name's import ran it already."""


def keep_old_names():
    """Let the old names of moved modules import (once a process)."""
    if not any(isinstance(finder, OldName) for finder in sys.meta_path):
        sys.meta_path.append(OldName())
