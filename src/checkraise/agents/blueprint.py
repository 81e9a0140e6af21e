"""The ``blueprint`` bot: plays a trained abstract-HUNL strategy in the real game.

At each decision the bot replays the hand's public actions through the abstract
betting tree. Its own actions are the abstract actions it chose (remembered); an
opponent's fold or call is the abstract fold or call, and a raise is read as one of
the abstract raises by the randomized pseudo-harmonic mapping (Ganzfried & Sandholm
2013) on bet sizes as fractions of the pot after calling, with one uniform draw per
action from a generator seeded by the bot's seed and the hand, so replays agree and
the draw never depends on the bot's cards. Chips are compared in big blinds, so the
blueprint plays any blinds; stacks other than the blueprint's are played as if they
were its stacks, with all-in meaning the real all-in; antes count in the pot (not in
raise-to amounts).

When the real hand leaves the tree (a street the abstract line has ended, or the
wrong player to act, e.g. after an opponent's small raise was read as all-in), the
bot re-enters it at the decision of the right street and position whose pot and
price to call are nearest to the real ones.

Its own action is an abstract action sampled from the blueprint's row for its bucket;
a raise becomes the same fraction of the real pot, rounded and clamped to the legal
range; all-in is the real all-in. :meth:`BlueprintAgent.action_probabilities` gives
the same distribution for all 1,326 hands (the translation draws are public), which
local best response and subgame solving read.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from checkraise.agents.base import BaseAgent
from checkraise.agents.draws import DRAWS, fresh_seed, hand_uniform, pick
from checkraise.agents.portfolio import Portfolio
from checkraise.agents.translation import TRANSLATIONS, translate
from checkraise.errors import ConfigError, one_of
from checkraise.games.holdem import CALL, DECISION, FOLD_ACTION, RAISE, BettingTree

if TYPE_CHECKING:
    from fractions import Fraction

    import numpy.typing as npt

    from checkraise.agents.probabilities import HandActionProbabilities
    from checkraise.engine import Action, Observation, TableConfig
    from checkraise.solvers.blueprint import Blueprint

__all__ = ["ADAPT_ARMS", "BIASES", "BIAS_FACTOR", "DRAWS", "BlueprintAgent", "bias_rows",
           "fresh_seed", "hand_uniform", "load_blueprint", "pick",
           "resolve_blueprint", "street_biases"]

#: The blueprint and its three biased versions (Brown, Sandholm & Amos 2018, "Depth-limited
#: solving for imperfect-information games": the continuation strategies of a
#: depth-limited subgame's leaves): each action of the named kind has its probability
#: multiplied by :data:`BIAS_FACTOR`, then the row is renormalised.
BIASES = ("none", "fold", "call", "raise")
BIAS_FACTOR = 5.0
_BIAS_KIND = {"fold": FOLD_ACTION, "call": CALL, "raise": RAISE}
#: The portfolio of ``adapt=true``: the blueprint; folding to bets and raising, against
#: a player who bets only for value and folds too much; calling bets and raises of up
#: to half the pot after the flop, against one whose small bets are bluffs.
ADAPT_ARMS = "none+fold100raise100+none/call100@0.5"

SHIPPED = {"minraise2": "blueprint_minraise2.npz", "small": "blueprint_small.npz"}
#: The blueprint the bot plays unless told otherwise.
DEFAULT = "minraise2"
_CACHE: dict[str, Blueprint] = {}


def resolve_blueprint(name: str | Path) -> Path:
    """The file of a shipped blueprint name (``minraise2``, ``small``) or a path."""
    key = str(name)
    if key in SHIPPED:
        return Path(__file__).resolve().parent.parent / "data" / SHIPPED[key]
    path = Path(key)
    if path.is_dir():
        path = path / "blueprint.npz"
    if not path.exists():
        raise ConfigError(
            f"blueprint {key!r}: no such file; expected one of {one_of(SHIPPED)} or a "
            "blueprint .npz (or a training folder holding blueprint.npz)"
        )
    return path


def load_blueprint(name: str | Path) -> Blueprint:
    """A blueprint, loaded once per process."""
    from checkraise.solvers.blueprint import Blueprint

    path = resolve_blueprint(name)
    key = str(path.resolve())
    if key not in _CACHE:
        _CACHE[key] = Blueprint.load(path)
    return _CACHE[key]


def bias_rows(rows: Any, kinds: Any, bias: str, facing: float | None = None) -> Any:
    """``rows`` (``[..., children]``, each summing to 1) biased towards the children whose
    action kind (``kinds``: :data:`FOLD_ACTION`, :data:`CALL`, :data:`RAISE`) ``bias`` names
    (one street's bias: ``call``, ``raise25``, ``fold25raise5``, ``call25@0.5``).
    ``facing``: the bet or raise the player faces, as a fraction of the pot after calling
    (None: none); a kind bounded by ``@X`` is biased only when ``facing`` is at most ``X``.

    Examples
    --------
    >>> bias_rows(np.array([[0.5, 0.25, 0.25]]), np.array([FOLD_ACTION, CALL, RAISE]), "call")
    array([[0.25 , 0.625, 0.125]])
    >>> bias_rows(np.array([[0.5, 0.5]]), np.array([FOLD_ACTION, CALL]), "call3@0.5", 1.0)
    array([[0.5, 0.5]])
    """
    factors = [
        (kind, factor)
        for kind, factor, bound in _bias_factors(bias)
        if bound is None or (facing is not None and facing <= bound + 1e-9)
    ]
    if not factors:
        return rows
    kinds = np.asarray(kinds)
    scale = np.ones(kinds.shape)
    for kind, factor in factors:
        scale[kinds == _BIAS_KIND[kind]] *= factor
    out = np.asarray(rows, dtype=np.float64) * scale
    total = out.sum(axis=-1, keepdims=True)
    return out / np.where(total > 0.0, total, 1.0)


_NUMBER = r"\d+(?:\.\d+)?"


def _bias_factors(bias: str) -> list[tuple[str, float, float | None]]:
    """``[(kind, factor, bound), ...]`` of a bias: ``none``, or kinds of :data:`BIASES`,
    each optionally followed by its factor (:data:`BIAS_FACTOR` without one) and by
    ``@X`` (only when facing a bet or raise of at most ``X`` times the pot after calling;
    ``bound`` None without one), written one after the other: ``raise25`` makes raises 25
    times as likely, ``fold25raise5`` folds 25 and raises 5 times, ``call25@0.5`` calls 25
    times as likely when facing at most half the pot."""
    if bias == "none":
        return []
    parts = re.findall(rf"(fold|call|raise)({_NUMBER})?(?:@({_NUMBER}))?", bias)
    factors = [(kind, float(f) if f else BIAS_FACTOR, float(b) if b else None)
               for kind, f, b in parts]
    if (
        not parts
        or "".join(k + f + ("@" + b if b else "") for k, f, b in parts) != bias
        or len({k for k, _, _ in factors}) != len(factors)
        or any(f <= 0.0 for _, f, _ in factors)
    ):
        raise ConfigError(
            f"bias={bias!r}; expected one of {one_of(BIASES)}, optionally with a factor "
            "above 0 (raise25) and a largest bet faced, in pots (call25@0.5), or several "
            "kinds at once (fold25raise5)"
        )
    return factors


def street_biases(bias: str) -> tuple[str, str, str, str]:
    """The bias of each street (preflop, flop, turn, river) that ``bias`` names: one of
    :data:`BIASES` (with an optional factor, ``raise25``) for every street, ``PRE/POST``
    (before the flop / after it) or one per street, ``/``-separated.

    Examples
    --------
    >>> street_biases("raise/fold")
    ('raise', 'fold', 'fold', 'fold')
    """
    parts = str(bias).split("/")
    try:
        if len(parts) not in (1, 2, 4):
            raise ConfigError(f"{len(parts)} biases")
        for b in parts:
            _bias_factors(b)
    except ConfigError:
        raise ConfigError(
            f"bias={bias!r}; expected one of {one_of(BIASES)}, optionally with a factor "
            "(raise25) and a largest bet faced, in pots (call25@0.5), or several kinds at "
            "once (fold25raise5), or one such per street as "
            "PRE/POST or PREFLOP/FLOP/TURN/RIVER (e.g. raise/fold)"
        ) from None
    if len(parts) == 1:
        parts = parts * 4
    elif len(parts) == 2:
        parts = [parts[0]] + [parts[1]] * 3
    return (parts[0], parts[1], parts[2], parts[3])


def _size(tree: BettingTree, node: int, to: float) -> float:
    """A raise to ``to`` at ``node`` as a fraction of the pot after calling (abstract chips)."""
    c = tree.committed[node]
    p = int(tree.player[node])
    mx = float(max(c))
    pot = float(c[0] + c[1])
    return (to - mx) / (pot + mx - float(c[p]))


def facing_sizes(tree: BettingTree) -> Any:
    """Per node of ``tree``, the raise that led to it as a fraction of the pot after
    calling (:func:`_size`): the bet or raise the player at the node faces; NaN where
    the last action was not a raise.

    Examples
    --------
    >>> from checkraise.games.holdem import PRESETS, build_betting_tree
    >>> tree = build_betting_tree(PRESETS["fcpa"])
    >>> float(facing_sizes(tree)[tree.find("r300c/r900")])  # a pot-sized bet on the flop
    1.0
    """
    out = np.full(tree.num_nodes, np.nan)
    nodes = np.flatnonzero(tree.act_kind == RAISE)
    nodes = nodes[nodes > 0]
    parent = tree.parent[nodes]
    c = tree.committed[parent].astype(np.float64)
    mx = c.max(axis=1)
    mine = c[np.arange(len(nodes)), tree.player[parent]]
    out[nodes] = (tree.act_to[nodes] - mx) / (c.sum(axis=1) + mx - mine)
    return out


def _decisions_by_street(
    tree: BettingTree,
) -> dict[tuple[int, int], tuple[npt.NDArray[np.int64], npt.NDArray[np.float64],
                               npt.NDArray[np.float64]]]:
    """Per (street, position): its decision nodes, their pots and the share of the pot
    the player must call there (what :meth:`BlueprintAgent._nearest` compares)."""
    nodes = np.asarray(tree.decision_nodes, dtype=np.int64)
    committed = np.asarray(tree.committed, dtype=np.float64)[nodes]
    player = np.asarray(tree.player)[nodes].astype(np.int64)
    pots = committed.sum(axis=1)
    shares = (committed.max(axis=1) - committed[np.arange(len(nodes)), player]) / pots
    keys = np.asarray(tree.street)[nodes].astype(np.int64) * 2 + player
    out = {}
    for key in np.unique(keys):
        at = keys == key
        out[(int(key) // 2, int(key) % 2)] = (nodes[at], pots[at], shares[at])
    return out


# What a draw of hand_uniform is for, so that no two uses share a number.
_TRANSLATION_DRAW = 0x7472
_ACTION_DRAW = 0x6163
_ARM_DRAW = 0x6172


class BlueprintAgent(BaseAgent):
    """Plays a blueprint (see the module docstring).

    Parameters
    ----------
    file : str
        ``minraise2`` (shipped, the default), ``small`` (shipped) or the path of a
        blueprint ``.npz`` or training folder.
    threshold : float
        Purification (Ganzfried & Sandholm 2012; Brown et al. 2015): actions below this
        probability are dropped and the rest renormalised (0, the default, plays the
        average strategy as it is).
    translation : str
        ``pseudo-harmonic`` (randomized, the default) or ``deterministic``.
    bias : str
        ``none`` (the blueprint, default) or ``fold``, ``call``, ``raise``: every action
        of that kind five times as likely, renormalised (:func:`bias_rows`; the
        continuation strategies of depth-limited solving, and opponents that play them).
        A factor can follow the kind (``raise25``), several kinds can go together
        (``fold25raise5``: folds 25 times, raises 5 times as likely), and each street
        can have its own (:func:`street_biases`: ``raise/fold`` biases the preflop
        towards raising and the later streets towards folding). ``@X`` after a kind
        biases it only facing a bet or raise of at most ``X`` times the pot after
        calling (``none/call25@0.5``: after the flop, call bets of up to half the pot
        25 times as often).
    adapt : bool
        Learn online which of a portfolio of biased versions of the blueprint earns most
        against this opponent, and play it (Bard et al. 2013, online implicit agent
        modelling; :mod:`checkraise.agents.portfolio`). Off by default: the bot then
        plays the blueprint, the same in every hand.
    arms : str
        The portfolio with ``adapt``: biases (as ``bias`` takes them) joined by ``+``;
        :data:`ADAPT_ARMS` by default.
    explore : float
        With ``adapt``, the share of hands spread evenly over the portfolio.
    margin : float
        With ``adapt``, how sure the bot must be before it leaves the first arm (the
        blueprint in :data:`ADAPT_ARMS`): another arm is chosen, beyond ``explore``, only
        once its advantage over the first is more than ``margin`` standard errors above
        zero (default 0.5; 0 plays plain Thompson sampling, which earns about as much
        against weak bots and is far more exploitable; 1 is as safe as 0.5 but can be
        slow to leave the blueprint).
    draws : str
        Where the bot's random numbers come from. ``stream`` (the default): its action
        draws and portfolio choices come one after another from one generator for the
        whole session, so a hand's draws depend on every hand before it. ``hand``: each
        draw depends only on the seed, the hand number and the decision's place in the
        hand (common random numbers). Two bots that play this blueprint with the same
        seed then play every hand alike up to the first decision where they differ, as
        the ``resolve`` bot and its blueprint do before the river; a duplicate match
        between them is 0 on every deal over before it, which narrows its interval. The
        translation draws depend only on the seed, the hand and the action in both.
    seed : int or None
        Seeds the bot's action draws, its translation draws and its portfolio choices.
    """

    def __init__(
        self,
        *,
        file: str = DEFAULT,
        translation: str = "pseudo-harmonic",
        threshold: float = 0.0,
        bias: str = "none",
        adapt: bool = False,
        arms: str = ADAPT_ARMS,
        explore: float = 0.05,
        margin: float = 0.5,
        draws: str = "stream",
        seed: int | None = None,
    ) -> None:
        super().__init__(seed=seed)
        if draws not in DRAWS:
            raise ConfigError(f"draws={draws!r}; expected one of {one_of(DRAWS)}")
        self.draws = draws
        self._draw_seed = fresh_seed(seed)
        self.bias = bias
        self._street_bias = street_biases(bias)
        if not isinstance(adapt, bool):
            raise ConfigError(f"adapt={adapt!r}; expected true or false")
        self.portfolio: Portfolio | None = None
        self.arms = tuple(str(arms).split("+")) if adapt else ()
        self._arms = [street_biases(a) for a in self.arms]
        if not adapt and arms != ADAPT_ARMS:
            raise ConfigError(f"arms={arms!r} without adapt=true; expected both or neither")
        if adapt:
            if bias != "none":
                raise ConfigError(
                    f"bias={bias!r} with adapt=true; the portfolio's arms set the bias "
                    "(arms=...), so leave bias out"
                )
            self.portfolio = Portfolio(len(self._arms), explore=explore, margin=margin)
        self.arm = 0
        self._p = np.full(len(self._arms), 1.0 / len(self._arms)) if adapt else np.ones(1)
        self._logs = np.zeros(len(self._arms))
        self._decisions: list[tuple[int, int, int]] = []  # this hand's (node, child, street)
        if not 0.0 <= threshold < 1.0:
            raise ConfigError(f"threshold={threshold!r}; expected 0 <= threshold < 1")
        self.threshold = float(threshold)
        if translation not in TRANSLATIONS:
            raise ConfigError(
                f"translation={translation!r}; expected one of {one_of(TRANSLATIONS)}"
            )
        self.translation = translation
        self.blueprint = load_blueprint(file)
        self.game = self.blueprint.game
        self.tree = self.game.tree
        self._seat = 0
        self._hand = 0
        self._mine: dict[int, int] = {}  # history length when I acted -> abstract child
        tree = self.tree
        self._facing = facing_sizes(tree)
        self._roots = _decisions_by_street(tree)

    def begin_hand(
        self, seat: int, config: TableConfig, hole_cards: tuple[int, ...], hand_number: int
    ) -> None:
        if config.num_players != 2:
            raise ConfigError(
                f"the blueprint bot plays heads-up; this table has {config.num_players} seats"
            )
        self._seat = seat
        self._hand = hand_number
        self._mine = {}
        if self.portfolio is not None:
            self._p = self.portfolio.probabilities([self.seed or 0, hand_number, 0x706F])
            if self.draws == "hand":
                u = hand_uniform(self._draw_seed, hand_number, 0, _ARM_DRAW)
                self.arm = pick(self._p, u)
            else:
                self.arm = int(self.rng.choice(len(self._arms), p=self._p))
            self._street_bias = self._arms[self.arm]
            self._logs = np.zeros(len(self._arms))
            self._decisions = []

    def end_hand(self, observation: Observation, payoffs: tuple[int | Fraction, ...]) -> None:
        """With ``adapt``, the hand's payoff (in big blinds) updates every strategy's
        estimate (:class:`~checkraise.agents.portfolio.Portfolio`)."""
        if self.portfolio is not None:
            won = float(payoffs[self._seat]) / observation.config.big_blind
            self.portfolio.observe(self._logs, won, self._p)

    # -- the abstract node of the real hand
    def _scale(self, obs: Observation) -> float:
        return self.game.rules.big_blind / obs.config.big_blind

    @staticmethod
    def _bets(obs: Observation) -> tuple[list[int], int]:
        """Chips per seat as raise-to amounts count them (antes aside), and the antes."""
        antes = [min(obs.config.ante, s) for s in obs.config.stacks]
        return [c - a for c, a in zip(obs.contributions, antes, strict=True)], sum(antes)

    def _position(self, seat: int, obs: Observation) -> int:
        # heads-up, engine seat 0 is the button (small blind): position 0
        return 0 if seat == obs.config.button else 1

    def _draw(self, index: int) -> float:
        return hand_uniform(self.seed or 0, self._hand, index, _TRANSLATION_DRAW)

    def choose(self, p: Any, observation: Observation, tag: int = _ACTION_DRAW,
               rng: np.random.Generator | None = None) -> int:
        """The index to play from the probabilities ``p`` (option ``draws``): with
        ``hand``, the number for ``tag`` at this decision of this hand; with ``stream``,
        the next draw of ``rng`` (the bot's own generator unless given). ``resolve``
        draws its re-solved decisions here too, with its own tag and generator."""
        if self.draws == "hand":
            return pick(p, hand_uniform(self._draw_seed, self._hand,
                                        len(observation.history), tag))
        return int((self.rng if rng is None else rng).choice(len(p), p=p))

    def _nearest(self, street: int, pos: int, pot: float, to_call: float) -> int:
        """The decision node of ``pos`` on ``street`` whose pot and share of it to call
        are nearest the real ones (log of the pot's ratio plus the difference of the
        shares; the first of equals)."""
        found = self._roots.get((street, pos))
        if found is None:
            raise ConfigError(
                f"the blueprint has no decision on street {street} for position {pos}"
            )
        nodes, pots, shares = found
        d = np.abs(np.log(pots / pot)) + np.abs(shares - to_call / pot)
        return int(nodes[int(np.argmin(d))])

    def _read(
        self,
        node: int,
        action: Action,
        index: int,
        obs_state: tuple[float, float, float],
        scale: float,
        all_in: bool = False,
    ) -> int:
        """The child of ``node`` that a real action is read as (a real all-in, whatever
        the stacks, as the abstract all-in)."""
        from checkraise.engine import ActionKind

        tree = self.tree
        kids = list(tree.children(node))
        by_kind = {int(tree.act_kind[k]): k for k in kids if tree.act_kind[k] != RAISE}
        if action.kind == ActionKind.FOLD:
            return by_kind.get(FOLD_ACTION, by_kind[CALL])
        raises = [k for k in kids if tree.act_kind[k] == RAISE]
        if action.kind == ActionKind.CHECK_CALL or not raises:
            return by_kind[CALL]
        real_mx, real_pot, real_call = obs_state
        x = (action.amount - real_mx) / (real_pot + real_call)
        sizes = [_size(tree, node, float(tree.act_to[k])) for k in raises]
        if all_in or action.amount * scale >= self.game.rules.stack:
            return raises[-1]
        return raises[translate(sizes, x, self._draw(index), self.translation)]

    def _locate(self, obs: Observation) -> int:
        """Replay the public actions; the abstract decision node for this seat now."""
        from checkraise.engine import ActionKind

        tree = self.tree
        scale = self._scale(obs)
        committed = [int(b) for b in obs.config.blinds]  # chips per seat (antes aside)
        _, antes = self._bets(obs)
        node = 0
        for index, (seat, rnd, action) in enumerate(obs.history):
            pos = self._position(seat, obs)
            mx = max(committed)
            pot = float(sum(committed) + antes)
            to_call = float(mx - committed[seat])
            if (
                tree.kind[node] != DECISION
                or int(tree.street[node]) != rnd
                or int(tree.player[node]) != pos
            ):
                node = self._nearest(rnd, pos, pot * scale, to_call * scale)
            if seat == self._seat and index in self._mine:
                node = self._mine[index]
            else:
                # a raise of every chip the seat had (raise-to totals leave the ante out)
                all_in = action.kind == ActionKind.RAISE and action.amount >= (
                    obs.config.stacks[seat] - obs.config.ante
                )
                node = self._read(node, action, index, (float(mx), pot, to_call), scale, all_in)
            if action.kind == ActionKind.CHECK_CALL:
                committed[seat] = mx
            elif action.kind == ActionKind.RAISE:
                committed[seat] = action.amount
        me = self._position(self._seat, obs)
        bets, antes = self._bets(obs)
        mx = max(bets)
        pot = float(sum(bets) + antes)
        to_call = float(mx - bets[self._seat])
        if (
            tree.kind[node] != DECISION
            or int(tree.street[node]) != obs.round
            or int(tree.player[node]) != me
        ):
            node = self._nearest(obs.round, me, pot * scale, to_call * scale)
        return node

    # -- acting
    def _real(self, node: int, child: int, obs: Observation) -> Action:
        from checkraise.engine import Action

        tree = self.tree
        legal = obs.legal
        assert legal is not None
        kind = int(tree.act_kind[child])
        if kind == FOLD_ACTION:
            return Action.call() if legal.can_check else Action.fold()
        if kind == CALL or legal.min_raise_to is None or legal.max_raise_to is None:
            return Action.call()
        if child == int(tree.first_child[node]) + int(tree.num_children[node]) - 1:
            return Action.raise_to(legal.max_raise_to)  # the abstract all-in
        frac = _size(tree, node, float(tree.act_to[child]))
        bets, antes = self._bets(obs)
        mx = max(bets)
        pot = sum(bets) + antes
        to_call = mx - bets[self._seat]
        to = round(mx + frac * (pot + to_call))
        return Action.raise_to(min(max(to, legal.min_raise_to), legal.max_raise_to))

    def _buckets(self, obs: Observation) -> Any:
        return self.game.cards.combo_buckets(obs.round, obs.board)

    def _my_bucket(self, obs: Observation) -> int:
        from checkraise.cards import COMBO_CARDS

        a, b = sorted(obs.hole_cards)
        buckets = self._buckets(obs)
        i = int(np.flatnonzero((COMBO_CARDS[:, 0] == a) & (COMBO_CARDS[:, 1] == b))[0])
        return int(buckets[i])

    def _pure(self, rows: Any) -> Any:
        """Rows normalised, actions below the threshold dropped (unless all are); the
        bias comes after (:meth:`_biased`)."""
        out = np.asarray(rows, dtype=np.float64).copy()
        if self.threshold > 0.0:
            keep = out >= self.threshold * out.sum(axis=1, keepdims=True)
            keep[~keep.any(axis=1)] = True
            out = np.where(keep, out, 0.0)
        return out / out.sum(axis=1, keepdims=True)

    def _biased(self, node: int, rows: Any, biases: tuple[str, str, str, str]) -> Any:
        bias = biases[int(self.tree.street[node])]
        facing = float(self._facing[node])
        return bias_rows(rows, self.tree.act_kind[self.tree.children(node)], bias,
                         None if math.isnan(facing) else facing)

    def act(self, observation: Observation) -> Action:
        node = self._locate(observation)
        bucket = self._my_bucket(observation)
        pure = self._pure(self.blueprint.row(node, bucket)[None, :])
        if self.portfolio is None:
            k = self.choose(self._biased(node, pure, self._street_bias)[0], observation)
        else:  # every arm's row: the drawn arm's to play, all of them for the estimates
            arms = [self._biased(node, pure, biases)[0] for biases in self._arms]
            k = self.choose(arms[self.arm], observation)
            self._logs += np.log([float(r[k]) for r in arms])
            self._decisions.append((node, k, int(observation.round)))
        child = int(self.tree.first_child[node]) + k
        self._mine[len(observation.history)] = child
        return self._real(node, child, observation)

    def _all_rows(self, node: int, observation: Observation) -> Any:
        """Every combo's strategy at ``node`` (``[1326, children]``, zero rows for combos
        the board holds). With ``adapt``, what an opponent faces: each combo's mixture of
        the arms, weighted by ``p`` and by how likely each arm made our earlier actions
        in this hand with that combo (the arm drawn is hidden; drawing it and then
        playing it is the same strategy as this mixture at every decision)."""
        buckets = self._buckets(observation)
        rows = self.blueprint.rows(node, buckets)
        live = buckets >= 0
        if self.portfolio is None:
            rows[live] = self._biased(node, self._pure(rows[live]), self._street_bias)
            return rows
        board = tuple(int(c) for c in observation.board)
        weights = np.tile(np.asarray(self._p, dtype=np.float64), (rows.shape[0], 1))
        by_street = {int(observation.round): buckets}  # several decisions share a street
        for past, k, street in self._decisions:
            if street not in by_street:
                by_street[street] = self.game.cards.combo_buckets(street, board)
            then = by_street[street]
            ok = then >= 0
            pure = self._pure(self.blueprint.rows(past, then)[ok])
            for j, biases in enumerate(self._arms):
                weights[ok, j] *= self._biased(past, pure, biases)[:, k]
        total = weights.sum(axis=1, keepdims=True)
        # a combo that no arm would have played this way so far keeps the prior p
        weights = np.where(total > 0.0, weights / np.where(total > 0.0, total, 1.0),
                           np.asarray(self._p, dtype=np.float64))
        pure = self._pure(rows[live])
        mixed = np.zeros(pure.shape)
        for j, biases in enumerate(self._arms):
            mixed += weights[live, j, None] * self._biased(node, pure, biases)
        rows[live] = mixed
        return rows

    def locate(self, observation: Observation) -> int:
        """The abstract decision node of this seat at ``observation`` (its public actions
        read as the bot reads them: own actions as chosen, others' translated)."""
        return self._locate(observation)

    def read_rows(self, observation: Observation, action: Action) -> tuple[Any, Any, int]:
        """``(rows, kinds, child)``: every combo's strategy over the abstract children of
        this seat's node at ``observation`` (``[1326, children]``, zero rows for combos
        the board holds), the children's action kinds, and which child ``action`` is
        read as (exactly as an opponent's would be, translation draws included)."""
        from checkraise.engine import ActionKind

        node = self._locate(observation)
        seat = self._seat
        bets, antes = self._bets(observation)
        mx = max(bets)
        pot = float(sum(bets) + antes)
        to_call = float(mx - bets[seat])
        all_in = action.kind == ActionKind.RAISE and action.amount >= (
            observation.config.stacks[seat] - observation.config.ante
        )
        child = self._read(node, action, len(observation.history), (float(mx), pot, to_call),
                           self._scale(observation), all_in)
        rows = self._all_rows(node, observation)
        kinds = self.tree.act_kind[self.tree.children(node)]
        return rows, kinds, child - int(self.tree.first_child[node])

    def read_probabilities(self, observation: Observation, action: Action) -> Any:
        """For every combo, the probability of the abstract action ``action`` is read as.

        ``observation`` is this agent's seat about to act; ``action`` what it did. The
        action is read exactly as an opponent's would be (translation draws included),
        so range tracking can ask it of either seat. Combos that clash with the board
        get 0.
        """
        rows, _, child = self.read_rows(observation, action)
        return rows[:, child]

    def action_probabilities(self, observation: Observation) -> HandActionProbabilities:
        """The probability of each real action for every hand (exact)."""
        from checkraise.agents.probabilities import HandActionProbabilities, action_order

        node = self._locate(observation)
        buckets = self._buckets(observation)
        na = int(self.tree.num_children[node])
        rows = self._all_rows(node, observation)
        real = [
            self._real(node, int(self.tree.first_child[node]) + k, observation) for k in range(na)
        ]
        actions = tuple(sorted(set(real), key=action_order))
        probs = np.zeros((buckets.shape[0], len(actions)))
        for k, a in enumerate(real):
            probs[:, actions.index(a)] += rows[:, k]
        return HandActionProbabilities(
            actions, probs, exact=True, note="blueprint strategy of each hand's bucket"
        )
