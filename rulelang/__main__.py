"""``python -m rulelang`` runs the command line."""

import sys

from rulelang.cli.main import main

sys.exit(main())
