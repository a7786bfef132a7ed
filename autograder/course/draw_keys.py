"""The course's secret, and the key each notebook's hidden random cases are drawn from.

A course keeps a random secret in `.kit/secret` (mode 0600): `init` makes it, and so does the
first grading of a course that has none, saying so. The hidden random inputs of one student's
notebook are drawn from the key HMAC-SHA256(secret, assignment, student, reseed)
(checks/draws.py): every grading of the notebook draws the same inputs, on any worker, in
`serve` and on Gradescope (its zip carries the secret), and a student, who has not the
secret, cannot know them. `reseed` is "" until `grade --reseed` draws anew for a notebook;
the kit's ledger keeps it for the notebook, with a digest of the key (never the key, never
the secret), so that the next regrade draws what the last one did.

The secret also says how the generators are seeded (checks/draws.py): a secret made since
2026-12-04 begins with WHOLE_STATE, and its keys seed each generator's whole state; an older
course's secret (32 bytes alone) keeps the 32-bit seeds its gradings drew with, and `grade`
says so, with how to move (`older_draws`).

The secret is never in release/, in a student's zip, in the feedback or in an export: it
lives in .kit/ alone (and in the Gradescope zip, which is the instructor's).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

from autograder.checks.draws import WHOLE_STATE, state_layout
from autograder.course.ledger import FOLDER, recorded_reseed
from autograder.i18n import t
from autograder.plumbing.errors import KitError

SECRET = "secret"  # in the course's .kit/
SECRET_BYTES = 32  # the random part; a course's since 2026-12-04 has WHOLE_STATE before it


class SecretError(KitError):
    """The course's secret cannot be read or made; the message says why and what to do."""


def secret_path(root: Path) -> Path:
    return Path(root) / FOLDER / SECRET


def course_secret(root: Path, log=print) -> bytes:
    """The course's secret, made now (and said through `log`) when it has none; readable by
    others, it is made private again, and that is said too."""
    path = secret_path(root)
    secret = read_secret(path, log)
    if secret is None:
        secret = make_secret(path)
        log(t("made the course's secret {path}: each student's hidden random cases are drawn "
              "from it, the same on every regrade; keep it (a new secret draws new cases for "
              "everyone) and never hand it out", path=path))
    return secret


def read_secret(path: Path, log=print) -> bytes | None:
    try:
        info = path.stat()
        text = path.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as error:
        raise SecretError(t("{path} cannot be read ({error}): it holds the secret the hidden "
                            "cases are drawn from; give the grader's user access to it",
                            path=path, error=error)) from None
    try:
        secret = bytes.fromhex(text)
    except ValueError:
        secret = b""
    if len(secret.removeprefix(WHOLE_STATE)) != SECRET_BYTES:
        raise SecretError(t("{path} is not a secret the kit made ({count} or {longer} hex "
                            "digits expected); put back the course's own (from a backup), or "
                            "delete it to draw new hidden cases for everyone", path=path,
                            count=2 * SECRET_BYTES,
                            longer=2 * (len(WHOLE_STATE) + SECRET_BYTES)))
    if info.st_mode & 0o077 and info.st_uid == os.getuid():
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
        log(t("{path} could be read by other users; it is now yours alone (mode 0600)",
              path=path))
    return secret


def make_secret(path: Path) -> bytes:
    """A new secret at `path`, written whole before it appears there (a link of a complete
    private file); when another process made one meanwhile, that one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = WHOLE_STATE + secrets.token_bytes(SECRET_BYTES)
    partial = path.with_name(f".{SECRET}.{os.getpid()}.partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(secret.hex() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.link(partial, path)
    except FileExistsError:
        return read_secret(path)
    finally:
        partial.unlink(missing_ok=True)
    return secret


def draw_key(secret: bytes, assignment_id: str, student: str, reseed: str = "") -> bytes:
    """The key one notebook's hidden random cases are drawn from; it seeds generators as the
    course's secret says (WHOLE_STATE before it, or not)."""
    message = "\0".join((assignment_id, student, reseed)).encode()
    kind = WHOLE_STATE if secret.startswith(WHOLE_STATE) else b""
    return kind + hmac.new(secret, message, hashlib.sha256).digest()


def ready_to_draw(secret: bytes, log) -> None:
    """Before a course's notebooks are graded: DrawError (checks/draws.py) when this torch
    cannot set the whole state the course's draws need; for an older course, said through
    `log` that its draws have 32-bit seeds, and how to move (older_draws)."""
    if secret.startswith(WHOLE_STATE):
        state_layout()
    else:
        older_draws(secret, log)


def older_draws(secret: bytes, log) -> None:
    """Said through `log` when the course's draws have 32-bit seeds (its secret was made
    before WHOLE_STATE), with how to move; nothing else is done (no torch is needed)."""
    if secret.startswith(WHOLE_STATE):
        return
    log(t("warning: this course's hidden cases are drawn from 32-bit seeds (its .kit/secret "
          "was made by a kit before 2026-12-04), which a student can search for from the "
          "shapes feedback shows; its regrades keep these draws. To draw from the random "
          "generator's whole state instead, move .kit/secret out of the course and run grade "
          "--force: every notebook's hidden cases are then drawn anew, and their scores may "
          "change (best before the term's first grade)"))


def notebook_draw(root: Path, secret: bytes, student: str, assignment_id: str,
                  reseed: str | None = None) -> tuple[str, bytes]:
    """(reseed, key) one student's notebook is drawn from: `reseed` (a grade --reseed's),
    else the one its last grading recorded in the ledger. grade, regrade-check and nbgrader's
    own autograde (GradeInSandbox) all draw through here."""
    if reseed is None:
        reseed = recorded_reseed(root, student, assignment_id)
    return reseed, draw_key(secret, assignment_id, student, reseed)


def key_digest(key: bytes) -> str:
    """What the ledger keeps of a key: enough to tell two draws apart, nothing to draw with."""
    return hashlib.sha256(b"kit-draw-digest\0" + key).hexdigest()[:16]


def recorded(reseed: str, key: bytes) -> dict:
    """What the ledger keeps of a notebook's draw (ledger.mark's `draw`)."""
    return {"reseed": reseed, "draws": key_digest(key)}


def new_reseed() -> str:
    """A fresh `reseed` for `grade --reseed`."""
    return secrets.token_hex(6)
