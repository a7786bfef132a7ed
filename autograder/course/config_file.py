"""The course's nbgrader_config.py, read with traitlets alone: light enough (no nbgrader, no
torch) that a command reads it before its own imports, and starts what grading needs first
(cli.start_embedded_early) some 0.35 s sooner than through autograder.course.directory."""

from __future__ import annotations

import copy
import os
import traceback
from pathlib import Path

from traitlets.config import Config
from traitlets.config.loader import (
    ConfigFileNotFound,
    JSONFileConfigLoader,
    PyFileConfigLoader,
)

from autograder.i18n import config_language
from autograder.plumbing.course_root import CONFIG
from autograder.plumbing.errors import KitError

_read: dict[str, tuple[bytes, Config]] = {}  # config file -> (its text, what it set)


def course_config(root: Path, **overrides) -> Config:
    """The course's nbgrader_config.py, with overrides such as
    {"ExecutePreprocessor": {"timeout": 10}} on top. The file runs again only when its text
    changed: a grade asks for it a dozen times, and `serve` for every command; a file it
    reads (load_subconfig) is read again when this one changes."""
    path = os.path.abspath(os.path.join(root, CONFIG))
    try:
        with open(path, "rb") as file:
            text = file.read()
    except OSError:
        text = None  # the loader says what is wrong, each time
    kept = _read.get(path)
    if text is None or kept is None or kept[0] != text:
        kept = (text, loaded(root, path))
        if text is not None:
            _read[path] = kept
    config = copy.deepcopy(kept[1])  # the caller's to change
    config.merge(Config(overrides))
    return config


def as_nbgrader_reads(root: Path) -> Config:
    """The course's config as nbgrader's own commands read it: its nbgrader_config.py over
    the nbgrader_config files of Jupyter's config path (a hub's /etc/jupyter, the
    environment's, the user's ~/.jupyter). For the exchange's settings (c.Exchange.root and
    timezone, c.CourseDirectory.course_id), which students' nbgrader reads from the same
    files: a hub that sets its exchange in /etc/jupyter has serve watch that exchange. Grading
    reads the course's file alone (course_config), so that a worker on another machine, with
    files of its own there, grades by the same settings."""
    config = jupyter_layers(layer_files())
    config.merge(course_config(root))
    return config


LAYER_NAMES = ("nbgrader_config.py", "nbgrader_config.json")  # a folder's .json over its .py


def layer_files():
    """The paths of the nbgrader_config files in Jupyter's config path that this user may
    read, the one nbgrader reads first (a system-wide folder) first."""
    from jupyter_core.paths import jupyter_config_path

    return [path for folder in reversed(jupyter_config_path()) for name in LAYER_NAMES
            if os.path.isfile(path := os.path.join(folder, name))
            and os.access(path, os.R_OK)]


def jupyter_layers(layers) -> Config:
    """What the files of `layer_files` set, merged in their order; ConfigError naming one
    that cannot be run."""
    config = Config()
    for path in layers:
        folder, name = os.path.split(path)
        loader = (JSONFileConfigLoader if name.endswith(".json") else PyFileConfigLoader)(
            name, path=folder)
        try:
            config.merge(loader.load_config())
        except Exception as error:  # noqa: BLE001 - whatever the file's own code raises
            raise ConfigError(f"{path}: {type(error).__name__}: {error}; nbgrader reads this "
                              "file too (Jupyter's config path, under the course's own): "
                              "correct it") from error
    return config


def course_language(root: Path) -> str:
    """The course's language (c.Course.language of its nbgrader_config.py)."""
    return config_language(course_config(root))


class ConfigError(KitError):
    """The course's nbgrader_config.py cannot be run (a syntax error, a name it misspells)."""


def loaded(root: Path, path: str) -> Config:
    """What the config file at `path` sets; ConfigError, naming the file, the line and the
    error, when running it fails (the command line then says so in one line, not a
    traceback from traitlets' loader)."""
    try:
        return PyFileConfigLoader(CONFIG, path=str(root)).load_config()
    except SyntaxError as error:
        raise ConfigError(f"{path}, line {error.lineno}: {error.msg}; correct it (it is "
                          "Python: one setting a line, c.Class.name = value)") from error
    except ConfigFileNotFound:
        raise  # no file: the command line says what to do
    except Exception as error:  # noqa: BLE001 - whatever the file's own code raises
        line = next((frame.lineno for frame in traceback.extract_tb(error.__traceback__)
                     if os.path.abspath(frame.filename) == path), "?")
        raise ConfigError(f"{path}, line {line}: {type(error).__name__}: {error}; correct "
                          "it") from error


def isolation_of(config: Config) -> str:
    """A course config's sandbox setting (c.GradeInSandbox.isolation: "full" or "limits"),
    "full" when it sets none."""
    return config.GradeInSandbox.get("isolation", "full")


def isolation_setting(root: Path) -> str:
    """The course's sandbox setting (isolation_of); "full" when the config cannot be read
    (grading then says what is wrong with it)."""
    try:
        return isolation_of(course_config(root))
    except Exception:  # noqa: BLE001 - any error of the course's config is grading's to say
        return "full"


SQLITE = "sqlite:///"  # a SQLite gradebook's URL: this, then its file's path
DEFAULT_DB_URL = SQLITE + "gradebook.db"  # nbgrader's own default


def configured_db_url(root: Path) -> str:
    """db_url as the course's config writes it (nbgrader's default when it is not set)."""
    return course_config(root).CourseDirectory.get("db_url", DEFAULT_DB_URL)


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite gradebook URL, else None."""
    return Path(url.removeprefix(SQLITE)) if url.startswith(SQLITE) else None


def db_url(root: Path) -> str:
    """The gradebook's SQLAlchemy URL from the course's config (CourseDirectory.db_url); a
    relative SQLite path is taken from the course root, as nbgrader does."""
    url = configured_db_url(root)
    file = sqlite_file(url)
    return SQLITE + str(root / file) if file and not file.is_absolute() else url


def stray_gradebooks(root: Path) -> list[Path]:
    """Gradebooks nbgrader made in the course's subfolders (nbgrader run in a subfolder makes
    one there, silently, and records into it): gradebook.db files one to three folders down,
    not the course's own, nor that of a course of its own there (a config beside it: the
    demo's, say)."""
    own = sqlite_file(db_url(root))
    found = []
    for depth in ("*/", "*/*/", "*/*/*/"):
        found += [path for path in root.glob(depth + "gradebook.db")
                  if path != own and not path.relative_to(root).parts[0].startswith(".")
                  and not (path.parent / "nbgrader_config.py").is_file()]
    return sorted(found)
