"""Blueprint training in shards on an execution backend (Ray or local processes)."""

from __future__ import annotations

from typing import Any

from checkraise.errors import ConfigError

__all__ = ["ShardedStep"]


class ShardedStep:
    """Placeholder until sharded training lands: refuses with a clear error."""

    def __init__(self, backend: Any, workers: int) -> None:
        raise ConfigError("--backend ray: sharded blueprint training is not available yet")

    def __call__(self, trainer: Any, iterations: int) -> None:
        raise NotImplementedError
