"""``checkraise resolve experiment``: the Libratus experiment's table and JSON."""

from __future__ import annotations

import json

import pytest
from tests.cli_helpers import bad_cli, run_cli
from tests.test_readme import README, tour_commands

from checkraise.solvers.subgame import libratus_experiment

SMALL = ["resolve", "experiment", "--iterations", "100", "--subgame-iterations", "50"]


def test_json_holds_the_library_figures(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli([*SMALL, "--abstraction", "jq,jq-paired", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    runs = {run["abstraction"]: run for run in data["runs"]}
    assert sorted(runs) == ["jq", "jq-paired"]
    for name, run in runs.items():
        expected = libratus_experiment(100, 50, name)
        chips = run["chips_per_hand"]
        assert chips == pytest.approx({
            "blueprint": expected.blueprint, "unsafe": expected.unsafe, "safe": expected.safe,
            "maxmargin": expected.maxmargin,
        })
        assert run["milli_chips_per_hand"]["safe"] == pytest.approx(1000 * chips["safe"])
        assert chips["safe"] <= chips["blueprint"]
        assert run["subgames"] == 30 and run["subgame_iterations"] == 50
    # Brown & Sandholm (2018), Table 1, small two-round hold'em.
    assert data["libratus_table_1_mbb_per_game"][0] == {
        "game": "small two-round hold'em", "blueprint": 91.3, "unsafe": 5.51, "safe": 22.6,
    }


def test_table_puts_ours_beside_libratus(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(SMALL, capsys)
    assert code == 0
    rows = {line.split("  ")[0]: line.split() for line in out.splitlines()}
    result = libratus_experiment(100, 50, "jq")
    for label, ours, small, large, three in (
        ("no re-solving", result.blueprint, "91.3", "41.3", "346"),
        ("unsafe re-solving", result.unsafe, "5.51", "397", "79.3"),
        ("safe re-solving", result.safe, "22.6", "9.84", "72.6"),
        ("maxmargin re-solving", result.maxmargin, "-", "-", "-"),  # not in Table 1
    ):
        row = rows[label]
        assert float(row[-5]) == pytest.approx(1000 * ours, abs=0.05)
        assert row[-3:] == [small, large, three]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--abstraction", "jk"], "invalid --abstraction 'jk'"),
        (["--iterations", "0"], "invalid --iterations 0"),
        (["--subgame-iterations", "-3"], "invalid --subgame-iterations -3"),
        (["--algorithm", "cfr++"], "invalid --algorithm 'cfr++'"),
        (["--seed", "-1"], "invalid --seed -1"),
    ],
)
def test_bad_options(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert message in bad_cli(["resolve", "experiment", *args], capsys)


def test_written_out_abstraction_names_match_the_library() -> None:
    from checkraise.cli.resolve_cmd import ABSTRACTION_NAMES
    from checkraise.games.leduc_abstraction import LeducAbstraction

    assert tuple(a.value for a in LeducAbstraction) == ABSTRACTION_NAMES


def test_readme_section_runs_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    title = "## Subgame re-solving, measured exactly: the Libratus experiment on Leduc"
    commands = tour_commands(README.read_text(encoding="utf-8"), title)
    assert [words[:2] for words, _ in commands] == [["resolve", "experiment"]] * 2
    for words, background in commands:
        assert not background
        code, _, err = run_cli(words, capsys)
        assert code == 0, (words, err)
