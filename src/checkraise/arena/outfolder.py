"""Output folders that never lose an earlier result.

A command that writes into ``--out`` claims the files it is about to write: if an
earlier run left any of them there, the command refuses before it plays a hand,
unless ``force`` is given, and then it removes only those files (a user's own
files in the folder stay).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from checkraise.errors import CheckraiseError

__all__ = ["OutFolderError", "claim_out_folder", "match_logs", "remove_outputs"]


class OutFolderError(CheckraiseError):
    """The output folder holds something that this run must not overwrite or mix with."""


def _outputs(out: Path, names: Iterable[str], logs: re.Pattern[str]) -> list[Path]:
    found = [out / name for name in names if (out / name).is_file()]
    log_dir = out / "logs"
    if log_dir.is_dir():
        found += sorted(p for p in log_dir.iterdir() if p.is_file() and logs.fullmatch(p.name))
    return found


def match_logs(out: Path, suffix: str, *, archived: bool = False) -> list[Path]:
    """The hand logs ``logs/rotation-K.<suffix>`` (``log``: ACPC, ``txt``: PokerStars) of
    a ``checkraise match --out`` folder, in rotation order; :class:`OutFolderError` when
    it holds none.

    With ``archived``, a log kept gzipped as ``rotation-K.<suffix>.gz`` (an archived
    match, ``docs/results/README.md``) counts too; it is named without ``.gz``, for
    :func:`checkraise.arena.journal.read_log`, which reads either.
    """
    gz = r"(?:\.gz)?" if archived else ""
    pattern = re.compile(rf"rotation-(\d+)\.{re.escape(suffix)}{gz}")
    found: dict[int, Path] = {}
    for path in sorted((out / "logs").glob(f"rotation-*.{suffix}*")):
        if not (m := pattern.fullmatch(path.name)):
            continue
        log = path.with_name(f"rotation-{m.group(1)}.{suffix}")
        other = found.setdefault(int(m.group(1)), log)
        if other != log:
            raise OutFolderError(f"{out}: logs/{other.name} and logs/{log.name} are both "
                                 f"rotation {int(m.group(1))}'s; expected one log a rotation")
    if not found:
        raise OutFolderError(f"{out}: no logs/rotation-*.{suffix}"
                             + (" (nor .gz)" if archived else "")
                             + "; expected the --out of 'checkraise match'")
    return [found[k] for k in sorted(found)]


def remove_outputs(out: Path, names: Iterable[str], logs: re.Pattern[str]) -> None:
    """Remove the files ``names`` and the hand logs matching ``logs`` (and ``logs/`` if empty)."""
    for path in _outputs(out, names, logs):
        path.unlink()
    log_dir = out / "logs"
    if log_dir.is_dir() and not any(log_dir.iterdir()):
        log_dir.rmdir()


def claim_out_folder(
    out: Path, names: Iterable[str], logs: re.Pattern[str], *, force: bool, command: str
) -> None:
    """Make sure a run of ``command`` may write its files into ``out``.

    Parameters
    ----------
    out
        The ``--out`` folder (it need not exist yet).
    names
        Files the run writes at the top of ``out``.
    logs
        Pattern of the hand-log file names the run writes into ``out/logs``.
    force
        Remove the earlier run's files instead of refusing.
    command
        The command's name, for the message.

    Raises
    ------
    OutFolderError
        ``out`` is a file, or holds files of an earlier run and ``force`` is false.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "results.json").write_text("{}")
    >>> claim_out_folder(folder, ["results.json"], re.compile("x"), force=False, command="match")
    Traceback (most recent call last):
    ...
    checkraise.arena.outfolder.OutFolderError: --out ... holds results of an earlier ...
    >>> claim_out_folder(folder, ["results.json"], re.compile("x"), force=True, command="match")
    >>> (folder / "results.json").exists()
    False
    """
    names = list(names)
    if out.exists() and not out.is_dir():
        raise OutFolderError(f"invalid --out {out}: it is a file, expected a folder")
    earlier = _outputs(out, names, logs) if out.is_dir() else []
    if not earlier:
        return
    if not force:
        shown = ", ".join(str(p.relative_to(out)) for p in earlier[:3])
        more = f" and {len(earlier) - 3} more" if len(earlier) > 3 else ""
        raise OutFolderError(
            f"--out {out} holds results of an earlier `checkraise {command}` ({shown}{more}): "
            "pass --force to replace them, or choose another folder"
        )
    remove_outputs(out, names, logs)
