"""`python -m autograder init DIR --language zh`: a ready course folder in a language.

The folder gets the project's nbgrader_config.py with the course's language set, and
source/ and release/ built from assignments/ and solutions/ in that language. An instructor
then runs nbgrader and the kit from that folder exactly as from the repository's root (which
stays the English course). The folder is built beside its place and moved there whole, so an
interrupted init leaves nothing half-written.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from autograder.build import BuildError, assignment_ids, build_source, generate_release
from autograder.course import CONFIG, check_ids
from autograder.i18n import check_language

# The one line of nbgrader_config.py that names the course's language.
LANGUAGE_SETTING = re.compile(r'^c\.Course\.language = "\w+"$', re.MULTILINE)


def config_in_language(project: Path, language) -> str:
    text = (project / CONFIG).read_text(encoding="utf-8")
    if not LANGUAGE_SETTING.search(text):
        raise BuildError(f"{project / CONFIG} has no line 'c.Course.language = \"en\"'; "
                         "put it back so init can set the course's language")
    return LANGUAGE_SETTING.sub(f'c.Course.language = "{language}"', text)


def init_course(project: Path, folder: Path, language, ids=(), log=print) -> Path:
    """Write `folder`: config, source/ and release/ in `language` of the given assignments
    (all when none is given)."""
    check_language(language)
    ids = check_ids(ids, assignment_ids(project))
    folder = folder.resolve()
    if folder.exists() and any(folder.iterdir()):
        raise BuildError(f"{folder} is not empty; init writes a new course: give a new or "
                         "empty folder (nothing in an existing one is replaced)")
    staged = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(staged, ignore_errors=True)
    staged.mkdir(parents=True)
    try:
        (staged / CONFIG).write_text(config_in_language(project, language), encoding="utf-8")
        for assignment_id in ids:
            build_source(project, assignment_id, staged, language)
            generate_release(staged, assignment_id, staged / "release")
            log(f"built {assignment_id} ({language}): source/ and release/")
        if folder.exists():
            folder.rmdir()  # empty, checked above
        staged.replace(folder)
    finally:
        shutil.rmtree(staged, ignore_errors=True)
    log(f"course in {folder}: cd there and run nbgrader and `python -m autograder` as usual")
    return folder
