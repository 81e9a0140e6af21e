"""``checkraise resolve``: real-time subgame re-solving.

``experiment`` runs the Libratus experiment on Leduc hold'em
(:mod:`checkraise.solvers.subgame`): the exploitability of an abstract blueprint
with no re-solving, with unsafe and with safe re-solving, beside Brown & Sandholm's
(2018) Table 1. The library is imported inside the commands, so ``checkraise
--help`` stays light.
"""

from __future__ import annotations

import json
from typing import Any

import typer

from checkraise.cli._options import check_seed
from checkraise.cli.app import app
from checkraise.errors import ConfigError

__all__ = ["resolve_app"]

resolve_app = typer.Typer(
    name="resolve",
    help="Subgame re-solving: the Libratus experiment on Leduc.",
    no_args_is_help=True,
)
app.add_typer(resolve_app, name="resolve")

# checkraise.games.leduc_abstraction.LeducAbstraction, written out so that --help
# does not import numpy.
ABSTRACTION_NAMES = ("none", "jq", "jq-round1", "jq-paired")

#: The rows of the table: the result's attribute and its label.
_ROWS = (("blueprint", "no re-solving"), ("unsafe", "unsafe re-solving"),
         ("safe", "safe re-solving"), ("maxmargin", "maxmargin re-solving"))


def _abstractions(text: str) -> list[str]:
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    bad = [name for name in names if name not in ABSTRACTION_NAMES]
    if bad or not names:
        raise ConfigError(
            f"invalid --abstraction {text!r}: expected one or more of "
            f"{', '.join(ABSTRACTION_NAMES)}, separated by commas"
        )
    return list(dict.fromkeys(names))


def _table(results: list[Any], libratus: tuple[tuple[str, float, float, float], ...]) -> str:
    """Our figures (milli-chips/hand) per abstraction, then Libratus's (mbb/game) per game."""
    ours = [r.abstraction for r in results]
    theirs = ["small 2-round", "large 2-round", "3-round"]
    label = max(len(text) for _, text in _ROWS)
    width = max(9, *(len(name) for name in ours))
    head = " " * label + "".join(f"  {name:>{width}}" for name in ours)
    head += "  |" + "".join(f"  {name:>13}" for name in theirs)
    lines = [head]
    for column, (field, text) in enumerate(_ROWS):
        line = f"{text:<{label}}" + "".join(
            f"  {1000.0 * getattr(r, field):>{width}.1f}" for r in results
        )
        # Table 1 has no Maxmargin row.
        line += "  |" + "".join(
            f"  {row[1 + column]:>13g}" if column < 3 else f"  {'-':>13}" for row in libratus
        )
        lines.append(line)
    return "\n".join(lines)


@resolve_app.command("experiment")
def experiment(
    abstraction: str = typer.Option(
        "jq", "--abstraction",
        help=f"What the blueprint sees of the cards: {', '.join(ABSTRACTION_NAMES)}; "
        "several separated by commas.",
    ),
    iterations: int = typer.Option(
        2000, "--iterations", help="Iterations of the blueprint's solver on the abstract game."
    ),
    subgame_iterations: int = typer.Option(
        1000, "--subgame-iterations", help="CFR+ iterations of every subgame solve."
    ),
    algorithm: str = typer.Option(
        "cfr+", "--algorithm", help="The blueprint's solver (a name of `checkraise solve --algo`)."
    ),
    seed: int = typer.Option(
        0, "--seed", callback=check_seed, help="Seed of the blueprint's solver (sampling ones)."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print machine-readable JSON."),
) -> None:
    """Exploitability of a Leduc blueprint with no, unsafe, safe and Maxmargin re-solving.

    The blueprint is an equilibrium of Leduc under a card abstraction (jq: J and Q
    are one bucket, the board and pairing seen). Each of the 30 public states at
    the start of the second round is re-solved exactly: unsafe from the
    blueprint's ranges as common knowledge, safe with the CFR-D gadget whose
    opponent may take his counterfactual best-response value against the
    blueprint (Maxmargin: he picks which card enters, paid its value minus that
    alternative). Figures are exact exploitabilities in real Leduc (milli-chips per
    hand, ante 1), beside Libratus's Table 1 (Brown & Sandholm 2018, Science;
    mbb/game on hold'em variants).
    """
    from checkraise.solvers import SOLVERS
    from checkraise.solvers.subgame import LIBRATUS_TABLE_1, libratus_experiment

    names = _abstractions(abstraction)
    if algorithm not in SOLVERS:
        raise ConfigError(
            f"invalid --algorithm {algorithm!r}: expected one of {', '.join(SOLVERS)}"
        )
    for option, value in (("--iterations", iterations),
                          ("--subgame-iterations", subgame_iterations)):
        if value < 1:
            raise ConfigError(f"invalid {option} {value}: expected 1 or more")
    results = [
        libratus_experiment(iterations, subgame_iterations, name, seed, algorithm)
        for name in names
    ]
    if as_json:
        print(json.dumps({
            "runs": [r.to_json() for r in results],
            "libratus_table_1_mbb_per_game": [
                {"game": game, "blueprint": b, "unsafe": u, "safe": s}
                for game, b, u, s in LIBRATUS_TABLE_1
            ],
        }))
        return
    seconds = sum(r.seconds for r in results)
    print(f"The Libratus experiment on Leduc: blueprint {algorithm} {iterations:,} iterations "
          f"on the abstract game; {results[0].subgames} subgames, CFR+ "
          f"{subgame_iterations:,} iterations per solve ({seconds:.1f} s)")
    print("exploitability in real Leduc, milli-chips/hand (left) | Libratus Table 1, mbb/game")
    print(_table(results, LIBRATUS_TABLE_1))
    print("Libratus: Brown & Sandholm (2018), Science 359:418, Table 1, as printed there.")
