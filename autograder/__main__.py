import sys

from autograder.cli import main

if __name__ == "__main__":  # not when a grading worker is spawned
    sys.exit(main())
