"""``checkraise predict`` and ``checkraise predict-eval``: hand reading from hand histories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from checkraise.cli._options import command_line
from checkraise.cli.app import app
from checkraise.errors import ConfigError

_STREETS = ("preflop", "flop", "turn", "river")


def _header(record: Any, hand: int, file: Path, board: tuple[int, ...], street: str) -> list[str]:
    """The hand at the top of the text output: its number, the players, the board by street."""
    from checkraise.cards import format_cards

    def role(seat: Any) -> str:
        tags = ["BTN"] if seat.table_seat == record.button else []
        if seat.blind:
            small = seat.blind == record.small_blind and record.small_blind < record.big_blind
            tags.append("SB" if small else "BB" if seat.blind == record.big_blind else "blind")
        return ", ".join([*tags, f"{seat.stack} chips"])

    lines = [
        f"Hand #{record.hand_id} (--hand {hand} of {file.name}), "
        f"blinds {record.small_blind}/{record.big_blind}"
        + (f", ante {record.ante}" if record.ante else "")
        + f", {len(record.seats)} players",
        "  players: " + ", ".join(f"{seat.name} ({role(seat)})" for seat in record.seats),
    ]
    cards = [("flop", board[:3]), ("turn", board[3:4]), ("river", board[4:5])]
    dealt = [f"{name} {format_cards(c)}" for name, c in cards if c]
    lines.append("  board: " + (", ".join(dealt) if dealt else "none (the hand ended preflop)"))
    if street:
        lines.append(f"  predicted after the {street}")
    return lines


def _read(path: Path, game: Path | None) -> list[Any]:
    from checkraise.histories.importer import read_hands
    from checkraise.protocol.gamedef import load_gamedef

    return read_hands(path, game=load_gamedef(game) if game else None)


@app.command("predict")
def predict_command(
    file: Path = typer.Argument(..., help="A PokerStars hand history or an ACPC dealer log."),
    hand: int = typer.Option(0, "--hand", help="Which hand of the file (0-based)."),
    observer: str = typer.Option(
        "", "--observer", help="Player whose cards the predictor knows (default: nobody)."
    ),
    street: str = typer.Option("", "--street", help="Predict after this street (default: last)."),
    top: int = typer.Option(20, "--top", help="Number of combos listed per player."),
    model: Path | None = typer.Option(None, "--model", help="Model configuration JSON."),
    game: Path | None = typer.Option(None, "--game", help="ACPC game file for logs."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
    out_dir: Path | None = typer.Option(
        None, "--out", help="Folder for one PNG range chart per player (range-NAME.png)."
    ),
) -> None:
    """Show each player's predicted range from his actions and the board.

    For every player but the observer: the top combos with their probabilities and a
    13×13 grid of the range (pairs on the diagonal, suited above, offsuit below; darker
    = likelier per combo). Where the file shows a player's cards, the true combo's rank
    in the prediction is printed too (the predictor itself never reads them).
    """
    import numpy as np

    from checkraise.cards import combo_index, format_cards
    from checkraise.histories import replay
    from checkraise.opponents.display import (
        combo_text,
        grid_text,
        save_grid_png,
        top_combos,
    )
    from checkraise.opponents.model import DFModel
    from checkraise.opponents.predict import predict

    hands = _read(file, game)
    if not 0 <= hand < len(hands):
        raise ConfigError(f"--hand {hand} is not in {file.name}: expected 0..{len(hands) - 1}")
    record = hands[hand]
    names = [p.name for p in record.seats]
    known: tuple[int, ...] = ()
    skip = -1
    if observer:
        if observer not in names:
            raise ConfigError(f"--observer {observer!r} did not play this hand: expected one of "
                             f"{', '.join(names)}")
        skip = names.index(observer)
        known = tuple(record.seats[skip].hole_cards)
    state = replay(record, check_payout=False)
    history = state.observation(0).history
    board = tuple(record.board)
    if street:
        if street not in _STREETS:
            raise ConfigError(f"--street {street!r}: expected one of {', '.join(_STREETS)}")
        cut = _STREETS.index(street)
        history = tuple(h for h in history if h[1] <= cut)
        board = board[: (0, 3, 4, 5)[cut]]
    seats = [s for s in range(len(names)) if s != skip]
    preds = predict(state.config, history, board, seats, known=known,
                    model=DFModel(model) if model else None)
    out: list[dict[str, Any]] = []
    if not as_json:
        print("\n".join(_header(record, hand, file, board, street)))
        print()
    for s in seats:
        dist = preds[s].final
        entry: dict[str, Any] = {
            "player": names[s],
            "actions": [a.cls.value if a else None for a in preds[s].actions],
            "top": [{"combo": c, "p": p} for c, p in top_combos(dist, top)],
        }
        cards = record.seats[s].hole_cards
        if len(cards) == 2:
            i = combo_index(*cards)
            entry["held"] = combo_text(i)
            entry["held_p"] = float(dist[i])
            entry["held_rank"] = int(np.count_nonzero(dist > dist[i])) + 1
        out.append(entry)
        if out_dir is not None:
            safe = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in names[s])
            # The hand as asked for (--hand, 0-based in the file), and the site's number.
            png = save_grid_png(
                dist, out_dir / f"range-{safe}.png",
                f"{names[s]}: predicted range\n--hand {hand} of {file.name} "
                f"(#{record.hand_id})",
            )
            entry["png"] = str(png)
        if not as_json:
            actions = " ".join(a or "-" for a in entry["actions"])
            print(f"{names[s]}  ({actions})")
            if "held" in entry:
                print(f"  held {entry['held']}: p = {entry['held_p']:.5f}, rank "
                      f"{entry['held_rank']} of {int(np.count_nonzero(dist))}")
            for k, row in enumerate(entry["top"]):
                print(f"  {k + 1:2d}. {row['combo']}  {row['p']:.4f}")
            print("  " + grid_text(dist).replace("\n", "\n  "))
            print()
    if as_json:
        print(json.dumps({"hand": record.hand_id, "board": format_cards(board),
                          "players": out}))


@app.command("predict-eval")
def predict_eval_command(
    ctx: typer.Context,
    files: list[Path] = typer.Argument(..., help="Hand histories in which every card is shown."),
    limit: int = typer.Option(0, "--limit", help="Score at most this many hands (0: all)."),
    model: Path | None = typer.Option(None, "--model", help="Model configuration JSON."),
    flop_runouts: int = typer.Option(
        0, "--flop-runouts", help="Sample this many flop runouts for P_win (0: exact)."
    ),
    game: Path | None = typer.Option(None, "--game", help="ACPC game file for logs."),
    out: Path | None = typer.Option(None, "--out", help="Also write the table as JSON here."),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
    baseline: str = typer.Option(
        "", "--baseline", help="Compare with the paper's Markov baseline: markov."
    ),
    train: list[Path] = typer.Option(
        [], "--train", help="With --baseline: train on this file (repeat it, or quote a glob) "
        "and score FILES; without it, cross-validate over FILES."
    ),
    folds: int = typer.Option(2, "--folds", help="With --baseline: folds over FILES."),
    seed: int = typer.Option(0, "--seed", help="With --baseline: seed of the Markov fit."),
) -> None:
    """Score predicted ranges against the cards players really held, per street.

    For every player who acted on the flop or later: mean log-likelihood and percentile
    rank of the true combo, and top-1/2/3 accuracy of the hand category on the final
    board, for the uniform prior (board known only), the default model, and the model
    with online adaptation.

    With --baseline markov: the hand-reading paper's comparison (its Figure 7). Per fold
    the Markov model of hand categories and our model's intervals are fitted on the same
    training files and scored on the held-out ones: top-1/2/3 accuracy over the paper's
    categories of each street's board for uniform, Markov, model and adapted, and the
    margin of ours over Markov in points. --out writes baseline.json, baseline.png and
    each fold's fitted models; --limit reads at most that many hands of each file.
    """
    if baseline:
        _baseline_eval(files, baseline, train, folds, seed, limit, model, flop_runouts, game,
                       out, as_json, ctx)
        return
    if train:
        raise ConfigError("--train needs --baseline markov")
    from rich.progress import Progress

    from checkraise.analysis.prediction import evaluate_hands
    from checkraise.opponents.model import DFModel

    hands = [h for f in files for h in _read(f, game)]
    if limit > 0:
        hands = hands[:limit]
    with Progress(transient=True, disable=as_json) as progress:
        task = progress.add_task("scoring", total=len(hands))
        result = evaluate_hands(
            hands, model=DFModel(model) if model else None, flop_runouts=flop_runouts or None,
            progress=lambda k: progress.update(task, advance=k),
        )
    rows = result.table()
    report = {"hands": result.hands, "players": result.players, "rows": rows}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "predict_eval.json").write_text(json.dumps(report, indent=1) + "\n")
    if as_json:
        print(json.dumps(report))
        return
    print(f"{result.hands} hands, {result.players} players scored")
    print(f"{'street':8s} {'predictor':9s} {'n':>6s} {'loglik':>8s} {'pctile':>7s} "
          f"{'top1':>6s} {'top2':>6s} {'top3':>6s}")
    for r in rows:
        print(f"{r['street']:8s} {r['predictor']:9s} {r['n']:6d} {r['loglik']:8.3f} "
              f"{r['percentile']:7.3f} {r['top1']:6.3f} {r['top2']:6.3f} {r['top3']:6.3f}")


def _expand(paths: list[Path]) -> list[Path]:
    """Each path, or the sorted files its glob pattern matches (for a quoted --train glob)."""
    import glob

    out: list[Path] = []
    for p in paths:
        if glob.has_magic(str(p)):
            found = sorted(glob.glob(str(p)))
            if not found:
                raise ConfigError(f"--train {str(p)!r} matches no file: expected a file or a "
                                  "glob that matches some")
            out += [Path(f) for f in found]
        else:
            out.append(p)
    return out


def _baseline_eval(
    files: list[Path], baseline: str, train: list[Path], folds: int, seed: int, limit: int,
    model: Path | None, flop_runouts: int, game: Path | None, out: Path | None,
    as_json: bool, ctx: typer.Context,
) -> None:
    """``predict-eval --baseline markov``: the cross-validated comparison and its table."""
    if baseline != "markov":
        raise ConfigError(f"--baseline {baseline!r}: expected markov")
    if model is not None:
        raise ConfigError("--model with --baseline markov: expected none, the model is fitted "
                          "on the training files of each fold")
    if limit < 0 or flop_runouts < 0:
        raise ConfigError(f"--limit {limit} and --flop-runouts {flop_runouts}: expected 0 or "
                          "more")
    train = _expand(train)
    if train and ctx.get_parameter_source("folds").name != "DEFAULT":  # type: ignore[union-attr]
        raise ConfigError("--folds with --train: expected one of them (--train is one fold)")
    from rich.progress import Progress

    from checkraise.analysis.baseline import PAPER_MARGINS, compare, save_figure

    command = command_line(ctx)
    with Progress(transient=True, disable=as_json) as progress:
        task = progress.add_task("reading", total=None)
        report = compare(
            files, folds=folds, train=train, limit=limit, flop_runouts=flop_runouts or None,
            seed=seed, out=out, command=command, read=lambda f: _read(f, game),
            progress=lambda stage, done, total: progress.update(
                task, description=stage, completed=done, total=total),
        )
    data = report.to_json()
    if out is not None:
        (out / "baseline.json").write_text(json.dumps(data, indent=1) + "\n")
        data["png"] = str(save_figure(report, out / "baseline.png"))
    if as_json:
        print(json.dumps(data))
        return
    print(f"{data['hands']} held-out hands, {data['players']} players scored, "
          f"{len(report.folds)} fold(s); categories of each street's board")
    print(f"{'street':8s} {'predictor':9s} {'n':>6s} {'top1':>6s} {'top2':>6s} {'top3':>6s}")
    for r in data["rows"]:
        print(f"{r['street']:8s} {r['predictor']:9s} {r['n']:6d} {r['top1']:6.3f} "
              f"{r['top2']:6.3f} {r['top3']:6.3f}")
    print("margin over Markov, points (top1 / top2 / top3):")
    for ours in ("model", "adapted"):
        m = data[f"margin_{ours}"]
        for key, label in (*[(s, s) for s in _STREETS], ("postflop", "mean flop-river"),
                           ("all", "mean all 4")):
            paper = PAPER_MARGINS.get("mean" if key == "postflop" else key)
            note = f"   (paper {paper:+.2f})" if paper is not None else ""
            print(f"  {ours:8s} {label:16s} {m[key]['top1']:+6.2f} {m[key]['top2']:+6.2f} "
                  f"{m[key]['top3']:+6.2f}{note}")
    print(f"paper: +{PAPER_MARGINS['flop']} flop, +{PAPER_MARGINS['turn']} turn, "
          f"+{PAPER_MARGINS['river']} river, +{PAPER_MARGINS['mean']} on average")
    if out is not None:
        print(f"wrote {out / 'baseline.json'}, {data['png']} and the fitted models")
