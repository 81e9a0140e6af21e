"""Error messages list valid choices as prose ("a, b or c"), never as a Python tuple or list."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from checkraise.errors import CheckraiseError, one_of


def test_one_of() -> None:
    assert one_of(("cfr", "cfr+", "dcfr")) == "cfr, cfr+ or dcfr"
    assert one_of(iter(["a", "b"])) == "a or b"
    assert one_of([3]) == "3" and one_of([]) == "nothing"


def _unknown_algorithm() -> None:
    from checkraise.games import KuhnPoker
    from checkraise.solvers import make_solver

    make_solver("cfr++", KuhnPoker())


def _no_vectorised() -> None:
    from checkraise.games import KuhnPoker
    from checkraise.solvers import make_solver

    make_solver("fp", KuhnPoker(), vectorised=True)


def _unknown_game() -> None:
    from checkraise.games import load_game

    load_game("chess")


def _unknown_agent() -> None:
    from checkraise.agents.base import make_agent

    make_agent("grandmaster")


def _illegal_action() -> None:
    from checkraise.games import KuhnPoker

    state = KuhnPoker().initial_state()
    while state.is_chance_node():
        state = state.child(state.chance_outcomes()[0][0])
    state.check_action(7)


@pytest.mark.parametrize(
    "make_error", [_unknown_algorithm, _no_vectorised, _unknown_game, _unknown_agent,
                   _illegal_action],
)
def test_choices_are_listed_as_prose(make_error: Callable[[], None]) -> None:
    with pytest.raises(CheckraiseError) as info:
        make_error()
    message = str(info.value)
    assert not re.search(r"[(\[]'", message), message  # no ('a', 'b') or ['a', 'b']
    assert not re.search(r"\[\d", message), message  # no [0, 1]
    assert re.search(r"expected one of [^,]+(, [^,]+)* or \S+", message), message


def test_no_module_raises_a_plain_value_error() -> None:
    # Bad input raises the project's errors, so the CLI can tell it from a bug of ours.
    src = Path(__file__).resolve().parents[1] / "src" / "checkraise"
    plain = [f"{p.relative_to(src)}:{i}" for p in sorted(src.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\braise ValueError\b", line)]
    assert not plain, plain
