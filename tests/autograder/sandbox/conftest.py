"""A real sandboxed kernel, forked from the real template (in the full sandbox when the tests
run as root, as in CI), for the sandbox's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.sandbox.kernel import Limits, SandboxedKernel, Settings
from autograder.sandbox.link import Link

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture()
def kernel(tmp_path):
    (tmp_path / "data.txt").write_text("the student's own file")
    limits = Limits(memory_bytes=4 << 30, file_bytes=1 << 20, processes=64)
    sandboxed = SandboxedKernel(tmp_path, Settings(hidden=(str(ROOT),), limits=limits))
    sandboxed.start()
    yield sandboxed
    sandboxed.stop()


def run(kernel, code):
    outputs, status = kernel.execute(code, timeout=20)
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    errors = [o.ename for o in outputs if o.output_type == "error"]
    return text.strip(), errors


def guarded(kernel):
    """A link to the kernel, guarded (sandbox/guard.py), the student's code to come."""
    link = Link(kernel, lambda: 20)
    link.guard()
    with link.talking():
        link.configure(student=True)
    return link
