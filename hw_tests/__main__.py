"""``python -m hw_tests``: the hardware suite (simulator by default, ``--port`` for a real table) or ``soak``."""

import sys

from hw_tests.cli import main

sys.exit(main())
