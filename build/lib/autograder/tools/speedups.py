"""Each speedup on another library's private code (autograder/plumbing/private_api.py): whether
it applies with the libraries installed here, and its targets' digest, to add to the table
once the new source was read against the speedup.

    python -m autograder.tools.speedups
"""

from __future__ import annotations

from autograder.plumbing.private_api import SPEEDUPS, digest_of, version_of


def main():
    for name, speedup in SPEEDUPS.items():
        try:
            found = digest_of(speedup.targets)
        except LookupError as missing:
            found = f"({missing.args[0]} not found)"
        state = "applies" if found in speedup.digests else "steps aside"
        print(f"{name:28} {state:12} {found}  {speedup.distribution} "
              f"{version_of(speedup.distribution)}")


if __name__ == "__main__":
    main()
