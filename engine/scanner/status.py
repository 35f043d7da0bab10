"""Where the learned layer's artifact lives, and whether it is on: numpy-free, so
importing the engine (and the app) does not load numpy before the first scan."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

MODEL_DIR = Path(__file__).resolve().parent / "model"
WEIGHTS_FILE = "weights.npy"
META_FILE = "meta.json"


@dataclass(frozen=True)
class LearnedStatus:
    """Whether the learned layer is on; when off, why (shown by ``stats`` and the app)."""

    enabled: bool
    message: str
    threshold: Optional[float] = None
    trained_on: Optional[dict] = None

    def to_dict(self) -> dict:
        return {"enabled": self.enabled, "message": self.message, "threshold": self.threshold, "trained_on": self.trained_on}
