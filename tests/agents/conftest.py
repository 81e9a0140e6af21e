"""Fixtures shared by the agent tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from checkraise.games.holdem_game import HoldemGame
from checkraise.solvers.blueprint import BlueprintTrainer


@pytest.fixture(scope="session")
def blueprint_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small blueprint, trained once per session (the fcpa abstraction, ACPC stacks, a
    short run): strength is not the point, the mapping between the real game and the
    abstract tree is."""
    trainer = BlueprintTrainer(HoldemGame("fcpa"), seed=3)
    trainer.iterate(30_000)
    path = tmp_path_factory.mktemp("bp") / "blueprint.npz"
    trainer.blueprint().save(path)
    return path
