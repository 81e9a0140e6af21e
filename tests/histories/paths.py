"""Where the shared real data lives: ``<repo>/../shared/data``."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / ".." / "shared" / "data"
PLURIBUS = DATA / "pluribus"
ACPC = DATA / "acpc"
