"""The agent protocol and the registry that names agents on the command line.

The protocol (a contract shared by the arena, the ACPC client and the human seat)
------------------------------------------------------------------------------

An agent is any object with

``act(observation: Observation) -> Action``
    Required. Called when it is the agent's turn; ``observation`` is
    :meth:`checkraise.engine.State.observation` for the agent's seat, so it holds
    only what that seat may know and ``observation.legal`` is not ``None``. The
    returned :class:`~checkraise.engine.Action` must be legal (a raise amount is
    the total contribution for the whole hand, ACPC style); an illegal action is
    an error of the agent, not silently corrected.

and, optionally, the two hooks below. Callers test for them with ``getattr`` and
call them **positionally, in this order**, so implementations may name the
parameters as they like but must accept exactly these four and two arguments.

``begin_hand(seat, config, hole_cards, hand_number) -> None``
    Called once per hand for every seated agent, after the blinds are posted and
    the cards dealt, before anyone acts.

    - ``seat: int`` — this agent's engine seat for this hand. Seats are
      positional for one hand: in ring games (3+ seats) seat 0 posts the small
      blind, seat 1 the big blind, seat ``n-1`` is the button; heads-up, seat 0
      is the button and small blind. Arenas move *agents* over seats between
      hands.
    - ``config: TableConfig`` — the hand's rules: number of seats, the stacks at
      the start of the hand, blinds, ante.
    - ``hole_cards: tuple[int, ...]`` — this agent's own cards only.
    - ``hand_number: int`` — 0-based hand counter of the session (the ACPC
      ``handNumber``); it increases by one per hand the agent is dealt into in a
      match, and is the table's hand counter in a tournament.

``end_hand(observation, payoffs) -> None``
    Called once per hand for every agent that got ``begin_hand``, when the hand
    is over.

    - ``observation: Observation`` — the final view for this seat:
      ``current_player`` and ``legal`` are ``None``; it holds the board as far as
      it was dealt, every public action (``observation.history``), the final
      stacks, and in ``observation.shown`` the cards of the other seats *only*
      where they were shown at showdown (``None`` for mucked or folded hands).
    - ``payoffs: tuple[int | Fraction, ...]`` — net chips won or lost per seat,
      as the dealer announces them (``Fraction`` only for ACPC odd-chip splits).

Two more optional members serve range tracking:

``action_probabilities(observation) -> HandActionProbabilities | None``
    Optional, called like ``act`` (the agent's turn, any time during the hand) and
    must not change the agent's state. It gives the probability of each action for
    every hand the agent could hold, an array over the 1,326 combos with zero rows for
    hands that clash with the board (:mod:`checkraise.agents.probabilities`); range
    tracking (local best response, subgame solving) reads it through
    :func:`checkraise.agents.probabilities.action_probabilities`, which queries
    ``act`` once per hand on copies of the agent when the method is missing or
    returns ``None`` (no fast path in this situation).

``deterministic: bool`` (class attribute, default ``False``)
    ``True`` when ``act`` is a function of the observation and of what
    ``begin_hand`` received, with no random draw: then querying ``act`` hand by hand
    gives exact probabilities, otherwise they are marked as samples.

Agents should draw every random number from a :class:`numpy.random.Generator`
built from the ``seed`` they are constructed with, so a match is reproducible.
:class:`BaseAgent` supplies that generator and no-op hooks.

The registry
------------

Agents are named by a *spec* ``name[:option=value,option=value...]``, for example
``random``, ``equity:raise_ratio=1.5`` or ``heuristic:profile=tight.json``.
:func:`make_agent` parses the spec and calls the registered factory as
``factory(seed=seed, **options)``; option values that read as ``int``,
``float`` or ``true``/``false`` are converted, the rest stay ``str``. Unknown
names or options raise :class:`AgentSpecError` (a ``ValueError``) that lists
what is available.

**Registering a new agent is one line.** Either add the lazy path of its factory
to :data:`AGENT_PATHS` below (``"heuristic": "checkraise.agents.heuristic:HeuristicAgent"``),
so the module is imported only when the agent is first asked for — this is the
way for agents shipped with checkraise, and it also works in worker processes —
or register it at run time::

    @register_agent("mybot")
    class MyBot(BaseAgent):
        def act(self, observation): ...

An alias in :data:`AGENT_ALIASES` is another spelling of a registered name
(``fold``, the hand-reading paper's name for its agent, is ``handreader``);
specs are rewritten to the registered name, so tables and logs show one name.

``register_agent("mybot", "mypackage.bots:MyBot")`` registers a lazy path at run
time. Run-time registrations live in the process that made them; tournaments use
worker processes forked from it (the default on Linux), so they see them too.

Examples
--------
>>> agent = make_agent("call", seed=1)
>>> type(agent).__name__
'CallAgent'
>>> parse_agent_spec("equity:raise_ratio=1.5,margin=0.05")
('equity', {'raise_ratio': 1.5, 'margin': 0.05})
>>> split_agent_specs("random,equity:raise_ratio=1.5,margin=0.05,call")
['random', 'equity:raise_ratio=1.5,margin=0.05', 'call']
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from checkraise.errors import CheckraiseError, one_of

if TYPE_CHECKING:
    from checkraise.engine import Action, Observation, TableConfig

__all__ = [
    "AGENT_ALIASES",
    "AGENT_PATHS",
    "Agent",
    "AgentFactory",
    "AgentSpecError",
    "BaseAgent",
    "agent_help",
    "agent_names",
    "call_begin_hand",
    "call_end_hand",
    "canonical_spec",
    "is_interactive",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "split_agent_specs",
]


class AgentSpecError(CheckraiseError):
    """An agent spec names an unknown agent or option, or is malformed."""


@runtime_checkable
class Agent(Protocol):
    """Anything that can take a seat: ``act(observation) -> Action`` (hooks optional)."""

    def act(self, observation: Observation) -> Action:
        """Return the action to take in ``observation`` (it is this seat's turn)."""
        ...


AgentFactory = Callable[..., Agent]
"""Called as ``factory(seed=seed, **options)``; returns a fresh agent."""


class BaseAgent:
    """Convenience base: a seeded generator in ``self.rng`` and no-op hooks.

    Parameters
    ----------
    seed : int or None
        Seed of ``self.rng``.
    """

    interactive: bool = False
    """True for an agent that asks a person at a terminal (it cannot play unattended)."""

    deterministic: bool = False
    """True when ``act`` draws no random number (see the module docstring)."""

    def __init__(self, *, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> Action:
        """Return the action to take; subclasses implement it."""
        raise NotImplementedError

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        """Hook called before each hand (see the module docstring); does nothing here."""

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """Hook called after each hand (see the module docstring); does nothing here."""


AGENT_PATHS: dict[str, str] = {
    "random": "checkraise.agents.baselines:RandomAgent",
    "call": "checkraise.agents.baselines:CallAgent",
    "raise": "checkraise.agents.baselines:MinRaiseAgent",
    "allin": "checkraise.agents.baselines:AllInAgent",
    "checkfold": "checkraise.agents.baselines:CheckFoldAgent",
    "equity": "checkraise.agents.baselines:EquityAgent",
    "human": "checkraise.agents.human:HumanAgent",
    "handreader": "checkraise.agents.handreading:HandReadingAgent",
    "heuristic": "checkraise.agents.heuristic:HeuristicAgent",
    "blueprint": "checkraise.agents.blueprint:BlueprintAgent",
    "resolve": "checkraise.agents.resolve:ResolveAgent",
    "expert": "checkraise.agents.expert:ExpertAgent",
    "deepfool": "checkraise.agents.deepfool:DeepFoolAgent",
}
"""Agents shipped with checkraise: name -> ``"module:factory"``, imported on first use."""

AGENT_ALIASES: dict[str, str] = {
    "fold": "handreader",  # the hand-reading paper calls its agent FOLD
}
"""Other spec names for registered agents: alias -> name. Specs are rewritten to the name
(:func:`split_agent_specs`), so tables and logs show one name per agent."""

_FACTORIES: dict[str, AgentFactory] = {}

F = TypeVar("F", bound=Callable[..., Any])


def register_agent(name: str, factory: AgentFactory | str | None = None) -> Any:
    """Register ``factory`` (a callable or a lazy ``"module:attr"`` path) under ``name``.

    Without ``factory`` it returns a decorator. Re-registering a name replaces it.

    Examples
    --------
    >>> from checkraise.agents.baselines import CallAgent
    >>> _ = register_agent("doc-caller", CallAgent)
    >>> type(make_agent("doc-caller")).__name__
    'CallAgent'
    """
    _check_name(name)
    if factory is None:

        def decorator(obj: F) -> F:
            _FACTORIES[name] = obj
            AGENT_PATHS.pop(name, None)
            return obj

        return decorator
    if isinstance(factory, str):
        if ":" not in factory:
            raise AgentSpecError(
                f"invalid agent path {factory!r}: expected 'package.module:factory'"
            )
        AGENT_PATHS[name] = factory
        _FACTORIES.pop(name, None)
    else:
        _FACTORIES[name] = factory
        AGENT_PATHS.pop(name, None)
    return factory


def agent_names() -> list[str]:
    """Names of every registered agent, sorted (aliases not included).

    Examples
    --------
    >>> {"random", "call", "raise", "allin", "equity", "handreader"} <= set(agent_names())
    True
    """
    return sorted(set(AGENT_PATHS) | set(_FACTORIES))


def agent_help() -> str:
    """The registered agent names for help texts, each alias beside its agent.

    Examples
    --------
    >>> "handreader (alias fold)" in agent_help()
    True
    """
    aliases: dict[str, list[str]] = {}
    for alias, name in AGENT_ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return one_of(
        f"{name} (alias {', '.join(aliases[name])})" if name in aliases else name
        for name in agent_names()
    )


def canonical_spec(spec: str) -> str:
    """``spec`` with an aliased agent name replaced by the registered name.

    A name registered in its own right wins over an alias of the same spelling.

    Examples
    --------
    >>> canonical_spec("fold:samples=100"), canonical_spec("call")
    ('handreader:samples=100', 'call')
    """
    name, colon, rest = spec.strip().partition(":")
    name = name.strip()
    if name in _FACTORIES or name in AGENT_PATHS or name not in AGENT_ALIASES:
        return spec.strip()
    return AGENT_ALIASES[name] + colon + rest


def _check_name(name: str) -> None:
    if not name or any(ch in name for ch in ":,=; ") or name != name.strip():
        raise AgentSpecError(
            f"invalid agent name {name!r}: expected a non-empty name without ':', ',', '=', ';' "
            "or spaces"
        )


def _factory(name: str) -> AgentFactory:
    if name in _FACTORIES:
        return _FACTORIES[name]
    path = AGENT_PATHS.get(name)
    if path is None and name in AGENT_ALIASES:
        return _factory(AGENT_ALIASES[name])
    if path is None:
        raise AgentSpecError(f"unknown agent {name!r}: expected one of {agent_help()}")
    module_name, _, attr = path.partition(":")
    module = importlib.import_module(module_name)
    factory: AgentFactory = getattr(module, attr)
    return factory


def _convert(text: str) -> int | float | bool | str:
    low = text.lower()
    if low in ("true", "yes"):
        return True
    if low in ("false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def parse_agent_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split ``"name:opt=val,opt=val"`` into the name and converted options.

    Examples
    --------
    >>> parse_agent_spec("heuristic:profile=tight.json,verbose=true")
    ('heuristic', {'profile': 'tight.json', 'verbose': True})
    """
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    _check_name(name)
    options: dict[str, Any] = {}
    if rest.strip():
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            key = key.strip()
            if not eq or not key.isidentifier():
                raise AgentSpecError(
                    f"invalid agent option {item!r} in {spec!r}: expected 'name:option=value,...'"
                )
            if key in options:
                raise AgentSpecError(f"agent option {key!r} given twice in {spec!r}")
            options[key] = _convert(value.strip())
    return name, options


def split_agent_specs(text: str | Sequence[str]) -> list[str]:
    """Split a comma-separated list of specs, keeping ``opt=val`` items with their agent.

    A comma-separated item that contains ``=`` but no ``:`` continues the
    options of the spec before it. A sequence of strings is split item by item.
    Aliases become the registered name (:func:`canonical_spec`).

    Examples
    --------
    >>> split_agent_specs(["random,call", "equity:margin=0.1,raise_ratio=2"])
    ['random', 'call', 'equity:margin=0.1,raise_ratio=2']
    >>> split_agent_specs("fold,heuristic")
    ['handreader', 'heuristic']
    """
    items = [text] if isinstance(text, str) else list(text)
    specs: list[str] = []
    for chunk in items:
        for part in chunk.split(","):
            part = part.strip()
            if not part:
                continue
            if "=" in part and ":" not in part:
                if not specs or ":" not in specs[-1]:
                    raise AgentSpecError(
                        f"invalid agent list {chunk!r}: option {part!r} follows no 'name:'"
                    )
                specs[-1] += "," + part
            else:
                specs.append(part)
    return [canonical_spec(spec) for spec in specs]


def is_interactive(spec: str) -> bool:
    """Whether the agent of ``spec`` asks a person (its factory's ``interactive`` flag).

    Decided from the registered factory, without building the agent.

    Examples
    --------
    >>> is_interactive("human"), is_interactive("heuristic:samples=50")
    (True, False)
    """
    name, _ = parse_agent_spec(spec)
    return bool(getattr(_factory(name), "interactive", False))


def make_agent(spec: str, *, seed: int | None = None) -> Agent:
    """Build a fresh agent from ``spec`` (``"name:opt=val,..."``), seeded with ``seed``.

    Examples
    --------
    >>> agent = make_agent("random:pfold=0", seed=7)
    >>> type(agent).__name__
    'RandomAgent'
    """
    name, options = parse_agent_spec(spec)
    factory = _factory(name)
    _check_options(name, factory, options)
    try:
        agent = factory(seed=seed, **options)
    except AgentSpecError:
        raise
    except (TypeError, ValueError) as exc:
        raise AgentSpecError(f"agent {spec!r} could not be built: {exc}") from exc
    if not callable(getattr(agent, "act", None)):
        raise AgentSpecError(f"agent {name!r} has no act(observation) method")
    return agent


def _check_options(name: str, factory: AgentFactory, options: dict[str, Any]) -> None:
    try:
        params = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    known = [
        p.name
        for p in params.values()
        if p.kind in (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        and p.name not in ("self", "seed")
    ]
    for key in options:
        if key not in known:
            expected = one_of(known) if known else "no options"
            raise AgentSpecError(
                f"unknown option {key!r} for agent {name!r}: expected {expected}"
            )


def call_begin_hand(
    agent: Agent, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
) -> None:
    """Call ``agent.begin_hand`` if the agent defines it."""
    hook = getattr(agent, "begin_hand", None)
    if hook is not None:
        hook(seat, config, hole_cards, hand_number)


def call_end_hand(
    agent: Agent, observation: Observation, payoffs: tuple[int | Fraction, ...]
) -> None:
    """Call ``agent.end_hand`` if the agent defines it."""
    hook = getattr(agent, "end_hand", None)
    if hook is not None:
        hook(observation, payoffs)
