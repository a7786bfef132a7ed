"""`python -m autograder gradescope ID`: the zip Gradescope builds an autograder image from.

At its root, what Gradescope runs: `setup.sh` (once, when the image is built: Python, a
virtualenv with the pinned versions, PyTorch's CPU build) and `run_autograder` (for every
submission). Beside them:

    requirements.lock   the versions setup.sh installs: the checkout's requirements.lock's
                        of what the kit needs to run (gradescope/runtime_pins.py), or, the
                        kit installed, the versions of the environment running it
    kit/                the kit's packages as they run here (autograder/, solutions/)
    course/             the course, as a grading worker gets it (engine/bundle.py):
                        nbgrader_config.py, assignments/ (shared modules and ID/), source/ID/,
                        release/ID/, a gradebook of ID's master cells; gradescope.json;
                        .kit/secret, the course's, which each student's hidden cases are
                        drawn from (the same draw as `grade` makes for that student id)

The course's nbgrader_config.py gets a few lines at its end: Gradescope grades one upload in
a container of its own, so the gradebook is the folder's SQLite file, no dask scheduler is
used, and lateness is Gradescope's own (no due date of the kit's).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import re
import zipfile
from pathlib import Path

from autograder.course.directory import CONFIG
from autograder.course.draw_keys import course_secret, older_draws, secret_path
from autograder.gradescope.runtime_pins import runtime_pins
from autograder.i18n import t
from autograder.plumbing.errors import KitError

KIT_PACKAGES = ("autograder", "solutions")  # what grading imports (assignments' reference.py
# imports solutions in the kit's own course)
KIT_DISTRIBUTION = "attention-course-kit"
TORCH_INDEX = "https://download.pytorch.org/whl/cpu"
TEMPLATES = Path(__file__).with_name("templates")
SCRIPTS = ("setup.sh", "run_autograder")
SECRET_IN_ZIP = f"course/{secret_path(Path()).as_posix()}"  # course/.kit/secret
PRIVATE = (SECRET_IN_ZIP,)  # read by the grader alone
NOT_PINNED = re.compile(r"^(pip|setuptools|wheel|nvidia-.*|triton)$", re.IGNORECASE)
SKIPPED = {"__pycache__", ".ipynb_checkpoints"}
CONFIG_LINES = """

