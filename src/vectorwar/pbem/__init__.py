"""Play by e-mail with sealed orders: the protocol, with no I/O (docs/pbem.md).

A play-by-e-mail game is a list of *actions* that players append to one
file and pass on. Every prompt of the game is one *step* (step 0 draws the
dice of the set-up), and every step goes the same way for every side, prompted
or not:

1. **commit**: each side adds ``plot_hash`` = H(game, step, side, plot, salt)
   and ``key_hash`` = H(game, step, side, salt, secret). ``plot`` is the side's
   order at this prompt ("" when the prompt does not name it) and ``salt`` and
   ``secret`` are fresh random values the side keeps in its own keyring;
2. **reveal**, once every side has committed: each side adds its plot, salt and
   secret, which must open both of its hashes;
3. when the last side has revealed, the step resolves with dice seeded by
   H(game, step, every side's secret), so no side can choose or foresee them.

H is SHA-256 over the parts written as a compact JSON array (:func:`digest`).
Each state of the file also carries the hash of the state before it (the
chain), so a player's keyring remembers the last state it saw and refuses an
older or rewritten file. Everything is recorded, so a file replays exactly.

A player's pass of the file (:meth:`PbemGame.turn`) does everything the side
owes at once: the reveal of one step and the commitment to the next, which is
revealed at once when it is the step's last, so a step costs one file from
each side. A game may be set up with a deadline in hours a step; then every
action records the time its writer claims, and once the file's last action
is that old, a side that has done its part may add a :class:`Claim`: the
silent sides hold and add no secret to the dice. Anyone can replay a claim
from the file; the silent player's keyring also checks it against its own
record of when the file arrived (:func:`check_keyring`).

The front ends draw the random values (salts, secrets, game ids) and read and
write the files; this module only checks and applies.

>>> from vectorwar.catalogue import builtin_scenario
>>> pbem = PbemGame.new(builtin_scenario("msc-duel"), "0" * 32)
>>> pbem.step, pbem.owed()
(0, {'red': 'commit', 'blue': 'commit'})
>>> for side, byte in (("red", "1"), ("blue", "2")):
...     sealed = pbem.seal(side, "", byte * 64, byte * 64)
...     _ = pbem.commit(side, *sealed.hashes(pbem.game_id, side))
>>> _ = pbem.reveal("red", "", "1" * 64, "1" * 64)
>>> _ = pbem.reveal("blue", "", "2" * 64, "2" * 64)
>>> pbem.step, pbem.game is not None and pbem.game.prompt.kind
(1, 'plot')
"""

from __future__ import annotations

from vectorwar.pbem.files import check_keyring, game_from_data, keyring_from_data, new_keyring, rebuild
from vectorwar.pbem.game import PbemGame
from vectorwar.pbem.protocol import (
    FORMAT,
    GAME_ID_DIGITS,
    HEX_DIGITS,
    KEYRING_FORMAT,
    MAX_DEADLINE_HOURS,
    Agree,
    Claim,
    Commit,
    Concede,
    Keyring,
    Reveal,
    Sealed,
    Turn,
    dice_seed,
    digest,
    link,
    plot_text,
    split_plot,
    time_text,
)

__all__ = [
    "FORMAT",
    "GAME_ID_DIGITS",
    "HEX_DIGITS",
    "KEYRING_FORMAT",
    "MAX_DEADLINE_HOURS",
    "Agree",
    "Claim",
    "Commit",
    "Concede",
    "Keyring",
    "PbemGame",
    "Reveal",
    "Sealed",
    "Turn",
    "check_keyring",
    "dice_seed",
    "digest",
    "game_from_data",
    "keyring_from_data",
    "link",
    "new_keyring",
    "plot_text",
    "rebuild",
    "split_plot",
    "time_text",
]
