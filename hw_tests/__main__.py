"""``python -m hw_tests``: the hardware suite (the simulator, or ``--port`` for a real table), ``soak``, ``serve``."""

import sys

from hw_tests.cli import main

sys.exit(main())
