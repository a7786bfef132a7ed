"""`python -m autograder COMMAND`. Kept light (the command line imports what a command needs
when it runs): a spawned grading worker imports this module again, as __mp_main__."""

import sys

from autograder.cli import main

if __name__ == "__main__":  # not when a grading worker is spawned
    sys.exit(main())
