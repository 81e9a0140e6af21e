"""Our dealer against our client over loopback TCP: reference logs replayed, built-in agents."""

from __future__ import annotations

from fractions import Fraction

import pytest

from checkraise.agents import make_agent
from checkraise.engine import State
from checkraise.protocol import TimeLimits, load_gamedef, parse_dealer_log
from checkraise.protocol.views import engine_action
from tests.protocol.harness import L2, LOGS, NL2, NL3, ReplayAgent, load_log, run_local_match


@pytest.mark.parametrize(("log_name", "game_name"), LOGS)
def test_replaying_a_reference_match_writes_the_reference_log(
    log_name: str, game_name: str
) -> None:
    """Same seed, same actions: our dealer's log is byte-identical to the reference dealer's."""
    game, text, states, header = load_log(log_name, game_name)
    names = list(states[0].names)  # seat order = the names of hand 0
    agents = [ReplayAgent(states) for _ in names]
    # The reference's defaults; t_per_hand is the match budget divided by the hands.
    limits = TimeLimits(t_response=600_000, t_hand=600_000, t_per_hand=7000, start=10_000)
    log, result, clients = run_local_match(
        game, agents, num_hands=len(states), seed=int(header["seed"]), names=names,
        limits=limits, match_name=header["name"], game_name=header["game"],
    )
    assert [c.error for c in clients] == [None] * len(names)
    assert log == text
    # Each client's own accounting (from its engine) agrees with the dealer's SCORE.
    assert [c.result.total for c in clients] == result.totals
    assert all(c.result.hands == len(states) for c in clients)


@pytest.mark.parametrize(("log_name", "game_name"), [LOGS[1], LOGS[2]])
def test_clients_without_a_game_file_replay_the_no_limit_reference_matches(
    log_name: str, game_name: str
) -> None:
    """Clients told nothing about the game (2 and 3 seats) play the reference match to the chip."""
    game, text, states, header = load_log(log_name, game_name)
    names = list(states[0].names)
    limits = TimeLimits(t_response=600_000, t_hand=600_000, t_per_hand=7000, start=10_000)
    log, result, clients = run_local_match(
        game, [ReplayAgent(states) for _ in names], num_hands=len(states),
        seed=int(header["seed"]), names=names, limits=limits, match_name=header["name"],
        game_name=header["game"], client_game=None,
    )
    assert [c.error for c in clients] == [None] * len(names)
    assert log == text
    assert [c.result.total for c in clients] == result.totals
    assert {c.result.inferred_game for c in clients} == {
        f"{len(names)}-player no-limit hold'em (stacks 20000, blinds 50/100)"
    }


def _replay_nets(game_file: object, log: str) -> None:
    game = load_gamedef(game_file)  # type: ignore[arg-type]
    config = game.to_table_config()
    parsed = parse_dealer_log(log, game=game)
    assert parsed.score is not None
    totals = dict.fromkeys(parsed.score.names, Fraction(0))
    for hand in parsed.states:
        board = tuple(c for group in hand.board for c in group)
        state = State(config, hole_cards=hand.hole_cards, board=board)
        for bet in hand.actions:
            state.step(engine_action(bet, state))
        assert state.is_terminal
        assert tuple(Fraction(v) for v in state.payoffs()) == hand.nets
        for name, net in zip(hand.names, hand.nets, strict=True):
            totals[name] += net
    assert tuple(totals[n] for n in parsed.score.names) == parsed.score.totals


@pytest.mark.parametrize(
    ("game_file", "agent_specs", "hands"),
    [
        (NL2, ["random", "random"], 300),
        (NL3, ["random", "call", "random"], 200),
        (L2, ["random", "raise"], 200),
    ],
)
def test_built_in_agents_play_and_the_log_replays(
    game_file: object, agent_specs: list[str], hands: int
) -> None:
    game = load_gamedef(game_file)  # type: ignore[arg-type]
    agents = [make_agent(spec, seed=11 + i) for i, spec in enumerate(agent_specs)]
    names = [f"P{i}" for i in range(len(agents))]
    log, result, clients = run_local_match(game, agents, num_hands=hands, seed=99, names=names)
    assert [c.error for c in clients] == [None] * len(agents)
    assert result.hands == hands and log.count("\nSTATE:") == hands
    assert [c.result.total for c in clients] == result.totals
    assert sum(result.totals) == 0
    _replay_nets(game_file, log)


def test_same_seed_same_agents_give_byte_identical_logs() -> None:
    game = load_gamedef(NL2)

    def once(seed: int) -> str:
        agents = [make_agent("random", seed=1), make_agent("random", seed=2)]
        return run_local_match(game, agents, num_hands=60, seed=seed, names=["A", "B"])[0]

    first = once(4)
    assert once(4) == first
    assert once(5) != first


def test_swapped_seats_deal_the_same_cards_to_the_other_player() -> None:
    game = load_gamedef(NL2)
    plain = run_local_match(game, [make_agent("call"), make_agent("call")], num_hands=20,
                            seed=8, names=["A", "B"])[0]
    swapped = run_local_match(game, [make_agent("call"), make_agent("call")], num_hands=20,
                              seed=8, names=["B", "A"])[0]
    for a, b in zip(parse_dealer_log(plain).states, parse_dealer_log(swapped).states,
                    strict=True):
        assert a.hole_cards == b.hole_cards and a.board == b.board
        assert a.names == b.names[::-1]
        # A held the cards of position p in one half and of the other position in the other.
        pos_a = a.names.index("A")
        assert b.names[pos_a] == "B"
