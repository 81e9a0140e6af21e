"""``checkraise eval`` end to end through the CLI's main()."""

from __future__ import annotations

import json

import pytest

from checkraise.cli.main import main


def test_eval_prints_best_five_and_category(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("As Ks Qs Js Ts: straight flush")


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--json", "7h", "7d", "Kc", "Kd", "7s", "2c"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["category"] == "full house"
    assert record["best_five"] == "7s 7h 7d Kd Kc"
    assert record["cards"] == "7h 7d Kc Kd 7s 2c"
    assert 7141 <= record["rank"] <= 7296


@pytest.mark.parametrize(
    ("args", "named"), [(["As", "Ks", "Qs", "Js", "Tx"], "Tx"), (["As", "Ks"], "2")]
)
def test_eval_bad_input_exits_2(
    capsys: pytest.CaptureFixture[str], args: list[str], named: str
) -> None:
    assert main(["eval", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and named in lines[0]


def test_eval_eight_cards_error_shows_the_cards_as_text(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["As", "Ks", "Qs", "Js", "Ts", "2c", "3d", "4h"]
    assert main(["eval", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (
        "checkraise: error: evaluate needs 5, 6 or 7 cards, got 8: 'As Ks Qs Js Ts 2c 3d 4h'"
    )


def test_evaluate_repeated_card_is_named_as_text() -> None:
    from checkraise.evaluator import evaluate

    with pytest.raises(ValueError, match=r"^card Ah \(int 50\) is repeated in 'Ah Kd Ah 7d 2s': "):
        evaluate([50, 45, 50, 21, 3])
