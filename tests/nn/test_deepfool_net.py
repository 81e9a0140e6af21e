"""The DeepFool network: a distribution over legal classes only, the KL loss by hand, files."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from checkraise.engine import State, TableConfig
from checkraise.errors import ConfigError
from checkraise.nn.action_classes import representative
from checkraise.nn.deepfool_encoding import Encoded, encode, stack_encoded
from checkraise.nn.deepfool_net import (
    DeepFoolNet,
    NetConfig,
    kl_loss,
    load_net,
    save_net,
)
from checkraise.nn.deepfool_policy import NumpyPolicy
from checkraise.nn.io import ModelFileError


def _decisions(n_hands: int, seed: int) -> list[Encoded]:
    rng = np.random.default_rng(seed)
    out: list[Encoded] = []
    for hand in range(n_hands):
        s = State(TableConfig.nolimit(6, int(rng.integers(200, 4000)), 20, 40), seed=seed + hand)
        while not s.is_terminal:
            obs = s.observation(s.current_player)
            e = encode(obs)
            out.append(e)
            action = representative(obs, int(rng.choice(np.flatnonzero(e.mask))))
            assert action is not None
            s.step(action)
    return out


def test_output_is_a_distribution_over_legal_classes_only() -> None:
    torch.manual_seed(0)
    net = DeepFoolNet(NetConfig(embed=8, hidden=16, dropout=0.5))
    batch = stack_encoded(_decisions(20, 1))
    assert (~batch.mask).any()  # some classes are illegal somewhere
    net.train()  # dropout on: still a distribution
    p = net(*[torch.from_numpy(a) for a in (batch.ranks, batch.suits, batch.history,
                                            batch.scalars, batch.mask)]).detach().numpy()
    assert np.allclose(p.sum(axis=1), 1.0, atol=1e-6)
    assert (p[~batch.mask] == 0.0).all()
    assert (p[batch.mask] > 0.0).all()


def test_numpy_forward_equals_torch_in_evaluation_mode() -> None:
    torch.manual_seed(3)
    net = DeepFoolNet(NetConfig(embed=8, hidden=24, dropout=0.3))
    decisions = _decisions(10, 7)
    batch = stack_encoded(decisions)
    policy = NumpyPolicy({k: v.numpy() for k, v in net.state_dict().items()})
    assert np.allclose(policy.batch_probs(batch), net.probs(batch), atol=1e-6)
    assert np.allclose(policy.probs(decisions[4]), net.probs(batch)[4], atol=1e-6)


def test_kl_loss_against_a_hand_computed_case() -> None:
    # target (1/2, 1/2, 0), model (1/4, 1/4, 1/2): KL = 2 * 1/2 * ln(1/2 / 1/4) = ln 2;
    # second row: target (1, 0, 0), model (1/2, 1/2, 0) with an illegal third class
    # (log p = -inf where the target is 0): KL = ln 2 as well; weights 1 and 3.
    lp = torch.log(torch.tensor([[0.25, 0.25, 0.5], [0.5, 0.5, 0.0]]))
    t = torch.tensor([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0]])
    assert float(kl_loss(lp, t)) == pytest.approx(math.log(2))
    lp2 = torch.log(torch.tensor([[0.5, 0.25, 0.25], [0.8, 0.2, 0.0]]))
    # row KLs: 1/2 ln(1/2/(1/2)) + 1/2 ln(1/2/(1/4)) = ln2 / 2; ln(1/0.8)
    want = (math.log(2) / 2 * 1 + math.log(1 / 0.8) * 3) / 4
    assert float(kl_loss(lp2, t, torch.tensor([1.0, 3.0]))) == pytest.approx(want, rel=1e-6)
    # mass on a class the network rules out costs infinitely much
    assert math.isinf(float(kl_loss(torch.log(torch.tensor([[1.0, 0.0]])),
                                    torch.tensor([[0.5, 0.5]]))))


def test_kl_gradient_reaches_the_target() -> None:
    torch.manual_seed(1)
    net = DeepFoolNet(NetConfig(embed=4, hidden=8, dropout=0.0))
    batch = stack_encoded(_decisions(1, 2)[:1])
    target = torch.from_numpy(batch.mask / batch.mask.sum(axis=1, keepdims=True)).float()
    opt = torch.optim.Adam(net.parameters(), lr=0.05)
    for _ in range(200):
        loss = kl_loss(net.log_probs(batch), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert float(loss.detach()) < 1e-3


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    torch.manual_seed(2)
    net = DeepFoolNet(NetConfig(embed=4, hidden=8))
    path = save_net(tmp_path / "n.npz", net, command="checkraise nn deepfool pretrain ...")
    back, header = load_net(path)
    batch = stack_encoded(_decisions(2, 3))
    assert np.allclose(back.probs(batch), net.probs(batch))
    assert header["command"].startswith("checkraise nn deepfool")
    assert NumpyPolicy.from_file(path)[1]["kind"] == "deepfool-policy"


def test_bad_sizes_and_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"dropout=1\.0"):
        NetConfig(dropout=1.0)
    bad = tmp_path / "x.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ModelFileError):
        load_net(bad)


def test_regret_network_plays_regret_matching_of_its_head() -> None:
    torch.manual_seed(4)
    net = DeepFoolNet(NetConfig(embed=8, hidden=16, output="regret"))
    net.eval()  # dropout off, as when it plays
    batch = stack_encoded(_decisions(10, 9))
    head = net.regrets(batch).detach().numpy().astype(np.float64)
    # the slow twin: positive regrets over their sum, or all on the largest legal one
    want = np.zeros_like(head)
    for i, (r, m) in enumerate(zip(head, batch.mask, strict=True)):
        pos = np.where(m, np.maximum(r, 0), 0)
        if pos.sum() > 0:
            want[i] = pos / pos.sum()
        else:
            want[i, np.flatnonzero(m)[np.argmax(r[m])]] = 1.0
    assert np.allclose(net.probs(batch), want, atol=1e-6)
    policy = NumpyPolicy({k: v.numpy() for k, v in net.state_dict().items()}, "regret")
    assert np.allclose(policy.batch_probs(batch), want, atol=1e-6)
    with pytest.raises(ConfigError, match="network output 'value'"):
        NetConfig(output="value")
