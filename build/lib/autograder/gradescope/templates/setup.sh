#!/usr/bin/env bash
# Gradescope runs this once, as root and with network, when it builds the autograder's image
# (`python -m autograder gradescope ID` wrote it into the zip). It installs Python 3.11 (or a
# newer python3 the image has), a virtualenv at /autograder/venv, and in it the exact versions
# of requirements.lock. PyTorch comes first, from PyTorch's CPU index (@TORCH_INDEX@):
# Gradescope's Ubuntu images hold no wheel of torch, and the torch PyPI serves for Linux is
# the CUDA build, gigabytes that a CPU-only grader never uses; torch==@TORCH_VERSION@ (the
# lock's) matches the index's @TORCH_VERSION@+cpu, so the lock's own line is then satisfied.
set -euo pipefail

root="${KIT_GRADESCOPE_ROOT:-/autograder}"
venv="$root/venv"

new_enough() {
  "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null
}

python=""
for candidate in python3.11 python3; do
  if command -v "$candidate" >/dev/null && new_enough "$candidate"; then
    python="$candidate"
    break
  fi
done
if [ -z "$python" ]; then
  # Ubuntu 22.04, Gradescope's default image, has python3.10; its universe has python3.11.
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y python3.11 python3.11-venv
  python=python3.11
fi
if ! "$python" -m venv "$venv"; then
  rm -rf "$venv"
  DEBIAN_FRONTEND=noninteractive apt-get install -y "$(basename "$python")-venv" python3-venv
  "$python" -m venv "$venv"
fi

# KIT_TORCH_INDEX: another index of PyTorch's CPU wheels; empty, pip's own configuration
# (the kit's tests, on a machine that reaches only its package registry).
index="${KIT_TORCH_INDEX-@TORCH_INDEX@}"
"$venv/bin/pip" install --no-cache-dir --no-deps ${index:+--index-url "$index"} \
  "torch==@TORCH_VERSION@"
"$venv/bin/pip" install --no-cache-dir -r "$root/source/requirements.lock"
"$venv/bin/python" -c "import torch, nbgrader, distributed, ipykernel; print('torch', torch.__version__)"
echo "the kit's autograder is installed in $venv"
