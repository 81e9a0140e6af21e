"""Agents: the protocol every bot implements, the registry, and the baselines.

See :mod:`checkraise.agents.base` for the protocol (``act``, ``begin_hand``,
``end_hand``) and for how to register a new agent in one line. Agent modules are
imported lazily, on first use of their name.
"""

from __future__ import annotations

from checkraise.agents.base import (
    AGENT_PATHS,
    Agent,
    AgentFactory,
    AgentSpecError,
    BaseAgent,
    agent_names,
    make_agent,
    parse_agent_spec,
    register_agent,
    split_agent_specs,
)

__all__ = [
    "AGENT_PATHS",
    "Agent",
    "AgentFactory",
    "AgentSpecError",
    "BaseAgent",
    "agent_names",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "split_agent_specs",
]
