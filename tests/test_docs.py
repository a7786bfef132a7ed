"""The documentation site (mkdocs.yml, docs/): built with warnings as errors, offline, and the
README kept to one page."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A tag that makes the browser fetch something: a script, a stylesheet or an icon, an image, a
# font in a style sheet.
FETCHED = re.compile(r"""<(?:script|link|img|iframe|source)\b[^>]*?\b(?:src|href)\s*=\s*["']"""
                     r"""(?:https?:)?//|url\(\s*["']?(?:https?:)?//|@import\s+["']?(?:https?:)?//""",
                     re.IGNORECASE)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site as `mkdocs build --strict` writes it, and what the build printed."""
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(out)], cwd=ROOT, capture_output=True, text=True, check=False)
    return out, done


def test_the_site_builds_with_no_warning(site):
    """Does the documentation site build with no warning, every page link and anchor
    resolving (mkdocs build --strict)?"""
    out, done = site
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}{done.stderr}"
    for page in ("index.html", "zh/index.html", "instructors/writing-assignments.html",
                 "reference/commands.html", "reference/settings.html"):
        assert (out / page).is_file(), f"the site has no {page}"


def test_the_site_fetches_nothing_from_the_internet(site):
    """Does every page open offline: no script, stylesheet, image or font of the built site
    comes from another host?"""
    out, done = site
    assert done.returncode == 0, done.stderr
    remote = [f"{path.relative_to(out)}: {match.group(0)}"
              for path in sorted(out.rglob("*")) if path.suffix in {".html", ".css"}
              for match in FETCHED.finditer(path.read_text(encoding="utf-8", errors="replace"))]
    assert not remote, "\n".join(remote)


def test_the_readme_is_one_page():
    """Is the README one page (under 150 lines), the rest in docs/?"""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) < 150, f"README.md has {len(lines)} lines; move the detail into docs/"
