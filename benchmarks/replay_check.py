"""Check that a copy of the code plays a kept match's first deals as it did.

A long pairing is played in parts over many sessions, each from a frozen copy of the
code (``docs/preregistered/issue16_pairings.md``). Before a part starts on a copy, the
copy replays the first deals of a part already kept, and they must come out the same
in every seating: the same hands action for action (the ``STATE`` lines of the hand
logs, hand ids aside) and the same journal records (payoffs, all-in and luck adjusted
payoffs, each decision). The replay also fills the copy's numba cache, so the part's
first re-solves are not cut by compiling.

Play the replay on the copy whose ``src`` folder is ``--code`` and compare (the agents,
table and seed are read from the kept match; the comparison runs on this tree's code,
the replay on the copy's)::

    .venv/bin/python benchmarks/replay_check.py docs/results/issue16/depth_small_431006 \\
        --code /work/s52b_src/src --deals 24 --out runs/s54/replay_431006

Without ``--code`` the replay runs on the code this interpreter imports. Or compare a
replay played before: ``--replayed runs/s53/replay_431006``. ``KEPT`` is an archive
(``benchmarks/archive_match.py``, gzipped logs) or a match's ``--out`` folder. The exit
status is 0 when every deal is the same, 1 when one differs (the first that differs in
each seating is printed, its journal records and its hand) and 2 on bad input (nothing
is played then).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import traceback
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


class BadInput(Exception):
    """Input this check cannot compare: status 2, with the message."""


def _match_file(folder: Path) -> tuple[RingConfig, int]:
    try:
        return read_match_file(folder / "logs")
    except JournalError as exc:
        raise BadInput(f"{exc} (or its archive)") from None


def _text(folder: Path, name: str) -> list[str]:
    path = folder / "logs" / name
    try:
        return read_log(path).splitlines()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file, nor its archive; expected the hand logs of "
                       "a match played with --out") from None
    except (JournalError, OSError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path}: {exc}; expected a hand log of checkraise match") from None


def seating(folder: Path, r: int) -> tuple[list[Any], list[str]]:
    """Seating ``r``'s journal records and ``STATE`` lines without hand ids, each up to
    the first line that is not whole (a torn last line, when the match was killed)."""
    records: list[Any] = []
    for line in _text(folder, f"rotation-{r}.jsonl"):
        try:
            records.append(json.loads(line))
        except ValueError:
            break
    states: list[str] = []
    for line in _text(folder, f"rotation-{r}.log"):
        if line.startswith("STATE:"):
            fields = line.split(":", 2)  # STATE, id, betting:cards:payoffs:players
            if len(fields) < 3 or fields[2].count(":") < 3:
                break
            states.append(fields[2])
    return records, states


def held(folder: Path, config: RingConfig) -> int:
    """The deals whose journal record and hand every seating of ``folder`` holds whole."""
    return min(min(len(records), len(states))
               for records, states in (seating(folder, r) for r in range(config.num_rotations)))


def play(kept: Path, deals: int, out: Path, code: Path | None) -> None:
    """Play the first ``deals`` deals of the match kept in ``kept`` into ``out`` (new),
    with one worker, on the code in ``code`` (else on what this interpreter imports)."""
    if deals < 1:
        raise BadInput(f"--deals {deals}: expected at least 1")
    if out.exists():
        raise BadInput(f"{out} exists; expected a new folder for the replay")
    if code is not None and not (code / "checkraise" / "__init__.py").is_file():
        raise BadInput(f"--code {code}: no checkraise/__init__.py in it; expected the src "
                       "folder of a copy of the code")
    config, seed = _match_file(kept)
    have = held(kept, config)
    if deals > have:
        raise BadInput(f"--deals {deals}: {kept} holds {have:,} deals in every seating; "
                       "expected at most that many")
    command = [sys.executable, "-m", "checkraise.cli.main", "match", *config.agents,
               "-n", str(deals), "--seed", str(seed), "--stack", str(config.stack),
               "--blinds", f"{config.small_blind}/{config.big_blind}",
               "--rules", str(config.rules),
               "--duplicate" if config.duplicate else "--no-duplicate",
               "--workers", "1", "--out", str(out)]
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = str(code.resolve())
    done = subprocess.run(command, check=False, env=env)
    if done.returncode != 0:
        raise BadInput(f"the replay ({' '.join(command)}) failed with status "
                       f"{done.returncode}")


def compare(kept: Path, replayed: Path) -> dict[str, Any]:
    """Each seating of ``replayed`` deal by deal against the same deals of ``kept``."""
    (want, seed), (have, replay_seed) = _match_file(kept), _match_file(replayed)
    differ = config_differences(have.to_json(), want.to_json(), kept)
    if replay_seed != seed:
        differ = "; ".join(filter(None, [differ, f"seed {replay_seed} where {kept} has "
                                                 f"{seed}"]))
    if differ:
        raise BadInput(f"{replayed} is not a replay of {kept}: {differ}; expected the "
                       f"same {', '.join(POOLED_SAME)} and seed")
    deals = have.hands
    rotations = []
    for r in range(have.num_rotations):
        new_records, new_states = seating(replayed, r)
        if len(new_records) != deals or len(new_states) != deals:
            raise BadInput(f"{replayed}: seating {r} holds {len(new_records)} whole journal "
                           f"records and {len(new_states)} hands; expected a finished "
                           f"replay of {deals} deals, each in both")
        old_records, old_states = seating(kept, r)
        if min(len(old_records), len(old_states)) < deals:
            raise BadInput(f"{kept}: seating {r} holds "
                           f"{min(len(old_records), len(old_states))} deals whole; "
                           f"expected at least the replay's {deals}")
        same_record = [a == b for a, b in zip(new_records, old_records[:deals], strict=True)]
        same_state = [a == b for a, b in zip(new_states, old_states[:deals], strict=True)]
        first = next((d for d in range(deals) if not (same_record[d] and same_state[d])),
                     None)
        row: dict[str, Any] = {"seating": r, "deals": deals,
                               "journal_same": sum(same_record),
                               "state_same": sum(same_state), "first_difference": first}
        if first is not None:
            row.update(kept_record=old_records[first], replayed_record=new_records[first],
                       kept_state=old_states[first], replayed_state=new_states[first])
        rotations.append(row)
    return {"kept": str(kept), "replayed": str(replayed), "seed": seed,
            "same": all(r["first_difference"] is None for r in rotations),
            "seatings": rotations}


def _show(done: dict[str, Any]) -> str:
    lines = []
    for r in done["seatings"]:
        lines.append(f"seating {r['seating']}: journal {r['journal_same']}/{r['deals']} "
                     f"the same, STATE {r['state_same']}/{r['deals']} the same")
        if r["first_difference"] is not None:
            lines.append(f"  deal {r['first_difference']} differs first:")
            for what in ("record", "state"):
                lines.append(f"    kept {what}:     {json.dumps(r['kept_' + what])}")
                lines.append(f"    replayed {what}: {json.dumps(r['replayed_' + what])}")
    lines.append(f"{'SAME' if done['same'] else 'DIFFERENT'}: {done['replayed']} against "
                 f"{done['kept']} (seed {done['seed']})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kept", type=Path, help="the kept match (archive or --out folder)")
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--out", type=Path, help="play the replay into this new folder")
    how.add_argument("--replayed", type=Path, help="compare a replay played before")
    parser.add_argument("--deals", type=int, default=24,
                        help="deals to replay with --out (default: 24)")
    parser.add_argument("--code", type=Path,
                        help="with --out: the src folder of the copy to replay on "
                             "(default: the code this interpreter imports)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    if args.code is not None and args.out is None:
        parser.error("--code goes with --out (a replay played here)")
    try:
        if args.out is not None:
            play(args.kept, args.deals, args.out, args.code)
        done = compare(args.kept, args.out or args.replayed)
    except BadInput as exc:
        print(exc, file=sys.stderr)
        sys.exit(2)
    except Exception:  # status 1 says "a deal differs", and nothing else may say it
        traceback.print_exc()
        sys.exit(2)
    print(json.dumps(done) if args.json else _show(done))
    sys.exit(0 if done["same"] else 1)


if __name__ == "__main__":
    main()
