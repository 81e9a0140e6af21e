"""Abstract heads-up no-limit: the betting tree against the engine's ACPC rules, and its configs.

The oracle is :mod:`checkraise.engine` with ``acpc`` rules (the reference dealer's
minimum raise), set up both as ``TableConfig.nolimit(2)`` (seat 0 = button = small
blind = position 0) and from the ACPC reverse-blinds game file (seat 0 is the big
blind there, so position ``p`` sits in seat ``1 - p``). Every node of the tree is
reached by replaying its line in the engine, action by action.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from checkraise.engine import Action, RuleSet, State, TableConfig
from checkraise.errors import ConfigError
from checkraise.games.holdem import (
    CALL,
    DECISION,
    FOLD,
    FOLD_ACTION,
    PRESETS,
    RAISE,
    SHOWDOWN,
    ActionAbstraction,
    BettingTree,
    HoldemRules,
    build_betting_tree,
    load_actions,
)
from tests.engine.acpc_helpers import read_game
from tests.engine.pokerkit_diff import Deal, play

# sizes below the minimum raise, so that the clamp to the minimum is exercised
CLAMP = ActionAbstraction(
    "clamp", sizes=(((4.0,), (2.0,)), ((0.25,),), ((0.25,),), ((0.25,),)), raise_cap=(2, 1, 1, 1)
)
GAME_FILE = Path(__file__).resolve().parents[1] / "data" / "holdem.nolimit.2p.reverse_blinds.game"


def _walk(tree: BettingTree, state: State, seat_of: tuple[int, int], node: int,
          counts: dict[str, int]) -> None:
    """Check ``node`` (already reached in ``state``) and recurse into its children."""
    kind = int(tree.kind[node])
    line = tree.lines[node]
    contrib = state.contributions
    assert [contrib[seat_of[0]], contrib[seat_of[1]]] == tree.committed[node].tolist(), line
    if kind == DECISION:
        counts["decision"] += 1
        assert not state.is_terminal, line
        assert state.current_player == seat_of[int(tree.player[node])], line
        assert state.round == int(tree.street[node]), line
        assert state.acpc_betting() == line, line
        legal = state.legal_actions()
        kinds = [int(tree.act_kind[c]) for c in tree.children(node)]
        # fold exactly when facing a bet; one check/call always
        assert (FOLD_ACTION in kinds) == legal.can_fold, line
        assert kinds.count(CALL) == 1, line
        raises = [int(tree.act_to[c]) for c in tree.children(node) if tree.act_kind[c] == RAISE]
        if legal.max_raise_to is None:
            assert raises == [], line
        else:
            # all-in whenever the engine lets the player raise
            assert raises and raises[-1] == legal.max_raise_to, line
            assert raises == sorted(set(raises)), line
        for child in tree.children(node):
            ak = int(tree.act_kind[child])
            if ak == FOLD_ACTION:
                state.fold()
            elif ak == CALL:
                state.check_call()
            else:
                to = int(tree.act_to[child])
                assert legal.min_raise_to is not None and legal.max_raise_to is not None
                assert legal.min_raise_to <= to <= legal.max_raise_to, (line, to)
                if to < legal.max_raise_to and to == legal.min_raise_to:
                    counts["min_raise"] += 1
                state.raise_to(to)
            assert int(tree.parent[child]) == node
            _walk(tree, state, seat_of, child, counts)
            state.step_back()
        return
    assert state.is_terminal, line
    if kind == FOLD:
        counts["fold"] += 1
        assert state.folded[seat_of[int(tree.player[node])]], line
        assert state.acpc_betting() == line, line
        assert state.round == int(tree.street[node]), line
    else:
        assert kind == SHOWDOWN
        counts["showdown"] += 1
        assert not any(state.folded), line
        # the engine writes the run-out's street marks after an all-in; the tree does not
        assert state.acpc_betting().rstrip("/") == line, line
        if int(tree.street[node]) < 3:
            counts["all_in_early"] += 1
            assert int(tree.committed[node, 0]) == tree.rules.stack, line
        if int(tree.committed[node, 0]) == tree.rules.stack:
            counts["all_in"] += 1


def _engine_configs(stack: int) -> list[tuple[TableConfig, tuple[int, int]]]:
    mine = TableConfig.nolimit(2, stacks=stack, small_blind=50, big_blind=100, rules="acpc")
    acpc = read_game(GAME_FILE).replace(stacks=(stack, stack))
    assert acpc.rules is RuleSet.ACPC and acpc.blinds == (100, 50)
    return [(mine, (0, 1)), (acpc, (1, 0))]


@pytest.mark.parametrize(
    ("preset", "stack"),
    [("tiny", 20000), ("tiny", 1000), ("fcpa", 20000), ("fcpa", 1000), ("small", 20000),
     ("small", 1000), ("small", 350), ("large", 1000), ("clamp", 20000), ("clamp", 1000)],
)
def test_every_abstract_line_replays_legally_in_the_acpc_engine(preset: str, stack: int) -> None:
    tree = build_betting_tree(CLAMP if preset == "clamp" else preset, HoldemRules(stack=stack))
    for config, seat_of in _engine_configs(stack):
        counts = dict.fromkeys(
            ("decision", "fold", "showdown", "min_raise", "all_in", "all_in_early"), 0
        )
        _walk(tree, State(config, seed=1), seat_of, 0, counts)
        assert counts["decision"] == tree.num_decisions
        assert sum(counts[k] for k in ("decision", "fold", "showdown")) == tree.num_nodes
        assert counts["all_in"] > 0 and counts["all_in_early"] > 0
        if preset == "clamp":
            assert counts["min_raise"] > 0, counts


@pytest.mark.parametrize(("preset", "stack"), [("small", 1000), ("clamp", 1000), ("tiny", 20000)])
def test_lines_to_every_sampled_end_play_in_pokerkit(preset: str, stack: int) -> None:
    # PokerKit's card-room rules agree with the ACPC dealer's heads-up (an all-in for
    # less cannot be re-raised by the one player left); pokerkit_diff.play raises on an
    # illegal action and checks every decision and the final stacks by an eval7 model.
    tree = build_betting_tree(CLAMP if preset == "clamp" else preset, HoldemRules(stack=stack))
    config = TableConfig.nolimit(2, stacks=stack, small_blind=50, big_blind=100)
    ends = [n for n in range(tree.num_nodes) if tree.kind[n] != DECISION]
    rng = random.Random(stack)
    cards = tuple(range(0, 52, 5))[:9]
    for end in rng.sample(ends, min(len(ends), 120)):
        path = []
        node = end
        while node > 0:
            path.append(node)
            node = int(tree.parent[node])
        actions = tuple(
            Action.fold() if tree.act_kind[n] == FOLD_ACTION
            else Action.call() if tree.act_kind[n] == CALL
            else Action.raise_to(int(tree.act_to[n]))
            for n in reversed(path)
        )
        outcome = play(Deal(config, cards=cards, actions=actions))
        assert outcome.showdown == (tree.kind[end] == SHOWDOWN)


def test_known_sizes_of_the_small_preset() -> None:
    # Worked by hand: preflop raise-to in big blinds (2.5 and 4 open, 9 for the 3-bet,
    # whose minimum is 2 * 250 - 100 = 400); after the flop, to = max + f * (pot + to_call).
    tree = build_betting_tree("small")

    def options(line: str) -> list[str]:
        return [tree.action_token(c) for c in tree.children(tree.find(line))]

    assert options("") == ["f", "c", "r250", "r400", "r20000"]
    assert options("r250") == ["f", "c", "r900", "r20000"]
    assert options("r250r900") == ["f", "c", "r2200", "r20000"]
    # pot 500 on the flop: half pot 250 more, 1.5 pot 750 more
    assert options("r250c/") == ["c", "r500", "r1000", "r20000"]
    # bet to 500 faced: pot after calling 1000, the raise goes to 500 + 1000
    assert options("r250c/r500") == ["f", "c", "r1500", "r20000"]
    # the cap of 2 sized raises on the flop leaves fold, call, all-in
    assert options("r250c/r500r1500") == ["f", "c", "r20000"]
    # turn after r250c/cc/, pot 500: half pot 250 more, 1.5 pot 750 more
    assert options("r250c/cc/") == ["c", "r500", "r1000", "r20000"]
    # river after r250c/cc/cc/, pot 500: 0.5, 1 and 2.5 pots are 250, 500 and 1,250 more
    assert options("r250c/cc/cc/") == ["c", "r500", "r750", "r1500", "r20000"]


def test_minimum_raise_clamp_and_all_in_for_less() -> None:
    # Sizes below the minimum raise become the minimum raise (worked by hand):
    # preflop 3-bet of 2 BB after r400 -> minimum 2 * 400 - 100 = 700; a quarter-pot
    # flop bet after cc/ (100 + 50 = 150) -> the minimum bet of one big blind, to 200.
    tree = build_betting_tree(CLAMP, HoldemRules(stack=1000))

    def options(line: str) -> list[str]:
        return [tree.action_token(c) for c in tree.children(tree.find(line))]

    assert options("r400") == ["f", "c", "r700", "r1000"]
    assert options("cc/") == ["c", "r200", "r1000"]
    # stack 350: the 4 BB open is all-in, and after r250 the minimum re-raise (400)
    # is above the stack, so the only raise is all-in for less
    tree = build_betting_tree("small", HoldemRules(stack=350))

    def options2(line: str) -> list[str]:
        return [tree.action_token(c) for c in tree.children(tree.find(line))]

    assert options2("") == ["f", "c", "r250", "r350"]
    assert options2("r250") == ["f", "c", "r350"]
    # called all-in: a showdown with no more betting
    assert tree.kind[tree.find("r250r350c")] == SHOWDOWN


def test_tree_shape_facts() -> None:
    tree = build_betting_tree("tiny", HoldemRules(stack=400))
    assert tree.num_nodes == tree.kind.shape[0] == len(tree.lines)
    assert int(tree.parent[0]) == -1 and tree.lines[0] == ""
    # breadth-first with contiguous children
    for node in range(1, tree.num_nodes):
        parent = int(tree.parent[node])
        assert node in tree.children(parent)
        assert tree.lines[node].startswith(tree.lines[parent].rstrip("/"))
    for node in tree.decision_nodes:
        assert tree.decision[node] >= 0 and tree.num_children[node] >= 2
    assert (tree.decision[tree.kind != DECISION] == -1).all()
    assert tree.max_actions == 4


# -- validation of the configs


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"stack": 0}, "stack=0"),
        ({"stack": 1.5}, "stack=1.5"),
        ({"stack": True}, "stack=True"),
        ({"small_blind": -5}, "small_blind=-5"),
        ({"big_blind": "100"}, "big_blind='100'"),
        ({"small_blind": 150}, "small_blind=150"),
        ({"stack": 99}, "stack=99"),
    ],
)
def test_bad_rules_name_the_value(fields: dict[str, object], named: str) -> None:
    with pytest.raises(ConfigError) as err:
        HoldemRules(**fields)  # type: ignore[arg-type]
    assert named in str(err.value)


GOOD_SIZES = (((2.0,),), ((1.0,),), ((1.0,),), ((1.0,),))


@pytest.mark.parametrize(
    ("sizes", "cap", "named"),
    [
        (GOOD_SIZES[:3], (1, 1, 1, 1), "sizes has 3 streets"),
        ("2,1,1,1", (1, 1, 1, 1), "sizes has 2,1,1,1 streets"),
        ((((2.0,),), (), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "sizes.flop=()"),
        ((((2.0,),), (1.0,), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "sizes.flop[0]=1.0"),
        ((((2.0,),), ((0.0,),), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "size 0.0"),
        ((((2.0,),), ((1.0,),), ((-0.5,),), ((1.0,),)), (1, 1, 1, 1), "turn[0] has size -0.5"),
        ((((2.0,),), ((1.0,),), ((1.0,),), ((float("nan"),),)), (1, 1, 1, 1), "size nan"),
        ((((2.0,),), ((1.0,),), ((1.0,),), ((float("inf"),),)), (1, 1, 1, 1), "size inf"),
        ((((True,),), ((1.0,),), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "size True"),
        ((((2.0,), ("3",)), ((1.0,),), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "[1] has size '3'"),
        ((((2.0, 2.0),), ((1.0,),), ((1.0,),), ((1.0,),)), (1, 1, 1, 1), "preflop[0]=(2.0, 2.0)"),
        (GOOD_SIZES, (1, 1, 1), "raise_cap=(1, 1, 1)"),
        (GOOD_SIZES, (1, 1, 1, 9), "raise_cap=(1, 1, 1, 9)"),
        (GOOD_SIZES, (1, -1, 1, 1), "raise_cap=(1, -1, 1, 1)"),
        (GOOD_SIZES, (1, 1.0, 1, 1), "raise_cap=(1, 1.0, 1, 1)"),
        (GOOD_SIZES, 3, "raise_cap=3"),
    ],
)
def test_bad_action_abstractions_name_the_value(sizes: object, cap: object, named: str) -> None:
    with pytest.raises(ConfigError) as err:
        ActionAbstraction("bad", sizes=sizes, raise_cap=cap)  # type: ignore[arg-type]
    assert named in str(err.value), str(err.value)


def test_sizes_are_sorted_and_stored_as_tuples() -> None:
    a = ActionAbstraction("x", sizes=[[[4, 2.5]], [[1]], [[1]], [[0.5, 1]]],  # type: ignore[arg-type]
                          raise_cap=[1, 2, 3, 4])  # type: ignore[arg-type]
    assert a.sizes == (((2.5, 4.0),), ((1.0,),), ((1.0,),), ((0.5, 1.0),))
    assert a.raise_cap == (1, 2, 3, 4)
    hash(a)  # frozen and hashable once normalised


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_dict_round_trip(name: str) -> None:
    a = PRESETS[name]
    d = json.loads(json.dumps(a.to_dict()))
    assert ActionAbstraction.from_dict(d) == a
    assert load_actions(d) == a
    assert load_actions(a) is a
    assert load_actions(f" {name.upper()} ") is a


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"colour": "red"}, "'colour'"),
        ({"sizes": {"preflop": [[2]], "flop": [[1]], "turn": [[1]]}}, "sizes={"),
        ({"sizes": [[[2]], [[1]], [[1]], [[1]]]}, "sizes=[[[2]]"),
        ({"raise_cap": 3}, "raise_cap=3"),
        ({"raise_cap": None}, "raise_cap=None"),
        ({"raise_cap": [1, 1]}, "raise_cap=[1, 1]"),
    ],
)
def test_bad_dicts_give_one_config_error(change: dict[str, object], named: str) -> None:
    d = dict(PRESETS["tiny"].to_dict(), **change)
    with pytest.raises(ConfigError) as err:
        ActionAbstraction.from_dict(d)
    assert named in str(err.value), str(err.value)
    with pytest.raises(ConfigError, match="expected a mapping"):
        ActionAbstraction.from_dict([1, 2])  # type: ignore[arg-type]


def test_load_actions_from_a_json_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.json"
    d = dict(PRESETS["small"].to_dict(), name="mine")
    path.write_text(json.dumps(d))
    a = load_actions(str(path))
    assert a.name == "mine" and a.sizes == PRESETS["small"].sizes
    assert build_betting_tree(str(path)).num_nodes == build_betting_tree("small").num_nodes
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ConfigError, match=r"bad\.json'? is not JSON"):
        load_actions(str(bad))
    with pytest.raises(ConfigError, match="unknown action abstraction 'huge'; expected one of"):
        load_actions("huge")


def test_find_good_and_bad_lines() -> None:
    tree = build_betting_tree("fcpa")
    for node in range(tree.num_nodes):
        assert tree.find(tree.lines[node]) == node
    # the street mark is optional where a street has just begun; spaces are ignored
    assert tree.find("r300c") == tree.find("r300c/") == tree.find(" r300 c / ")
    assert tree.kind[tree.find("r300c/r900f")] == FOLD
    bad = [
        ("r250", "at 'r250' expected one of"),
        ("cc/cc/cc/cc/", "betting tree at 'cc/cc/cc/cc'"),
        ("f c", "the hand is over at 'f'"),
        ("c/", "betting tree at 'c/'"),
        ("r300c//", "betting tree at 'r300c/'"),
        ("r300x", "unexpected 'x' at offset 4"),
        ("rc", "'r' at offset 0 needs an amount"),
    ]
    for line, message in bad:
        with pytest.raises(ConfigError) as err:
            tree.find(line)
        assert message in str(err.value), (line, str(err.value))
        assert repr(line) in str(err.value)
