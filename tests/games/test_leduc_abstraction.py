"""Abstracted Leduc: the same game tree, coarser information sets with perfect recall."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.errors import ConfigError, FormatError
from checkraise.games import LeducPoker, build_tree
from checkraise.games.leduc_abstraction import AbstractLeduc, LeducAbstraction, abstract_key


@pytest.mark.parametrize("abstraction", list(LeducAbstraction))
def test_same_histories_chance_and_payoffs_as_leduc(abstraction: LeducAbstraction) -> None:
    real = build_tree(LeducPoker())
    abstract = build_tree(AbstractLeduc(abstraction))
    for field in ("kind", "player", "parent", "action", "prob", "returns"):
        assert np.array_equal(getattr(real, field), getattr(abstract, field)), field


# Counted by hand: 6 first-round points; 5 lines into round two x 6 second-round points.
# none: 3 ranks x 6 + 5 x 6 x (3 boards x 3 ranks) = 288.
# jq: 2 buckets x 6 + 5 x 6 x (J board: JQ paired, JQ not, K; Q board: the same; K board:
# JQ, K paired) = 12 + 240. jq-round1: 2 x 6 + 270. jq-paired: 2 x 6 + 5 x 6 x 4 = 132.
@pytest.mark.parametrize(
    ("abstraction", "count"), [("none", 288), ("jq", 252), ("jq-round1", 282), ("jq-paired", 132)]
)
def test_information_set_counts(abstraction: str, count: int) -> None:
    assert build_tree(AbstractLeduc(abstraction)).num_infosets == count


@pytest.mark.parametrize("abstraction", list(LeducAbstraction))
def test_perfect_recall(abstraction: LeducAbstraction) -> None:
    """A second-round abstract key determines its first-round abstract key."""
    first_of: dict[str, set[str]] = {}
    for key in build_tree(LeducPoker()).infoset_keys:
        if "/" in key:
            first = abstract_key(abstraction, key.split("/")[0])
            first_of.setdefault(abstract_key(abstraction, key), set()).add(first)
    assert all(len(firsts) == 1 for firsts in first_of.values())


def test_what_each_abstraction_tells_apart() -> None:
    jq = LeducAbstraction.JQ
    assert abstract_key(jq, "Js:cr") == abstract_key(jq, "Qh:cr") != abstract_key(jq, "Ks:cr")
    # On a K board the J and the Q look alike; on a J board pairing tells them apart.
    assert abstract_key(jq, "Js:cc/Ks:r") == abstract_key(jq, "Qs:cc/Kh:r")
    assert abstract_key(jq, "Js:cc/Jh:r") != abstract_key(jq, "Qs:cc/Jh:r")
    paired = LeducAbstraction.JQ_PAIRED
    assert abstract_key(paired, "Ks:cc/Qh:") == abstract_key(paired, "Ks:cc/Jh:")
    finer = LeducAbstraction.JQ_ROUND1
    assert abstract_key(finer, "Js:cc/Kh:") != abstract_key(finer, "Qs:cc/Kh:")
    assert abstract_key(LeducAbstraction.NONE, "Js:") == abstract_key(LeducAbstraction.NONE, "Jh:")


def test_bad_names_and_keys_are_refused() -> None:
    with pytest.raises(ConfigError, match=r"'jk'.*expected one of none, jq"):
        AbstractLeduc("jk")
    with pytest.raises(FormatError, match="'Xs:c'"):
        abstract_key(LeducAbstraction.JQ, "Xs:c")
    with pytest.raises(FormatError, match="'Js:c/K:'"):
        abstract_key(LeducAbstraction.JQ, "Js:c/K:")
