"""The ecosystems' own checkers pass: PettingZoo's api_test and seed_test, gymnasium's check_env."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import checkraise.envs
from checkraise.envs import GYM_ID, holdem_v0

# PettingZoo warns about any dict observation of an environment outside its own list of
# names, although {"observation", "action_mask"} is its convention for masks; nothing
# else may be warned about.
CONVENTION = ("Observation space for each agent probably should be",
              "Observation is not a NumPy array")


def _unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [str(w.message) for w in caught if not str(w.message).startswith(CONVENTION)]


@pytest.mark.parametrize("options", [
    dict(num_players=2),
    dict(num_players=6, stacks=(800, 1500, 300, 2000, 1000, 600), ante=10, rules="acpc"),
    dict(num_players=10, stacks=2000, observation_format="dict"),
], ids=["heads-up", "six-max", "ten-dict"])
def test_pettingzoo_api_test(options: dict[str, object]) -> None:
    env = holdem_v0.env(render_mode="ansi", **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=200)
    assert _unexpected(caught) == []
    assert env.metadata["name"] == "checkraise_holdem_v0"
    assert "seat 0" in env.render()


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: holdem_v0.env(num_players=4, stacks=1500), num_cycles=200)


def test_pettingzoo_continuous_actions_play_a_hand() -> None:
    """Tuple actions are outside api_test's sampling (its mask is an array); play them here."""
    env = holdem_v0.env(num_players=3, action_format="continuous", stacks=1000)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    raises = 0
    for agent in env.agent_iter():
        obs, _, terminated, _, _ = env.last()
        if terminated:
            env.step(None)
            continue
        mask = obs["action_mask"]
        kind = 2 if mask[2] else 1
        raises += kind == 2
        env.step((kind, np.array([rng.random()], dtype=np.float32)))
        assert not env.infos.get(agent, {}).get("illegal_action")
    assert raises >= 1 and env.agents == []


@pytest.mark.parametrize("options", [
    dict(),
    dict(num_players=4, observation_format="dict", opponents="call,raise,random"),
    dict(num_players=3, action_format="continuous", opponents="call", hands_per_episode=3),
], ids=["default", "dict", "continuous"])
def test_gymnasium_check_env(options: dict[str, object]) -> None:
    env = gymnasium.make(GYM_ID, render_mode="ansi", **options)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_importing_the_package_registers_the_gymnasium_id() -> None:
    assert checkraise.envs.GYM_ID == "checkraise/NoLimitHoldem-v0"
    spec = gymnasium.spec(GYM_ID)
    assert spec.entry_point == "checkraise.envs.gym_env:NoLimitHoldemEnv"
    env = gymnasium.make(GYM_ID, num_players=6, opponents="call", seed=1)
    assert isinstance(env.unwrapped, checkraise.envs.NoLimitHoldemEnv)
    assert env.unwrapped.config.num_players == 6


def test_without_the_extra_the_import_names_it() -> None:
    code = ("import sys; sys.modules['pettingzoo'] = None\n"
            "try:\n    import checkraise.envs\n"
            "except ValueError as exc:\n    print(type(exc).__name__, exc)\n")
    env = dict(os.environ, PYTHONPATH=str(Path(checkraise.envs.__file__).parents[2]))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True).stdout
    assert out.strip() == ("CheckraiseError checkraise.envs needs pettingzoo, which is not "
                           "installed; install the extra: pip install 'checkraise[envs]'")
