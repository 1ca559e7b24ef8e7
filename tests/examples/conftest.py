"""The example recipes are scripts, not packages of gpuops: their directory goes on the path, as in the container."""

from __future__ import annotations

import sys
from pathlib import Path

SFT = Path(__file__).resolve().parents[2] / "examples" / "sft"
if str(SFT) not in sys.path:
    sys.path.insert(0, str(SFT))
