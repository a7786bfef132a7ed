import sys

from autograder.cli import main

sys.exit(main())
