"""``python -m rulelang`` runs the command line."""

import sys

from rulelang.cli.main import main

if __name__ == "__main__":      # not when a worker process (multiprocessing's spawn) imports it
    sys.exit(main())
