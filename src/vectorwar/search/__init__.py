"""The ``search`` computer player: short look-ahead by sampled plots and rollouts, for any rule system.

It is built only on the rule-system contract (:mod:`vectorwar.rules`): who must
act (``prompt``), the legal orders (``random_order``, ``move_options``, the
system's own fast bot), ``resolve`` and ``result``, and :meth:`standing` to
judge a game not yet over. It knows nothing of any system's rules.

How one decision is made, for the side's view of the game (never the game):

1. **Candidates for itself**: the system's fast bot's order (``greedy``), the
   same order with one ship's move swapped for another of its legal moves
   (``move_options``, put in by ``with_move``, which keeps the rest of the
   ship's entry; mostly a move ending next to the fast bot's), and orders
   drawn from the menu (``random_order``); each is parsed and checked,
   duplicates dropped, at most ``screen`` of them.
2. **Plausible orders for the others** who plot at the same time: drawn the
   same way from *their* menus, seen from this side's view. A secret plot
   already given waits in the kernel's ``pending`` and is in no state, so the
   bot cannot see it: it can only guess, and these guesses are the guess.
3. **The matrix**: the ``mine`` best candidates of a screen against the
   others' likeliest orders meet every guess, each pair resolved and played
   on by the fast bot for every side to the end of the next turn (``turns``),
   ``rounds`` times. Each round uses its own dice, the same for every pair
   (common random numbers: the pairs differ by the orders, not by luck). The
   dice are the bot's own (:class:`~vectorwar.dice.Dice` with a seed drawn
   from its own random source), never the game's, so it cannot foresee a
   real roll. A system whose rollouts cost more or less than most says so
   (``rollout_cost``), and the budget shrinks or grows to match. A system
   whose standing counts the fire still to come in expectation
   (``fire_in_prospect``, VV5 and VMS) is judged where the moves are made instead,
   no shot rolled, with the fire a second turn's moves promise at half
   weight (and where the moves themselves throw dice, VMS's missiles in
   flight, the system's ``resolve_in_prospect`` counts them in expectation
   too); its trials are cheap and all but free of luck, so the bot tries
   every one-ship change of the fast bot's order rather than a sample. A
   system whose fire comes in the same orders as the moves (AV:T) offers
   ``resolve_in_prospect`` instead (``holds_fire``): every prompt of a trial
   is resolved with its shots at ships counted in expectation, and the trial
   is swept the same way. A system may have a ``fire_in_prospect`` trial
   search the side's own next plot too (``plan_ahead``, VV5's side making a
   run: :meth:`SearchBot._planned`), so that a first plot is judged with the
   best second plot found for it rather than the fast bot's. A sweep also
   tries the system's ``order_variants`` (what the movement menu does not
   vary: AV:T's pivots). After a sweep's
   screen the ships' best changes are also tried together
   (:meth:`SearchBot._joined`).
4. **The choice**: the orders are judged against the guesses weighted mostly
   by plausibility (the fast bot's guess ``TRUST``) and partly
   (``CAUTION``) by regret matching's most damaging mix; the best replaces
   the fast bot's own order only if it wins by ``FAST_BONUS`` plus ``Z``
   standard errors, round by round. A fire declaration in turn (nobody else
   plotting now, no movement to plot) and a set-up choice are the fast bot's
   own: the first sees everything before it and its trials would differ only
   by luck; a rollout cannot judge the second. A system may have a searcher
   give the fast bot's declaration otherwise (``search_declaration``: VV5's
   launches every missile ready and aims its guns where they are worth most
   together).

Its random source is seeded from the bot's own seed, the side and the clock,
not from the game's seed, so two games that look the same to the side get the
same answer. The budget is counted in rollouts, so a decision is reproducible;
rule code and this module read no clock (see ``tests/test_architecture.py``).
"""

from __future__ import annotations

from vectorwar.search.bot import SearchBot, level_name, search_bots
from vectorwar.search.budget import LEVELS, Budget, Judging

__all__ = ["LEVELS", "Budget", "Judging", "SearchBot", "level_name", "search_bots"]
