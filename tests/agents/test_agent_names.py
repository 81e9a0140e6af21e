"""Agent names: the hand-reading bot is ``handreader``, and ``fold`` still names it."""

from __future__ import annotations

import pytest

from checkraise.agents.base import (
    AgentSpecError,
    agent_help,
    agent_names,
    make_agent,
    split_agent_specs,
)
from checkraise.agents.handreading import HandReadingAgent
from checkraise.arena.ring import RingConfig
from checkraise.arena.tournament import TournamentConfig


@pytest.mark.parametrize("spec", ["handreader", "fold", "fold:samples=50", "handreader:samples=50"])
def test_both_names_build_the_hand_reading_bot(spec: str) -> None:
    assert type(make_agent(spec, seed=1)) is HandReadingAgent


def test_the_registered_name_is_shown_for_the_alias() -> None:
    assert "handreader" in agent_names() and "fold" not in agent_names()
    assert split_agent_specs("fold:samples=50,mode=ring,call") == [
        "handreader:samples=50,mode=ring", "call"
    ]
    assert TournamentConfig(("fold", "call")).labels == ["handreader", "call"]
    assert RingConfig(("fold", "fold"), hands=2).agents == ("handreader", "handreader")


def test_unknown_names_list_the_alias_beside_its_agent() -> None:
    assert "handreader (alias fold)" in agent_help()
    with pytest.raises(AgentSpecError, match=r"unknown agent 'folder'.*handreader \(alias fold\)"):
        make_agent("folder")
    with pytest.raises(AgentSpecError, match="unknown option 'bogus' for agent 'fold'"):
        make_agent("fold:bogus=1")


def test_play_help_names_the_hand_reading_bot() -> None:
    from typer.testing import CliRunner

    from checkraise.cli.main import app

    result = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    # the help text is wrapped to the terminal: compare with the line breaks taken out
    assert result.exit_code == 0 and "handreader (alias fold)" in " ".join(result.output.split())
