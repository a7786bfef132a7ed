"""Fixtures shared by the kit's tests: a real PostgreSQL server for the gradebook tests.

The server is Debian's package, started on localhost for the session (.ci/run installs it).
Without the server binaries a test that needs it is skipped, unless KIT_REQUIRE_POSTGRES is
set, as CI sets it: there it fails instead."""

from __future__ import annotations

import importlib.util
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

import pytest

SERVER_BINARIES = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def as_postgres(*command):
    """Run a server command as the `postgres` user when we are root (the server refuses
    to run as root)."""
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *map(str, command)], check=True, capture_output=True)


@pytest.fixture(scope="session")
def postgres():
    """A local PostgreSQL server for the session; `postgres()` makes a new, empty database
    and returns its SQLAlchemy URL, so that no two tests share a gradebook."""
    if not SERVER_BINARIES:
        if os.environ.get("KIT_REQUIRE_POSTGRES"):
            pytest.fail("PostgreSQL server binaries are missing; .ci/run installs Debian's "
                        "postgresql package")
        pytest.skip("no PostgreSQL server installed (apt-get install postgresql)")
    bin_dir = SERVER_BINARIES[-1].parent
    # Not under pytest's tmp folder: the postgres user cannot enter root's private folders.
    data = Path(tempfile.mkdtemp(prefix="kit-pg-"))
    if os.geteuid() == 0:
        shutil.chown(data, "postgres", "postgres")
    as_postgres(bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres")
    port = free_port()
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1"
    as_postgres(bin_dir / "pg_ctl", "-D", data, "-o", options, "-w", "-l", data / "log", "start")
    made = itertools.count(1)

    def new_database():
        name = f"kit{next(made)}"
        as_postgres(bin_dir / "createdb", "-h", "127.0.0.1", "-p", port, "-U", "postgres", name)
        return f"postgresql+psycopg2://postgres@127.0.0.1:{port}/{name}"

    try:
        yield new_database
    finally:
        as_postgres(bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "stop")
        shutil.rmtree(data, ignore_errors=True)


ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium, to open a page as a person would (never a browser downloaded by a
    tool). Missing: skipped, or failed when KIT_REQUIRE_BROWSER is set, as CI sets it."""
    path = shutil.which("chromium")
    if path is None:
        if os.environ.get("KIT_REQUIRE_BROWSER"):
            pytest.fail("Debian's chromium is missing; .ci/run installs it (apt-get install "
                        "chromium)")
        pytest.skip("no chromium installed (apt-get install chromium)")
    return path


@pytest.fixture
def screenshot(chromium):
    """screenshot(page, name): open the page in headless Chromium, save a PNG of it as
    artifacts/<name>.png (kept after the run, for people to look at) and return its path."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page: Path, name, width=1280, height=2400):
        target = ARTIFACTS / f"{name}.png"
        with tempfile.TemporaryDirectory(prefix="kit-chromium-") as profile:
            subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                            f"--user-data-dir={profile}", "--hide-scrollbars",
                            f"--window-size={width},{height}", f"--screenshot={target}",
                            page.resolve().as_uri()],
                           check=True, capture_output=True, timeout=120)
        return target

    return take


def browser_missing(ci_message, local_message):
    """Fail when KIT_REQUIRE_BROWSER is set (CI must run the browser tests), else skip."""
    if os.environ.get("KIT_REQUIRE_BROWSER"):
        pytest.fail(ci_message)
    pytest.skip(local_message)


@pytest.fixture(scope="session")
def chromedriver(chromium):
    """Debian's chromedriver (package chromium-driver), for selenium to drive Debian's
    Chromium as a person would. Tests hand selenium both paths, so selenium-manager never
    looks for, or downloads, a browser or a driver. Missing chromedriver or selenium:
    skipped, or failed when KIT_REQUIRE_BROWSER is set, as CI sets it."""
    path = shutil.which("chromedriver")
    if path is None:
        browser_missing("Debian's chromedriver is missing; .ci/run installs it (apt-get install "
                        "chromium-driver)", "no chromedriver installed (apt-get install "
                        "chromium-driver)")
    if importlib.util.find_spec("selenium") is None:
        browser_missing("selenium is missing from .venv; bash scripts/kit setup installs "
                        "requirements.lock", "no selenium in .venv (bash scripts/kit setup)")
    return path


@contextmanager
def driven_chromium(chromium, chromedriver, window):
    """Debian's Chromium, headless, driven by selenium through Debian's chromedriver, its
    window `window` (width, height); quit when the block ends."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "1"  # were selenium-manager ever run: no downloads
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size={},{}".format(*window)):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium's sandbox refuses to run as root
    driver = webdriver.Chrome(service=Service(executable_path=chromedriver), options=options)
    try:
        yield driver
    finally:
        driver.quit()
