"""How hard the search bot thinks: its budgets, strength levels and tuning constants (:mod:`vectorwar.search`)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum


class Judging(Enum):
    """How a position's trials are played and judged, by what its system offers (:meth:`SearchBot.judging`)."""

    #: The fast bot plays on for ``horizon`` prompts, the fire rolled on the bot's own dice.
    ROLLED = "rolled"
    #: Stopped where the moves are made, the fire to come counted in expectation (``fire_in_prospect``).
    PROSPECT = "prospect"
    #: Every prompt resolved with its shots at ships counted in expectation (``resolve_in_prospect``).
    HELD = "held"

    @property
    def swept(self) -> bool:
        """Trials all but free of luck: one each, and every one-ship change of the fast bot's order tried."""
        return self is not Judging.ROLLED


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the bot thinks: candidate counts, rollouts per pair and how far each rollout looks."""

    #: Own orders screened (``SCREEN_ROUNDS`` rollouts each) against the others' likeliest orders;
    #: the best ``mine`` kept.
    screen: int = 12
    mine: int = 6
    theirs: int = 4
    rounds: int = 1
    #: Whole turns a rollout plays after the one under way (it stops at the first prompt of the turn after).
    #: Only a trial that rolls its dice (``Judging.ROLLED``) is bound by this and ``horizon``: a ``fire_in_prospect``
    #: trial plays the system's ``prospect_moves``, a held-fire one ``HELD`` prompts.
    turns: int = 1
    #: Prompts after which a rollout stops early, at the next prompt where several sides plot together
    #: (a point where no side has moved or fired more than another since the root). AV:T has eight a turn.
    horizon: int = 4
    #: The search level whose order for each other side plotting now leads the guesses of the others (0: none,
    #: the fast bot's leads): a higher level answers what a level below would plot in the others' place,
    #: worked out on the same view (it sees nothing more than this side does).
    foresee: int = 0
    #: Whether a matrix judged in expectation stops after ``SETTLED_ROUNDS`` rounds whose cells all ended alike.
    settle: bool = False

    @property
    def rollouts(self) -> int:
        """The most rollouts one decision may cost, before the system's ``rollout_cost`` scales the budget, with
        one other side plotting (each other side's ``foresee`` search costs its level's again).

        >>> LEVELS[1].rollouts, LEVELS[2].rollouts, ROLLED_LEVELS[2].rollouts
        (84, 228, 264)
        """
        foreseen = LEVELS[self.foresee].rollouts if self.foresee else 0
        return self.screened + self.mine * self.theirs * self.rounds + foreseen

    @property
    def screened(self) -> int:
        """Rollouts of the screen: ``SCREEN_ROUNDS`` for each of ``screen`` orders."""
        return SCREEN_ROUNDS * self.screen


#: Strength levels by name suffix: ``search`` is level 1, ``search:2`` and ``search:3`` think harder.
LEVELS: dict[int, Budget] = {
    1: Budget(screen=12, mine=5, theirs=2, rounds=6, turns=1, horizon=4),
    2: Budget(screen=24, mine=6, theirs=2, rounds=8, turns=1, horizon=4, foresee=1, settle=True),
    3: Budget(screen=40, mine=8, theirs=4, rounds=10, foresee=2, settle=True),
}

#: A level's budget where the trials roll their dice (:attr:`Judging.ROLLED`: MSC), where it is not the level's
#: own: level 1's orders and guesses, four times the rounds of the level below. One rolled trial is mostly luck,
#: so a wider screen or more guesses keep the luckiest orders rather than the best (level 3's own budget was
#: not shown stronger than level 2 there, nor a screen by sequential halving stronger than level 1 once MSC's
#: rollout cost gave level 1 four times its trials); more trials of the same orders cut the luck instead.
ROLLED_LEVELS: dict[int, Budget] = {
    2: Budget(screen=12, mine=5, theirs=2, rounds=24, turns=1, horizon=4),
    3: Budget(screen=12, mine=5, theirs=2, rounds=96, turns=1, horizon=4),
}

#: Rollouts each own order gets in the screen (on the same dice for every order).
SCREEN_ROUNDS = 2
#: Rounds of a matrix whose trials count the fire in expectation after which, if every cell's rounds ended
#: alike, a budget that settles (``Budget.settle``: levels 2 and 3) leaves the rest unplayed: their dice decide
#: little there (initiative, a collision), and in the Dogfight and the VMS capital duel nine cells in ten or
#: more end alike in every round (``benchmarks/search_rounds.py``), so the later rounds would mostly repeat
#: them. Level 1 plays all its rounds: stopping changed a few of its orders (one Stasis Pod side's fighter
#: left the board in the bot audit).
SETTLED_ROUNDS = 2
#: The fast bot's order is preferred unless another is worth this much more (a tenth of the open games' range).
FAST_BONUS = 0.04
#: A rollout stops after this many times ``horizon`` prompts whatever else (a game of one side's prompts).
HARD_STOP = 3
#: Weight of the fast bot's guess of the others among the guesses as drawn (the rest share what is left).
TRUST = 0.8
#: Share of regret matching's most damaging mix in the blend the choice is judged against.
CAUTION = 0.2
#: Standard errors of the paired advantage another order must show over the fast bot's to be played.
Z = 1.0
#: With a ``fire_in_prospect`` judge, one-ship variants tried at most, as a multiple of the budget's screen
#: (divided by the system's ``rollout_cost``).
SWEEP = 16
#: Share of one-ship variants drawn from the moves ending next to the fast bot's (the rest: any legal move).
NEAR_SHARE = 0.7
#: Regret-matching sweeps over the estimated matrix (cheap: the matrix is at most a few dozen cells).
RM_SWEEPS = 400
#: How much a rollout that ends before the game does may say: values stay inside 0.5 +/- this.
OPEN_WEIGHT = 0.4
#: Weight of what each move after the first changes, beside the move before's (``fire_in_prospect`` trials).
LATER = 0.5
#: Prompts a move of a ``fire_in_prospect`` trial plays at most (two turns of four sides and aces).
PROSPECT_STOP = 40
#: Prompts a ``resolve_in_prospect`` trial plays after the root's, at every level: in AV:T, a turn's segments.
#: Not the budget's ``horizon``.
HELD = 8
#: The last positions of a ``resolve_in_prospect`` trial whose values it averages, its end among them. Judged at
#: one cut alone, a burn that leaves the enemy's arcs just as the trial ends reads as safe though the enemy turns
#: and fires a segment on; over several cuts that moment is one of many (AV:T search against greedy, 144 games a
#: side of ``avt-damage``: 43 % and 52 % of the decisive games with one cut at four segments, 52 % and 78 % so).
HELD_ENDS = 5
#: The order that gives no fire (the kernel's notation for an empty declaration).
HOLD = "hold"
#: Of the side's next plots a ``fire_in_prospect`` trial tries (the system's ``plan_ahead``), those judged best
#: where their moves are made that are played on to the trial's end (:meth:`SearchBot._planned`).
PLAN_KEPT = 2
#: What searching the side's next plot multiplies a trial's cost by, as the budget counts it (``rollout_cost``).
PLAN_COST = 3.0


def scaled(budget: Budget, cost: float) -> Budget:
    """``budget`` with its screen and rounds divided by a rollout's relative ``cost``.

    A costly system's (``cost`` over 1) keeps at least ``mine`` orders and 2 rounds; a cheap one's (under 1)
    grows, so a decision takes about the same time in every system.
    """
    if cost == 1.0:
        return budget
    return replace(
        budget,
        screen=max(budget.mine, round(budget.screen / cost)),
        rounds=max(2, round(budget.rounds / cost)),
    )


def sweep_size(budget: Budget, cost: float) -> int:
    """One-ship variants tried at most with a ``fire_in_prospect`` judge: ``SWEEP`` times the screen, divided by
    a rollout's relative ``cost``, never fewer than the orders kept.

    >>> sweep_size(LEVELS[1], 1.0), sweep_size(LEVELS[1], 3.5), sweep_size(LEVELS[1], 100.0)
    (192, 55, 5)
    """
    return max(budget.mine, round(SWEEP * budget.screen / cost))
