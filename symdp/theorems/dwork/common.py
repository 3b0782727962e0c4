"""What the sections of Dwork & Rothblum share: the seed file."""

from __future__ import annotations

SEED = "004_b3a545b59162ae7d.txt"
