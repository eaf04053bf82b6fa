"""Where the read-only ``shared/`` folder (rule specs, anchor corpora, tile artwork) is: beside the checkout.

``MJTABLE_SHARED`` overrides it, for a checkout that lives elsewhere.
"""

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("MJTABLE_SHARED", REPO.parent / "shared"))
ANCHOR = SHARED / "anchor-data"
