"""Benchmark: what one notebook's kernel costs, in the full sandbox and with limits only.

Starts and stops N kernels from the warm template in each mode (a kernel, its first
`import torch` and a small tensor operation, then the kill of every process it started) and
prints the mean seconds per kernel and the sandbox's cost per notebook (full minus limits).
A fresh `python -c "import torch"` is printed beside them: what a kernel without the template
pays before it can run a cell. Full isolation needs root.

    .venv/bin/python bench/sandbox.py [--kernels 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from autograder.sandbox.kernel import SandboxedKernel, Settings, Zygote  # noqa: E402


def kernel_seconds(isolation, count):
    times = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(count):
            started = time.perf_counter()
            kernel = SandboxedKernel(Path(folder), Settings(isolation=isolation,
                                                            hidden=(str(ROOT),)))
            kernel.start()
            _, status = kernel.execute("import torch\n(torch.ones(3, 4) @ torch.ones(4, 2)).sum()",
                                       timeout=30)
            kernel.stop()
            assert status == "ok"
            times.append(time.perf_counter() - started)
    return statistics.fmean(times), statistics.pstdev(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", type=int, default=20)
    args = parser.parse_args()
    started = time.perf_counter()
    Zygote.shared()
    print(f"kernel template ready in {time.perf_counter() - started:.2f} s (once per worker)")
    full, full_sd = kernel_seconds("full", args.kernels)
    limits, limits_sd = kernel_seconds("limits", args.kernels)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import torch"], check=True)
    fresh = time.perf_counter() - started
    print(f"kernel start + first cell + kill, mean of {args.kernels}:")
    print(f"  full sandbox  {full:.3f} s (sd {full_sd:.3f})")
    print(f"  limits only   {limits:.3f} s (sd {limits_sd:.3f})")
    print(f"sandbox cost per notebook: {full - limits:+.3f} s")
    print(f"a fresh `python -c 'import torch'`: {fresh:.2f} s")


if __name__ == "__main__":
    main()
