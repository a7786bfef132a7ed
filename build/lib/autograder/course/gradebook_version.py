"""A new gradebook's schema version, read in this process.

nbgrader writes the version of its gradebook schema into every gradebook it makes, and finds
it by running the `alembic` executable (`alembic heads` on nbgrader's migration scripts,
nbgrader.api.get_alembic_version): a process that imports nbgrader again, 3.5-4 s here, for
every new gradebook. A course's first generate_assignment makes one, and `build` makes one
for every assignment it proves in a scratch course. Here the same scripts, named by the same
alembic.ini nbgrader writes, are read with alembic's own API in about 0.2 s; where they have
more than one head (the executable would print several), nbgrader's own function answers.
"""

from __future__ import annotations

from autograder.plumbing import private_api

SPEEDUP = "gradebook version"


def read_in_process():
    """Make nbgrader find a new gradebook's version in this process (once the function it
    replaces is what this was written for; else nbgrader runs alembic, only slower)."""
    if not private_api.applies(SPEEDUP):
        return
    import nbgrader.api

    if getattr(nbgrader.api.get_alembic_version, "replaces", None) is None:
        head_of_scripts.replaces = nbgrader.api.get_alembic_version
        nbgrader.api.get_alembic_version = head_of_scripts


def head_of_scripts() -> str:
    """The head revision of nbgrader's migration scripts, as `alembic heads` prints it."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory
    from nbgrader.dbutil import _temp_alembic_ini

    with _temp_alembic_ini("sqlite:////tmp/gradebook.db") as alembic_ini:
        heads = ScriptDirectory.from_config(Config(alembic_ini)).get_heads()
    if len(heads) != 1:
        return head_of_scripts.replaces()
    return heads[0]
