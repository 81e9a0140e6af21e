"""The ``deepfool`` agent: legal actions at six seats, seeded, the shipped networks, bad files."""

from __future__ import annotations

import numpy as np
import pytest

from checkraise.agents.base import AgentSpecError, make_agent
from checkraise.agents.deepfool import DeepFoolAgent
from checkraise.engine import Action, State, TableConfig
from checkraise.nn.deepfool_encoding import encode


def _play(agent_spec: str, seed: int, hands: int) -> list[str]:
    agents = [make_agent(agent_spec, seed=seed + i) for i in range(6)]
    actions: list[str] = []
    for hand in range(hands):
        s = State(TableConfig.nolimit(6, 2000, 20, 40), seed=hand)
        while not s.is_terminal:
            seat = s.current_player
            assert seat is not None
            obs = s.observation(seat)
            action = agents[seat].act(obs)
            s.step(action)  # raises on an illegal action
            actions.append(str(action))
    return actions


@pytest.mark.parametrize("spec", ["deepfool", "deepfool:file=pretrained",
                                  "deepfool:file=labels", "deepfool:greedy=true"])
def test_plays_legal_seeded_actions(spec: str) -> None:
    a = _play(spec, 3, 15)
    assert a == _play(spec, 3, 15) and len(a) > 15


def test_distribution_is_over_legal_classes() -> None:
    agent = DeepFoolAgent(seed=1)
    s = State(TableConfig.nolimit(6, 2000, 20, 40), seed=2)
    s.step(Action.call())
    obs = s.observation(s.current_player)
    p = agent.distribution(obs)
    assert p.sum() == pytest.approx(1.0) and (p[~encode(obs).mask] == 0).all()


def test_shipped_networks_differ_and_bad_files_are_refused() -> None:
    agents = [DeepFoolAgent(seed=0, file=name) for name in ("default", "pretrained", "labels")]
    assert [a.policy.output for a in agents] == ["regret", "policy", "policy"]
    heads = [a.policy.layers["merge"][1][0] for a in agents]
    assert not np.array_equal(heads[0], heads[1]) and not np.array_equal(heads[1], heads[2])
    with pytest.raises(AgentSpecError, match="no such network file"):
        make_agent("deepfool:file=/nonexistent/net.npz")
