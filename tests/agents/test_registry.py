"""The agent registry: specs, options, lazy registration, errors."""

from __future__ import annotations

import subprocess
import sys

import pytest

from checkraise.agents import (
    AGENT_PATHS,
    AgentSpecError,
    BaseAgent,
    agent_names,
    make_agent,
    parse_agent_spec,
    register_agent,
    split_agent_specs,
)
from checkraise.agents.baselines import CallAgent, RandomAgent
from checkraise.engine import Action, Observation


def test_builtin_names_are_registered() -> None:
    assert {"random", "call", "raise", "allin", "checkfold", "equity", "human"} <= set(
        agent_names()
    )


def test_spec_options_are_converted() -> None:
    assert parse_agent_spec("x:a=1,b=2.5,c=true,d=No,e=tight.json") == (
        "x",
        {"a": 1, "b": 2.5, "c": True, "d": False, "e": "tight.json"},
    )
    assert parse_agent_spec(" call ") == ("call", {})


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("nosuchbot", "unknown agent 'nosuchbot'"),
        ("random:bogus=1", "unknown option 'bogus' for agent 'random'"),
        ("random:pfold", "invalid agent option 'pfold'"),
        ("random:pfold=1,pfold=2", "given twice"),
        ("", "invalid agent name"),
        ("random:pfold=-1", "invalid random-agent weights"),
    ],
)
def test_bad_specs_raise_value_errors_naming_the_problem(spec: str, fragment: str) -> None:
    with pytest.raises(AgentSpecError, match=fragment) as info:
        make_agent(spec)
    assert isinstance(info.value, ValueError)


def test_unknown_agent_error_lists_the_available_ones() -> None:
    with pytest.raises(AgentSpecError, match=r"expected one of .*allin.*call"):
        make_agent("nosuchbot")


def test_split_keeps_options_with_their_agent() -> None:
    assert split_agent_specs("random, equity:raise_ratio=2,margin=0.1 ,call") == [
        "random",
        "equity:raise_ratio=2,margin=0.1",
        "call",
    ]
    assert split_agent_specs(["a", "b:x=1", "c"]) == ["a", "b:x=1", "c"]
    with pytest.raises(AgentSpecError, match="follows no 'name:'"):
        split_agent_specs("x=1,call")


def test_options_reach_the_factory() -> None:
    agent = make_agent("random:pfold=0,pcall=1,praise=3", seed=5)
    assert isinstance(agent, RandomAgent)
    assert agent.weights == (0.0, 1.0, 3.0)
    assert agent.seed == 5


class _Folder(BaseAgent):
    def __init__(self, *, seed: int | None = None, loud: bool = False) -> None:
        super().__init__(seed=seed)
        self.loud = loud

    def act(self, observation: Observation) -> Action:
        return Action.fold()


def test_register_agent_decorator_callable_and_lazy_path() -> None:
    try:
        decorated = register_agent("test-folder")(_Folder)
        assert decorated is _Folder
        agent = make_agent("test-folder:loud=true", seed=1)
        assert isinstance(agent, _Folder) and agent.loud is True
        with pytest.raises(AgentSpecError, match=r"unknown option 'quiet'.*expected loud"):
            make_agent("test-folder:quiet=1")

        register_agent("test-caller", CallAgent)
        assert isinstance(make_agent("test-caller"), CallAgent)

        register_agent("test-lazy", "checkraise.agents.baselines:AllInAgent")
        assert AGENT_PATHS["test-lazy"] == "checkraise.agents.baselines:AllInAgent"
        assert type(make_agent("test-lazy")).__name__ == "AllInAgent"
        with pytest.raises(AgentSpecError, match=r"expected 'package\.module:factory'"):
            register_agent("test-bad", "no_colon_here")
        with pytest.raises(AgentSpecError, match="invalid agent name"):
            register_agent("bad:name", CallAgent)
    finally:
        from checkraise.agents import base

        for name in ("test-folder", "test-caller", "test-lazy"):
            base._FACTORIES.pop(name, None)
            AGENT_PATHS.pop(name, None)


def test_registry_import_does_not_import_agent_modules() -> None:
    code = (
        "import sys, checkraise.agents as a; a.agent_names();"
        "print('checkraise.agents.baselines' in sys.modules, 'checkraise.equity' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "False"]


def test_an_agent_that_asks_a_person_is_refused_where_nobody_is_at_the_terminal() -> None:
    from checkraise.agents import base
    from checkraise.agents.base import BaseAgent, is_interactive
    from checkraise.arena.match import InteractiveAgentError, refuse_interactive

    built: list[int] = []

    class Oracle(BaseAgent):
        interactive = True

        def __init__(self, *, seed: int | None = None) -> None:
            built.append(1)
            super().__init__(seed=seed)

    register_agent("test-oracle", Oracle)
    try:
        assert is_interactive("human") and is_interactive("test-oracle")
        assert not is_interactive("call") and not is_interactive("fold")  # fold = handreader
        with pytest.raises(InteractiveAgentError, match="test-oracle"):
            refuse_interactive(["call", "test-oracle"], "match")
        refuse_interactive(["call", "handreader"], "match")
        assert built == []  # decided from the factory, no agent built
    finally:
        base._FACTORIES.pop("test-oracle", None)
