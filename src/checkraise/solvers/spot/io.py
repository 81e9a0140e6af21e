"""Saved spot solutions: a folder holding plain arrays (``.npz``) and a JSON header.

A solution folder holds two files:

``solution.json``
    The header: the format and its version, the spot (its TOML/JSON table), the
    algorithm and precision, the iterations run, the solver seconds, the
    exploitability measured at the end, the command that produced it (when
    given), a fingerprint of the betting tree, and for every array its dtype,
    shape and SHA-256.
``solution.npz``
    Both players' cumulative-strategy buffers (what every report reads), their
    regret buffers (so that a loaded solver can iterate on from where it
    stopped, exactly as if it had never been saved), their reach at the root,
    any node locks, and the re-solving gadget's bounds and buffers if it has one.

A depth-limited solve keeps its tree but not the function that valued its
leaves (code is never stored): :func:`load_solution` asks for it again.

Nothing is pickled: the arrays are read with ``allow_pickle=False`` and each one
is checked against its digest, so a file that was cut short, edited or written by
another version fails with one :class:`SolutionError` naming what is wrong, and
nothing else is read or changed. :func:`save_solution` writes both files under
temporary names and renames them into place, so an interrupted save leaves any
earlier solution whole.

``dtype="float32"`` stores the buffers in single precision: half the size, at
the cost of rounding every stored number (the reports of the loaded solver then
agree to about seven digits).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from checkraise.cards import NUM_COMBOS
from checkraise.errors import CheckraiseError, ConfigError, FormatError, one_of
from checkraise.solvers.spot.config import Spot
from checkraise.solvers.spot.solver import Gadget, LeafValues, SpotSolver
from checkraise.solvers.spot.tree import SpotTree

__all__ = [
    "ARRAYS_FILE",
    "FORMAT",
    "FORMAT_VERSION",
    "HEADER_FILE",
    "SOLUTION_FILES",
    "SolutionError",
    "SolutionInfo",
    "load_solution",
    "read_header",
    "save_solution",
    "tree_fingerprint",
]

FORMAT = "checkraise-spot-solution"
FORMAT_VERSION = 1
HEADER_FILE = "solution.json"
ARRAYS_FILE = "solution.npz"
SOLUTION_FILES = (HEADER_FILE, ARRAYS_FILE)
SAVE_DTYPES = ("float32", "float64")


class SolutionError(FormatError):
    """A solution folder that cannot be loaded: missing, damaged, or of another version."""


@dataclass(frozen=True)
class SolutionInfo:
    """What the header says about a saved solution, beside the solver itself.

    Attributes
    ----------
    path : Path
        The folder.
    exploitability_pct : float or None
        Exploitability in % of the pot, as measured when it was saved.
    command : str or None
        The command line that produced it.
    dtype : str
        ``float64`` or ``float32``: how the buffers were stored.
    header : dict
        The whole header.
    """

    path: Path
    exploitability_pct: float | None
    command: str | None
    dtype: str
    header: dict[str, Any]


def tree_fingerprint(tree: SpotTree, hands: tuple[int, int]) -> str:
    """SHA-256 of the betting tree's layout: two spots with the same one share buffers.

    Examples
    --------
    >>> spot = Spot.from_dict({"board": "Ks 7h 2c 3d 9s", "pot": 10, "stack": 10,
    ...                        "ranges": {"oop": "AA", "ip": "KK"}})
    >>> from checkraise.solvers.spot.tree import build_tree
    >>> len(tree_fingerprint(build_tree(spot, (6, 3)), (6, 3)))
    64
    """
    digest = hashlib.sha256()
    digest.update(np.asarray(hands, np.int64).tobytes())
    for array in (tree.kind, tree.player, tree.child_start, tree.child_count, tree.offset,
                  tree.stride, tree.outcomes):
        digest.update(np.ascontiguousarray(array, np.int64).tobytes())
    digest.update(np.ascontiguousarray(tree.commit, np.float64).tobytes())
    digest.update("\n".join(tree.labels).encode("utf-8"))
    return digest.hexdigest()


def _sha256(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()


def _root_reach(solver: SpotSolver, player: int) -> npt.NDArray[np.float64]:
    full = np.zeros(NUM_COMBOS)
    full[solver.combos[player]] = solver.initial_reach[player]
    return full


def _lock_arrays(solver: SpotSolver) -> dict[str, np.ndarray]:
    # Locks live in the solver as {player: {block start: (hand mask, [action, hand] values)}}.
    out: dict[str, np.ndarray] = {}
    for player, table in sorted(solver.lock_state().items()):
        for k, block in enumerate(sorted(table)):
            mask, values = table[block]
            out[f"lock{player}_{k}_block"] = np.array([block], np.int64)
            out[f"lock{player}_{k}_mask"] = np.asarray(mask, np.bool_)
            out[f"lock{player}_{k}_values"] = np.asarray(values, np.float64)
    return out


def save_solution(
    solver: SpotSolver,
    folder: str | Path,
    *,
    exploitability_pct: float | None = None,
    command: str | None = None,
    dtype: str = "float64",
) -> Path:
    """Write ``solver`` into ``folder`` (created if missing); return the folder.

    Parameters
    ----------
    solver : SpotSolver
        The solver, at any iteration.
    folder : str or Path
        Where ``solution.json`` and ``solution.npz`` go (earlier ones are replaced).
    exploitability_pct : float or None
        The exploitability to record (``None``: measure it now).
    command : str or None
        The command line that produced the solution, recorded in the header.
    dtype : str
        ``float64`` (exact) or ``float32`` (half the size).

    Examples
    --------
    >>> import tempfile
    >>> spot = Spot.from_dict({"board": "Ks 7h 2c 3d 9s", "pot": 100, "stack": 100,
    ...                        "ranges": {"oop": "AA,QQ", "ip": "KK,JJ"}})
    >>> solver = SpotSolver(spot)
    >>> solver.iterate(20)
    >>> folder = save_solution(solver, tempfile.mkdtemp())
    >>> loaded, info = load_solution(folder)
    >>> loaded.iteration, bool(np.array_equal(loaded.cum[0], solver.cum[0]))
    (20, True)
    """
    if dtype not in SAVE_DTYPES:
        raise CheckraiseError(f"save dtype {dtype!r}; expected {one_of(SAVE_DTYPES)}")
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise CheckraiseError(f"cannot save a solution into {out}: it is a file, expected a folder")
    out.mkdir(parents=True, exist_ok=True)
    if exploitability_pct is None:
        exploitability_pct = solver.exploitability()
    arrays: dict[str, np.ndarray] = {}
    for p in range(2):
        arrays[f"cum{p}"] = np.asarray(solver.cum[p], dtype)
        arrays[f"regret{p}"] = np.asarray(solver.regret[p], dtype)
        arrays[f"reach{p}"] = _root_reach(solver, p)
    arrays.update(_lock_arrays(solver))
    gadget = solver.gadget
    if gadget is not None:
        arrays["gadget_values"] = np.asarray(gadget.values, np.float64)
        regret, cum = solver.gadget_buffers
        arrays["gadget_regret"] = np.asarray(regret, np.float64)
        arrays["gadget_cum"] = np.asarray(cum, np.float64)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "spot": solver.spot.to_dict(),
        "algorithm": solver.algorithm,
        "precision": solver.precision,
        "dtype": dtype,
        "iterations": solver.iteration,
        "seconds": solver.seconds,
        "exploitability_pct": exploitability_pct,
        "command": command,
        "hands": list(solver.hands),
        "depth_limited": solver.leaf_values is not None,
        "leaf_choices": None if solver.leaf_choices is None else list(solver.leaf_choices),
        "gadget": None if gadget is None else {"player": gadget.player,
                                               "maxmargin": gadget.maxmargin},
        "tree": {"nodes": solver.tree.num_nodes, "storage": list(solver.tree.storage),
                 "sha256": tree_fingerprint(solver.tree, solver.hands)},
        "arrays": {name: {"dtype": str(a.dtype), "shape": list(a.shape), "sha256": _sha256(a)}
                   for name, a in arrays.items()},
    }
    # Write beside the targets, then rename: a save that dies half way leaves the old pair.
    tmp_arrays = out / f".{ARRAYS_FILE}.{os.getpid()}.tmp"
    tmp_header = out / f".{HEADER_FILE}.{os.getpid()}.tmp"
    try:
        with tmp_arrays.open("wb") as handle:
            np.savez(handle, **arrays)  # type: ignore[arg-type]
        tmp_header.write_text(json.dumps(header, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp_arrays, out / ARRAYS_FILE)
        os.replace(tmp_header, out / HEADER_FILE)
    finally:
        for tmp in (tmp_arrays, tmp_header):
            tmp.unlink(missing_ok=True)
    return out


def read_header(folder: str | Path) -> dict[str, Any]:
    """The header of the solution in ``folder``, its format and version checked."""
    path = Path(folder) / HEADER_FILE
    if not Path(folder).is_dir():
        raise SolutionError(f"{folder}: no such solution folder; expected a folder written by "
                            "`checkraise spot solve --out`")
    try:
        header = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SolutionError(f"{folder}: no {HEADER_FILE}; expected a folder written by "
                            "`checkraise spot solve --out`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SolutionError(f"{path}: not a readable JSON header ({exc})") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SolutionError(f"{path}: not a checkraise spot solution (no format {FORMAT!r})")
    if header.get("version") != FORMAT_VERSION:
        raise SolutionError(
            f"{path}: format version {header.get('version')!r}; this checkraise reads "
            f"version {FORMAT_VERSION}"
        )
    return header


def _field(header: dict[str, Any], key: str, kind: type | tuple[type, ...], path: Path) -> Any:
    value = header.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SolutionError(f"{path}: header field {key!r} = {value!r} is missing or malformed")
    return value


def _read_arrays(folder: Path, header: dict[str, Any]) -> dict[str, np.ndarray]:
    path = folder / ARRAYS_FILE
    listed = _field(header, "arrays", dict, folder / HEADER_FILE)
    try:
        with np.load(path, allow_pickle=False) as data:
            names = set(data.files)
            if names != set(listed):
                missing = sorted(set(listed) - names) or sorted(names - set(listed))
                raise SolutionError(
                    f"{path}: holds arrays {sorted(names)}, the header lists {sorted(listed)} "
                    f"(first difference {missing[0]!r})"
                )
            arrays = {name: data[name] for name in sorted(names)}
    except FileNotFoundError:
        raise SolutionError(f"{folder}: no {ARRAYS_FILE} beside {HEADER_FILE}") from None
    except SolutionError:
        raise
    except Exception as exc:  # zipfile, zlib, numpy format and pickle refusals alike
        raise SolutionError(f"{path}: not a readable .npz file ({type(exc).__name__}: {exc})"
                            ) from None
    for name, array in arrays.items():
        meta = listed[name]
        if not isinstance(meta, dict) or meta.get("sha256") != _sha256(array):
            raise SolutionError(
                f"{path}: array {name!r} does not match its SHA-256 in the header; the file "
                "is damaged or was changed after it was saved"
            )
        if meta.get("dtype") != str(array.dtype) or meta.get("shape") != list(array.shape):
            raise SolutionError(f"{path}: array {name!r} has dtype {array.dtype} and shape "
                                f"{list(array.shape)}, the header says {meta.get('dtype')} "
                                f"{meta.get('shape')}")
    return arrays


def _restore_locks(solver: SpotSolver, arrays: dict[str, np.ndarray], path: Path) -> None:
    locks: dict[int, dict[int, tuple[np.ndarray, np.ndarray]]] = {}
    for name in arrays:
        if not (name.startswith("lock") and name.endswith("_block")):
            continue
        stem = name.removesuffix("_block")
        player = int(stem[4])
        block = int(arrays[name][0])
        mask, values = arrays[f"{stem}_mask"], arrays[f"{stem}_values"]
        if mask.shape != (solver.hands[player],) or values.size % max(1, mask.size):
            raise SolutionError(f"{path}: lock {stem!r} does not fit the player's hands")
        locks.setdefault(player, {})[block] = (mask.astype(np.bool_), values.astype(np.float64))
    if locks:
        try:
            solver.restore_locks(locks)
        except ConfigError as exc:
            raise SolutionError(f"{path}: {exc}") from None


def _gadget(header: dict[str, Any], arrays: dict[str, np.ndarray], path: Path) -> Gadget | None:
    table = header.get("gadget")
    if table is None:
        return None
    player = table.get("player") if isinstance(table, dict) else None
    values = arrays.get("gadget_values")
    if player not in (0, 1) or values is None or "gadget_cum" not in arrays:
        raise SolutionError(f"{path}: the re-solving gadget is incomplete (player {player!r})")
    maxmargin = table.get("maxmargin", False)
    if not isinstance(maxmargin, bool):
        raise SolutionError(f"{path}: gadget maxmargin = {maxmargin!r}; expected true or false")
    return Gadget(int(player), np.asarray(values, np.float64), maxmargin)


def _leaf_choices(header: dict[str, Any], where: Path) -> tuple[int, int] | None:
    found = header.get("leaf_choices")
    if found is None:
        return None
    if (not isinstance(found, list) or len(found) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in found)):
        raise SolutionError(f"{where}: leaf_choices {found!r}; expected [player, k]")
    return int(found[0]), int(found[1])


def load_solution(
    folder: str | Path, threads: int = 1, leaf_values: LeafValues | None = None
) -> tuple[SpotSolver, SolutionInfo]:
    """Load the solution in ``folder`` into a new :class:`SpotSolver`.

    The solver has the saved buffers, iteration count and seconds, so its reports
    equal the saved solver's and :meth:`SpotSolver.iterate` continues the run.

    Parameters
    ----------
    folder : str or Path
        A folder written by :func:`save_solution`.
    threads : int
        Cores for further iterations.
    leaf_values : callable or None
        The leaf values of a depth-limited solve (required for one, refused
        otherwise): the function is not stored with the solution.

    Raises
    ------
    SolutionError
        The folder is missing a file, a file is damaged (an array that does not
        match its SHA-256), of another format version, or its spot builds another
        betting tree than the one saved.
    """
    root = Path(folder)
    header = read_header(root)
    where = root / HEADER_FILE
    arrays = _read_arrays(root, header)
    spot_table = _field(header, "spot", dict, where)
    try:
        spot = Spot.from_dict(spot_table)
    except CheckraiseError as exc:
        raise SolutionError(f"{where}: the saved spot is not valid: {exc}") from None
    depth_limited = header.get("depth_limited", False)
    if depth_limited and leaf_values is None:
        raise SolutionError(
            f"{where}: a depth-limited solve, whose leaves take their values from a function "
            "that is not stored; load it with leaf_values= from Python"
        )
    if not depth_limited and leaf_values is not None:
        raise SolutionError(f"{where}: not a depth-limited solve; it takes no leaf_values")
    for p in range(2):
        if arrays.get(f"reach{p}", np.zeros(0)).shape != (NUM_COMBOS,):
            raise SolutionError(f"{root / ARRAYS_FILE}: reach{p} is missing or not 1,326 weights")
    try:
        solver = SpotSolver(
            spot,
            algorithm=_field(header, "algorithm", str, where),
            precision=_field(header, "precision", str, where),
            threads=threads,
            reach=(arrays["reach0"], arrays["reach1"]),
            leaf_values=leaf_values,
            gadget=_gadget(header, arrays, where),
            leaf_choices=_leaf_choices(header, where),
        )
    except SolutionError:
        raise
    except CheckraiseError as exc:
        raise SolutionError(f"{where}: the saved settings are not valid: {exc}") from None
    tree = _field(header, "tree", dict, where)
    if tree.get("sha256") != tree_fingerprint(solver.tree, solver.hands):
        raise SolutionError(
            f"{where}: the saved spot builds another betting tree ({solver.tree.num_nodes} "
            f"nodes, storage {list(solver.tree.storage)}) than the one solved "
            f"({tree.get('nodes')} nodes, storage {tree.get('storage')}); the header was "
            "edited or written by another checkraise version"
        )
    for p in range(2):
        for kind, buffers in (("cum", solver.cum), ("regret", solver.regret)):
            saved = arrays.get(f"{kind}{p}")
            if saved is None or saved.shape != buffers[p].shape:
                raise SolutionError(f"{root / ARRAYS_FILE}: {kind}{p} is missing or does not "
                                    "fit the tree")
            buffers[p][:] = saved
    _restore_locks(solver, arrays, root / ARRAYS_FILE)
    if solver.gadget is not None:
        try:
            solver.restore_gadget_buffers(arrays.get("gadget_regret", np.zeros(0)),
                                          arrays.get("gadget_cum", np.zeros(0)))
        except ConfigError as exc:
            raise SolutionError(f"{root / ARRAYS_FILE}: {exc}") from None
    solver.iteration = int(_field(header, "iterations", int, where))
    solver.seconds = float(_field(header, "seconds", (int, float), where))
    exploit = header.get("exploitability_pct")
    command = header.get("command")
    info = SolutionInfo(
        path=root,
        exploitability_pct=float(exploit) if isinstance(exploit, (int, float)) else None,
        command=command if isinstance(command, str) else None,
        dtype=str(header.get("dtype", "float64")),
        header=header,
    )
    return solver, info
