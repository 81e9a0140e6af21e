"""Check that this copy of the code plays a kept match's first deals as it did.

A long pairing is played in parts over many sessions, each from a frozen copy of the
code (``docs/preregistered/issue16_pairings.md``). Before a part starts on a copy, the
copy replays the first deals of a part already kept, and they must come out the same
in every seating: the same hands action for action (the ``STATE`` lines of the hand
logs, hand ids aside) and the same journal records (payoffs, all-in and luck adjusted
payoffs, each decision). The replay also fills the copy's numba cache, so the part's
first re-solves are not cut by compiling.

Play the replay and compare (the agents, table and seed are read from the kept
match; run it with the copy's ``PYTHONPATH``)::

    PYTHONPATH=/work/s52b_src/src .venv/bin/python benchmarks/replay_check.py \\
        docs/results/issue16/depth_small_431006 --deals 24 --out runs/s54/replay_431006

or compare a replay played before: ``--replayed runs/s53/replay_431006``. ``KEPT`` is
an archive (``benchmarks/archive_match.py``, gzipped logs) or a match's ``--out``
folder. The exit status is 0 when every deal is the same, 1 when one differs (the
first that differs in each seating is printed) and 2 on bad input.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from checkraise.arena.journal import (
    POOLED_SAME,
    JournalError,
    config_differences,
    read_log,
    read_match_file,
)
from checkraise.arena.ring import RingConfig


def _match_file(folder: Path) -> tuple[RingConfig, int]:
    try:
        return read_match_file(folder / "logs")
    except JournalError as exc:
        raise SystemExit(f"{exc} (or its archive)") from None


def play(kept: Path, deals: int, out: Path) -> None:
    """Play the first ``deals`` deals of the match kept in ``kept`` into ``out`` (new),
    with this interpreter's ``checkraise`` and one worker."""
    if deals < 1:
        raise SystemExit(f"--deals {deals}: expected at least 1")
    if out.exists():
        raise SystemExit(f"{out} exists; expected a new folder for the replay")
    config, seed = _match_file(kept)
    if deals > config.hands:
        raise SystemExit(f"--deals {deals}: {kept} was planned with {config.hands:,} "
                         "deals; expected at most that many")
    command = [sys.executable, "-m", "checkraise.cli.main", "match", *config.agents,
               "-n", str(deals), "--seed", str(seed), "--stack", str(config.stack),
               "--blinds", f"{config.small_blind}/{config.big_blind}",
               "--rules", str(config.rules),
               "--duplicate" if config.duplicate else "--no-duplicate",
               "--workers", "1", "--out", str(out)]
    done = subprocess.run(command, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the replay ({' '.join(command)}) failed with status "
                         f"{done.returncode}")


def _lines(folder: Path, name: str) -> list[str]:
    try:
        return read_log(folder / "logs" / name).splitlines()
    except FileNotFoundError:
        raise SystemExit(f"{folder / 'logs' / name}: no such file, nor its archive; "
                         "expected the hand logs of a match played with --out") from None


def _record(line: str) -> Any:
    """A journal record, or the line itself when it is torn (a kill mid-write)."""
    try:
        return json.loads(line)
    except ValueError:
        return line


def _states(lines: list[str]) -> list[str]:
    """A hand log's STATE lines without their hand ids (``STATE:<id>:...``)."""
    return [line.split(":", 2)[2] for line in lines if line.startswith("STATE:")]


def compare(kept: Path, replayed: Path) -> dict[str, Any]:
    """Each seating of ``replayed`` deal by deal against the same deals of ``kept``."""
    (want, seed), (have, replay_seed) = _match_file(kept), _match_file(replayed)
    differ = config_differences(have.to_json(), want.to_json(), kept)
    if replay_seed != seed:
        differ = "; ".join(filter(None, [differ, f"seed {replay_seed} where {kept} has "
                                                 f"{seed}"]))
    if differ:
        raise SystemExit(f"{replayed} is not a replay of {kept}: {differ}; expected the "
                         f"same {', '.join(POOLED_SAME)} and seed")
    rotations = []
    for r in range(have.num_rotations):
        new_journal = _lines(replayed, f"rotation-{r}.jsonl")
        new_states = _states(_lines(replayed, f"rotation-{r}.log"))
        deals = len(new_journal)
        if deals == 0 or len(new_states) != deals:
            raise SystemExit(f"{replayed}: seating {r} has {deals} journal records and "
                             f"{len(new_states)} STATE lines; expected a finished replay "
                             "with the same number of each")
        old_journal = _lines(kept, f"rotation-{r}.jsonl")[:deals]
        old_states = _states(_lines(kept, f"rotation-{r}.log"))[:deals]
        if len(old_journal) < deals or len(old_states) < deals:
            raise SystemExit(f"{kept}: seating {r} holds {min(len(old_journal), len(old_states))} "
                             f"deals; expected at least the replay's {deals}")
        same_journal = [_record(a) == _record(b)
                        for a, b in zip(new_journal, old_journal, strict=True)]
        same_state = [a == b for a, b in zip(new_states, old_states, strict=True)]
        first = next((d for d in range(deals) if not (same_journal[d] and same_state[d])),
                     None)
        rotations.append({"seating": r, "deals": deals, "journal_same": sum(same_journal),
                          "state_same": sum(same_state), "first_difference": first,
                          **({} if first is None else {"kept_state": old_states[first],
                                                       "replayed_state": new_states[first]})})
    return {"kept": str(kept), "replayed": str(replayed), "seed": seed,
            "same": all(r["first_difference"] is None for r in rotations),
            "seatings": rotations}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kept", type=Path, help="the kept match (archive or --out folder)")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--out", type=Path, help="play the replay into this new folder")
    how.add_argument("--replayed", type=Path, help="compare a replay played before")
    parser.add_argument("--deals", type=int, default=24,
                        help="deals to replay with --out (default: 24)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    try:
        if args.out is not None:
            play(args.kept, args.deals, args.out)
        done = compare(args.kept, args.out or args.replayed)
    except SystemExit as exc:  # bad input: status 2, apart from a replay that differs
        print(exc.code, file=sys.stderr)
        sys.exit(2)
    if args.json:
        print(json.dumps(done))
    else:
        for r in done["seatings"]:
            print(f"seating {r['seating']}: journal {r['journal_same']}/{r['deals']} "
                  f"the same, STATE {r['state_same']}/{r['deals']} the same"
                  + ("" if r["first_difference"] is None else
                     f"; deal {r['first_difference']} differs first:\n"
                     f"  kept:     {r['kept_state']}\n  replayed: {r['replayed_state']}"))
        print(f"{'SAME' if done['same'] else 'DIFFERENT'}: {done['replayed']} against "
              f"{done['kept']} (seed {done['seed']})")
    sys.exit(0 if done["same"] else 1)


if __name__ == "__main__":
    main()
