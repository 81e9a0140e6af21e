"""The expert agent: legal actions everywhere, options checked, the cnn=true path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from checkraise.agents import expert as expert_module
from checkraise.agents.base import AgentSpecError, make_agent
from checkraise.agents.baselines import RandomAgent
from checkraise.agents.expert import ExpertAgent, KnowledgeOpponentModel
from checkraise.cards import parse_cards
from checkraise.engine import Action, State, TableConfig
from checkraise.errors import CheckraiseError, ConfigError


def _random_spot(rng: np.random.Generator) -> State:
    """A heads-up state some random legal actions into a hand, with the seat to act."""
    stacks = (int(rng.integers(300, 30_000)), int(rng.integers(300, 30_000)))
    small = int(rng.integers(1, 60))
    config = TableConfig.nolimit(2, stacks=stacks, small_blind=small, big_blind=2 * small)
    while True:
        state = State(config, seed=int(rng.integers(2**31)))
        walker = RandomAgent(seed=int(rng.integers(2**31)), pfold=0.02)
        for _ in range(int(rng.integers(0, 9))):
            if state.is_terminal:
                break
            state.step(walker.act(state.observation(state.current_player)))
        if not state.is_terminal:
            return state


def test_expert_returns_legal_actions_on_random_spots() -> None:
    rng = np.random.default_rng(2026)
    bot = ExpertAgent(seed=3, seconds=0.02, hands=12, samples=3)
    streets = set()
    for _ in range(60):
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        action = bot.act(obs)
        streets.add(obs.round)
        state.copy().step(action)  # raises IllegalActionError if it is not legal
    assert streets == {0, 1, 2, 3}


def test_decisions_report_the_table_hit_rate() -> None:
    rng = np.random.default_rng(7)
    bot = ExpertAgent(seed=1, seconds=0.05, hands=10, samples=3)
    for _ in range(25):
        state = _random_spot(rng)
        bot.act(state.observation(state.current_player))
    stats = bot.stats
    assert stats["decisions"] == 25
    assert 0.0 < stats["tt_hit_rate"] < 1.0
    postflop = [d for d in bot.decisions if d["street"] != "preflop"]
    assert postflop and all(d["lookups"] >= d["hits"] >= 0 for d in postflop)


def test_registered_with_its_options() -> None:
    agent = make_agent("expert:cnn=false,seconds=0.1", seed=4)
    assert isinstance(agent, ExpertAgent) and agent.seconds == 0.1
    with pytest.raises(AgentSpecError, match="seconds"):
        make_agent("expert:seconds=0", seed=1)
    with pytest.raises(AgentSpecError, match="hands"):
        make_agent("expert:hands=0", seed=1)
    with pytest.raises(AgentSpecError, match="unknown option"):
        make_agent("expert:depth=2", seed=1)


def test_rejects_a_ring_table() -> None:
    bot = ExpertAgent(seed=1)
    with pytest.raises(ConfigError, match="heads-up"):
        bot.begin_hand(0, TableConfig.nolimit(3), (0, 1), 1)


class _AlwaysCall:
    """A fake opponent model: every hand checks or calls; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        self.calls += 1
        rows = np.zeros((len(holes), 6))
        rows[:, 1] = 1.0
        return rows