# Added by `python -m autograder gradescope`: Gradescope grades one upload at a time, in a
# container of its own, into this folder's gradebook; lateness is Gradescope's, not the kit's.
c.CourseDirectory.db_url = "sqlite:///gradebook.db"
c.Cluster.scheduler = ""
c.Deadlines.due_dates = {}
c.Deadlines.extension_hours = {}
"""


class GradescopeError(KitError):
    """The zip cannot be written; the message says why and what to do."""


def checkout_lock() -> Path | None:
    """The requirements.lock of the checkout the kit runs from, if it runs from one."""
    checkout = Path(importlib.util.find_spec("autograder").origin).resolve().parents[1]
    lock = checkout / "requirements.lock"
    return lock if lock.is_file() and (checkout / "pyproject.toml").is_file() else None


def environment_pins() -> str:
    """`name==version` of every distribution of this environment but the kit itself and the
    installers (a local label such as +cpu dropped: setup.sh takes torch from the CPU index)."""
    pins = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and name.lower() != KIT_DISTRIBUTION and not NOT_PINNED.match(name):
            pins[name.lower()] = f"{name}=={dist.version.split('+')[0]}"
    return "".join(line + "\n" for _, line in sorted(pins.items()))


def pinned_requirements() -> str:
    """The versions an image installs: the checkout's lock's of what the kit needs to run (the
    lock pins the kit's development tools too); installed, the environment's every version
    (an instructor's own assignment, or a student, may import what they installed beside the
    kit)."""
    lock = checkout_lock()
    if lock is None:
        return environment_pins()
    return runtime_pins(lock.read_text(encoding="utf-8"), KIT_DISTRIBUTION, lock.parent)


def torch_version(pins: str) -> str:
    found = re.search(r"^torch==([^\s;#]+)", pins, re.MULTILINE | re.IGNORECASE)
    if not found:
        raise GradescopeError(t("the pinned versions name no torch (torch==VERSION): install "
                                "the kit's requirements.lock in this environment first"))
    return found.group(1)


def kit_files() -> dict:
    """{"kit/<package>/<path>": bytes} of the kit's packages, from where they are imported."""
    files = {}
    for package in KIT_PACKAGES:
        folder = Path(importlib.util.find_spec(package).submodule_search_locations[0])
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if path.is_file() and not SKIPPED & set(relative.parts) and path.suffix != ".pyc":
                files[f"kit/{package}/{relative.as_posix()}"] = path.read_bytes()
    return files


def script(name, torch) -> bytes:
    text = (TEMPLATES / name).read_text(encoding="utf-8")
    return text.replace("@TORCH_VERSION@", torch).replace("@TORCH_INDEX@", TORCH_INDEX).encode()


def course_files(root: Path, assignment_id, visibility, isolation, log) -> dict:
    """{"course/<path>": bytes}: the assignment's grading bundle, configured for Gradescope."""
    from autograder.engine.bundle import assignment_bundle
    from autograder.grading.parallel import register_assignments

    register_assignments(root, [assignment_id], log)
    files = {f"course/{name}": data
             for name, data in assignment_bundle(root, assignment_id).files.items()}
    lines = CONFIG_LINES + (f'c.GradeInSandbox.isolation = "{isolation}"\n' if isolation else "")
    files[f"course/{CONFIG}"] += lines.encode()
    # The course's secret, so that an upload's hidden cases are drawn as `grade` draws them
    # (the zip is the instructor's; Gradescope never shows it to students).
    secret = course_secret(root, log)
    older_draws(secret, log)  # an older course's 32-bit draws, said here too
    files[SECRET_IN_ZIP] = secret.hex().encode() + b"\n"
    files["course/gradescope.json"] = json.dumps(
        {"assignment": assignment_id, "visibility": visibility}, indent=1).encode()
    return files


def is_kit_zip(path: Path) -> bool:
    try:
        with zipfile.ZipFile(path) as archive:
            return {"run_autograder", "course/gradescope.json"} <= set(archive.namelist())
    except (OSError, zipfile.BadZipFile):
        return False


def write_archive(path: Path, files: dict):
    """The zip, written beside `path` and then moved there: the scripts executable."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in files.items():
            info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if name in SCRIPTS else 0o600 if name in PRIVATE
                                  else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    partial.replace(path)


def write_zip(root: Path, assignment_id, to: Path, visibility="visible", isolation=None,
              log=print) -> Path:
    """Write the Gradescope autograder zip of one assignment of the course at `root`."""
    root = root.resolve()
    to = Path(os.path.abspath(to))  # as typed, its ../ taken out (links kept)
    if not (root / "source" / assignment_id / f"{assignment_id}.ipynb").is_file():
        raise GradescopeError(t("{id} is not built (no source/{id}/): run `python -m autograder "
                                "build {id}` first", id=assignment_id))
    if not to.parent.is_dir():
        raise GradescopeError(t("{folder}: no such folder; create it or write the zip elsewhere "
                                "(--to)", folder=to.parent))
    if to.exists() and not is_kit_zip(to):
        raise GradescopeError(t("{path} exists and is not a Gradescope zip the kit wrote; "
                                "choose another --to (nothing was overwritten)", path=to))
    pins = pinned_requirements()
    torch = torch_version(pins)
    files = {name: script(name, torch) for name in SCRIPTS}
    files["requirements.lock"] = pins.encode()
    files |= kit_files()
    files |= course_files(root, assignment_id, visibility, isolation, log)
    write_archive(to, files)
    log(t("wrote {path} ({mb:.1f} MB): on Gradescope, create a Programming Assignment, upload "
          "this zip under Configure Autograder, and let students upload {notebook}",
          path=to, mb=to.stat().st_size / 2**20, notebook=f"{assignment_id}.ipynb"))
    return to