def test_cnn_true_uses_the_cnn_model(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _AlwaysCall()
    monkeypatch.setattr(expert_module, "_cnn_model", lambda: fake)
    bot = ExpertAgent(seed=2, cnn=True, seconds=0.05, hands=8)
    assert bot.model is fake and bot.search.model is fake
    # A calling station never folds: with the nuts on the river the bot bets (a bet
    # gains what he calls, a check gains nothing), and he never represents anything.
    config = TableConfig.nolimit(2, stacks=20_000)
    state = State(config, hole_cards=[parse_cards("AhKh"), None],
                  board=parse_cards("Qh Jh Th 2c 3d"), seed=1)
    for action in (Action.call(), Action.call()):  # limp, check: flop
        state.step(action)
    for _ in range(3):  # the big blind checks, the button checks: next street
        state.step(Action.call())
        if state.round == 3:
            break
        state.step(Action.call())
    while state.current_player != 0:
        state.step(Action.call())
    action = bot.act(state.observation(0))
    assert action.kind.value == "raise"
    assert fake.calls > 0


def test_cnn_true_without_the_module_names_the_option(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> None:
        raise ConfigError("expert:cnn=true needs checkraise.nn.opponent_cnn")

    monkeypatch.setattr(expert_module, "_cnn_model", missing)
    with pytest.raises(ConfigError, match="cnn=true"):
        ExpertAgent(seed=1, cnn=True)


def test_knowledge_model_rows_are_distributions_over_legal_classes() -> None:
    model = KnowledgeOpponentModel()
    rng = np.random.default_rng(5)
    for _ in range(20):
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        holes = np.array([parse_cards("AsAd"), parse_cards("7c2d"), parse_cards("9h8h")])
        dead = set(obs.board)
        holes = np.array([h for h in holes if not set(h) & dead])
        probs = model.predict(obs, holes)
        assert probs.shape == (len(holes), 6)
        np.testing.assert_allclose(probs.sum(axis=1), 1.0)
        if obs.to_call == 0:
            assert np.all(probs[:, 0] == 0.0)  # nobody folds for free


class _Strict:
    """A fake model that, like a real network's encoder may, refuses impossible hands."""

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        board = set(getattr(obs, "board", ()))
        for hole in holes:
            if board & {int(hole[0]), int(hole[1])}:
                raise AssertionError(f"asked about {hole} on board {sorted(board)}")
        rows = np.full((len(holes), 6), 1.0 / 6)
        return rows


def test_the_model_is_never_asked_about_hands_the_board_rules_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_module, "_cnn_model", _Strict)
    bot = ExpertAgent(seed=4, cnn=True, seconds=0.05, hands=12, samples=4)
    rng = np.random.default_rng(11)
    for _ in range(15):
        state = _random_spot(rng)
        action = bot.act(state.observation(state.current_player))
        state.copy().step(action)


class _Short:
    """A broken model: one row too few."""

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        return np.full((max(len(holes) - 1, 0), 6), 1.0 / 6)


def test_a_model_of_the_wrong_shape_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(expert_module, "_cnn_model", _Short)
    bot = ExpertAgent(seed=1, cnn=True, seconds=0.05, hands=6)
    bot.opponent_range = lambda obs: np.ones(1326)  # type: ignore[method-assign]
    state = State(TableConfig.nolimit(2), hole_cards=[parse_cards("AhKh"), None],
                  board=parse_cards("Qh Jh 2c"), seed=1)
    state.step(Action.call())
    state.step(Action.call())
    state.step(Action.raise_to(200))
    with pytest.raises(ConfigError, match=r"opponent model gave shape \(\d+, 6\); expected"):
        bot.act(state.observation(0))


def test_a_cnn_file_is_an_option_of_cnn_true_only(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match=r"model='x\.npz' with cnn=false"):
        make_agent("expert:cnn=false,model=x.npz", seed=1)
    missing = tmp_path / "none.npz"
    with pytest.raises(CheckraiseError, match=r"none\.npz.* does not exist"):
        make_agent(f"expert:model={missing}", seed=1)
    # the shipped network from its own file is the default one
    from importlib.resources import files

    shipped = str(files("checkraise.data").joinpath("opponent_cnn.npz"))
    bot = make_agent(f"expert:model={shipped}", seed=1)
    default = make_agent("expert", seed=1)
    assert isinstance(bot, ExpertAgent) and isinstance(default, ExpertAgent)
    a = bot.model.net.state_dict()  # type: ignore[attr-defined]
    b = default.model.net.state_dict()  # type: ignore[attr-defined]
    assert all(bool((a[k] == b[k]).all()) for k in a)


def test_track_kb_reads_his_range_with_the_knowledge_base(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    fake = _AlwaysCall()
    monkeypatch.setattr(expert_module, "_cnn_model", lambda: fake)
    mixed = ExpertAgent(seed=2, cnn=True, track="kb", seconds=0.05, hands=8)
    knowledge = ExpertAgent(seed=2, cnn=False, seconds=0.05, hands=8)
    assert mixed.search.model is fake  # his nodes in the tree: the CNN's predictions
    rng = np.random.default_rng(7)
    seen = 0
    while seen < 5:
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        if not any(seat != obs.seat for seat, _, _ in obs.history):
            continue  # he has not acted yet: nothing to read
        seen += 1
        np.testing.assert_array_equal(mixed.opponent_range(obs), knowledge.opponent_range(obs))
    assert fake.calls == 0  # his range: the knowledge base's reading, never the CNN's
    with pytest.raises(AgentSpecError, match="track='cnn'"):
        make_agent("expert:track=cnn", seed=1)


class _RecordingCall(_AlwaysCall):
    """:class:`_AlwaysCall` that also records the street of every question."""

    def __init__(self) -> None:
        super().__init__()
        self.rounds: list[int] = []

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        self.rounds.append(obs.round)  # type: ignore[attr-defined]
        return super().predict(obs, holes)


def test_track_staged_reads_preflop_by_the_knowledge_base_and_later_by_the_cnn(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _RecordingCall()
    monkeypatch.setattr(expert_module, "_cnn_model", lambda: fake)
    staged = ExpertAgent(seed=2, cnn=True, track="staged", seconds=0.05, hands=8)
    knowledge = ExpertAgent(seed=2, cnn=False, seconds=0.05, hands=8)
    assert staged.search.model is fake
    rng = np.random.default_rng(11)
    preflop_only = postflop = 0
    for _ in range(300):
        if preflop_only >= 3 and postflop >= 3:
            break
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        his = [seat != obs.seat for seat, _, _ in obs.history]
        if not any(his):
            continue
        fake.rounds.clear()
        got = staged.opponent_range(obs)
        if obs.round == 0:
            preflop_only += 1
            # every action he took was preflop: exactly the knowledge base's reading
            np.testing.assert_array_equal(got, knowledge.opponent_range(obs))
            assert fake.rounds == []
        elif fake.rounds:
            postflop += 1
            assert min(fake.rounds) >= 1  # the CNN is never asked about a preflop action
    assert postflop >= 3  # ... and is asked about his later ones


def test_mix_weights_the_cnn_against_the_knowledge_base_at_his_nodes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _AlwaysCall()
    monkeypatch.setattr(expert_module, "_cnn_model", lambda: fake)
    bot = ExpertAgent(seed=2, cnn=True, mix=0.25, track="kb", seconds=0.05, hands=8)
    knowledge = KnowledgeOpponentModel()
    rng = np.random.default_rng(5)
    for _ in range(6):
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        holes = np.array([[0, 1], [12, 25], [30, 47]])
        want = 0.75 * knowledge.predict(obs, holes)
        want[:, 1] += 0.25  # the fake CNN puts everything on check/call
        np.testing.assert_allclose(bot.search.model.predict(obs, holes), want, atol=1e-12)
    assert bot.model is fake  # the CNN itself is kept, unmixed
    with pytest.raises(AgentSpecError, match=r"mix=1\.5"):
        make_agent("expert:mix=1.5", seed=1)
    with pytest.raises(AgentSpecError, match=r"mix=0\.5 with cnn=false"):
        make_agent("expert:cnn=false,mix=0.5", seed=1)


class _HalfCall:
    """The test's own mixture: half the knowledge base's model, half "always call"."""

    def __init__(self) -> None:
        self.kb = KnowledgeOpponentModel()

    def predict(self, obs: object, holes: np.ndarray) -> np.ndarray:
        rows = 0.5 * self.kb.predict(obs, holes)  # type: ignore[arg-type]
        rows[:, 1] += 0.5
        return rows


def test_track_model_reads_his_range_with_the_mixture(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _AlwaysCall()
    monkeypatch.setattr(expert_module, "_cnn_model", lambda: fake)
    mixed = ExpertAgent(seed=2, cnn=True, mix=0.5, seconds=0.05, hands=8)
    reference = ExpertAgent(seed=2, cnn=False, seconds=0.05, hands=8)
    reference.tracker = _HalfCall()
    knowledge = ExpertAgent(seed=2, cnn=False, seconds=0.05, hands=8)
    rng = np.random.default_rng(9)
    seen = differ = 0
    while seen < 6:
        state = _random_spot(rng)
        obs = state.observation(state.current_player)
        if not any(seat != obs.seat for seat, _, _ in obs.history):
            continue
        seen += 1
        got = mixed.opponent_range(obs)
        np.testing.assert_allclose(got, reference.opponent_range(obs), rtol=1e-12)
        differ += not np.allclose(got, knowledge.opponent_range(obs))
    assert differ > 0 and fake.calls > 0  # the CNN's half is read, not the KB's alone


def test_mix_options_from_a_spec() -> None:
    with pytest.raises(AgentSpecError, match="mix=True"):
        make_agent("expert:mix=true", seed=1)
    with pytest.raises(ConfigError, match=r"weight 1\.5"):
        expert_module.MixedOpponentModel(KnowledgeOpponentModel(), KnowledgeOpponentModel(),
                                         1.5)


def test_the_shipped_expert_cnn_has_learned_the_knowledge_base_s_preflop_table() -> None:
    """``model=expert`` is the network learned from ``expert:cnn=false``'s hands: before the
    flop that bot plays its table, so the network must mostly name the table's action,
    where the default network (learned from six other bots) must not."""
    from checkraise.nn.action_classes import action_class

    learned = make_agent("expert:model=expert", seed=1)
    default = make_agent("expert", seed=1)
    assert isinstance(learned, ExpertAgent) and isinstance(default, ExpertAgent)
    table = ExpertAgent(seed=3, cnn=False)
    right = {"learned": 0, "default": 0}
    asked = 0
    for deal in range(150):
        state = State(TableConfig.nolimit(2, stacks=20_000), seed=4000 + deal)
        while not state.is_terminal and state.round == 0:
            obs = state.observation(state.current_player)
            action = table.act(obs)  # preflop: the table's action, no search
            hole = np.array([obs.hole_cards])
            taken = action_class(obs, action)
            asked += 1
            right["learned"] += int(learned.model.predict(obs, hole)[0].argmax() == taken)
            right["default"] += int(default.model.predict(obs, hole)[0].argmax() == taken)
            state.step(action)
    assert asked > 250
    assert right["learned"] / asked > 0.8
    assert right["default"] / asked < right["learned"] / asked - 0.2
