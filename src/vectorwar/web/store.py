"""Where the server keeps its games: SQLAlchemy tables and the transactions that change them.

A game is stored as its setup (the whole scenario, options, seed), who
plays each side, the hashes of its tokens, every resolved order batch, the
plots still waiting and the players' drafts. The state itself is never
stored: the service rebuilds it by replaying the batches, the same
guarantee the save files give. Each method is one transaction, so a crash
leaves a change wholly written or not at all. Each change to a game moves
its version on, and may be made only for the version it was decided on
(:class:`StaleGame`): the guard that lets several servers share one
PostgreSQL database without forking a game. A change only one side may see
(its plot replaced, its draft, its standing orders) moves the game's secret
version on instead, and marks that side (:class:`Stamps`).

>>> store = Store("sqlite://")
>>> store.load("g_missing") is None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    and_,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from vectorwar.web.chat import MAX_CHAT_LINES, ChatLine, ChatRefused

DATA_DIR_ENV = "VECTORWAR_DATA_DIR"


def data_dir() -> Path:
    """The directory for the default database; ``VECTORWAR_DATA_DIR`` overrides the user data dir."""
    override = os.environ.get(DATA_DIR_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("vectorwar"))


def default_db_url() -> str:
    path = data_dir()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'games.db'}"


def token_hash(token: str) -> str:
    """What the store keeps of a token: a leaked database must not let anyone act for a side."""
    return hashlib.sha256(token.encode()).hexdigest()


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    system: Mapped[str] = mapped_column(String(40))
    scenario_id: Mapped[str] = mapped_column(String(200))
    title: Mapped[str] = mapped_column(String(400))
    # The whole scenario, so that a later edit of a built-in file never changes a stored game.
    scenario: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Decimal text: a drawn seed has 128 bits (vectorwar.dice.SEED_BITS), more than BIGINT holds.
    seed: Mapped[str] = mapped_column(String(80))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # A summary for the lobby, kept up to date with every change.
    step: Mapped[int] = mapped_column(Integer, default=0)
    turn: Mapped[int] = mapped_column(Integer, default=1)
    over: Mapped[bool] = mapped_column(default=False)
    # The creator chose the seed (a practice game: whoever chose it foresees every roll).
    seed_fixed: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The game a side of this finished one started as its rematch (one at most).
    rematch: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)
    # The finished game this one is the rematch of: its sides are kept for that game's players.
    rematch_of: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)
    # Moved on by one with every change to the game (orders, sides, drafts, standing orders): a change
    # written for another version is refused (StaleGame), so two processes never fork a game.
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Moved on instead of ``version`` by a change only some sides see (a plot replaced, a draft, standing
    # orders; each such side's ``SideRow.secret`` is set to it), so other sides' views never read it.
    secret_version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The open offer to end the game by agreement: the sides that agreed so far (none: no offer open),
    # and what came of the last offer or concession, in words, with the step it was said at.
    end_offer: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True), nullable=True, default=None)
    end_note: Mapped[str] = mapped_column(Text, default="", server_default="")
    end_note_step: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class SideRow(Base):
    __tablename__ = "sides"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(100), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    controller: Mapped[str] = mapped_column(String(100))  # "human" or "bot:NAME"
    # The game's secret version at this side's last secret change (GameRow.secret_version).
    secret: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TokenRow(Base):
    __tablename__ = "tokens"

    hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    sides: Mapped[list[str]] = mapped_column(JSON)


class BatchRow(Base):
    __tablename__ = "order_batches"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    step: Mapped[int] = mapped_column(Integer, primary_key=True)  # 0 for the first batch
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    orders: Mapped[list[list[str]]] = mapped_column(JSON)  # [[side, canonical text], ...] in side order
    # "" for orders the rules resolved; "concede" or "agree" for the batch that ended the game so (OrderBatch.end).
    ending: Mapped[str] = mapped_column(String(20), default="", server_default="")


class PendingRow(Base):
    __tablename__ = "pending_plots"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(100), primary_key=True)
    clock: Mapped[str] = mapped_column(String(200))
    text: Mapped[str] = mapped_column(Text)


class DraftRow(Base):
    __tablename__ = "drafts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(100), primary_key=True)
    text: Mapped[str] = mapped_column(Text)


class StandingRow(Base):
    __tablename__ = "standing_orders"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(100), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)  # vectorwar.autopilot.Standing.to_data()


class ChatRow(Base):
    __tablename__ = "chat_lines"
    __table_args__ = (Index("uq_chat_lines_game_key", "game_id", "key", unique=True),)

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 for a game's first line
    side: Mapped[str] = mapped_column(String(100))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # The client's idempotency key for the line (chat.KEY_PATTERN); a retry with it finds this line.
    key: Mapped[str | None] = mapped_column(String(64), nullable=True, default=None)


@dataclass(frozen=True, slots=True)
class NewGame:
    """Everything stored when a game is created."""

    id: str
    system: str
    scenario_id: str
    title: str
    scenario: dict[str, Any]
    seed: int
    options: dict[str, Any]
    controllers: dict[str, str]  # side -> controller, in the scenario's side order
    tokens: dict[str, tuple[str, ...]]  # token hash -> sides it holds
    #: The request fixed the seed rather than let the server draw it.
    seed_fixed: bool = False
    #: The finished game this one is the rematch of: its row is pointed at this one in the same transaction.
    rematch_of: str | None = None
    #: Orders already resolved, stored with the game in one transaction (a finished game brought in from a
    #: save file, web/imports.py); ``None`` for a game that starts at its first prompt.
    played: Progress | None = None


@dataclass(frozen=True, slots=True)
class Progress:
    """A change of a game's orders: batches resolved since ``first_step`` and the plots now waiting."""

    first_step: int
    batches: tuple[tuple[dict[str, Any], tuple[tuple[str, str], ...]], ...]  # (clock data, orders)
    pending: Mapping[str, str]
    clock: str  # the prompt the pending plots were given at ("" once the game is over)
    turn: int
    over: bool
    cleared_drafts: tuple[str, ...] = ()
    #: How the last of ``batches`` ended the game, if it did (``OrderBatch.end``); only the last batch can.
    ending: str = ""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as the store holds it, ready to be replayed."""

    id: str
    system: str
    scenario: dict[str, Any]
    seed: int
    options: dict[str, Any]
    controllers: dict[str, str]
    tokens: dict[str, tuple[str, ...]]
    batches: list[tuple[dict[str, Any], list[tuple[str, str]]]]
    pending: dict[str, tuple[str, str]]  # side -> (clock, text)
    drafts: dict[str, str]
    #: side -> its standing orders as plain data (vectorwar.autopilot.Standing).
    standing: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: How the last batch ended the game, if it did (``OrderBatch.end``).
    ending: str = ""
    #: The creator fixed the seed (a practice game).
    seed_fixed: bool = False
    #: The game started as this one's rematch, if any.
    rematch: str | None = None
    #: The finished game this one is the rematch of, if it is one.
    rematch_of: str | None = None
    #: The game's version when it was read (:class:`StaleGame`).
    version: int = 0
    #: Its secret version, and each side's mark (:class:`Stamps`).
    secret_version: int = 0
    marks: dict[str, int] = field(default_factory=dict)
    #: The sides that agreed to the open offer to end the game (``None``: no offer open).
    end_offer: tuple[str, ...] | None = None
    #: What came of the last offer or concession, and the step it was said at.
    end_note: str = ""
    end_note_step: int = 0


@dataclass(frozen=True, slots=True)
class Stamps:
    """What says whether a copy of a game is the stored one: its public version, its secret one, sides' marks.

    ``version`` moves on with every change all viewers may see; ``secret`` with
    every change only some sides see, each of which gets ``secret``'s new value
    as its mark. A view for some sides is current when ``version`` and those
    sides' marks are; a change to the game needs ``secret`` current too.
    """

    version: int
    secret: int
    #: side -> the secret version at its last secret change, for the sides asked about.
    marks: dict[str, int]


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: str
    system: str
    scenario: str
    title: str
    turn: int
    over: bool
    sides: dict[str, str]
    created: datetime
    practice: bool = False


@dataclass(frozen=True, slots=True)
class OpenGame:
    """A game in the lobby's list of open sides: human sides no player holds yet."""

    id: str
    system: str
    scenario: str
    title: str
    free: tuple[str, ...]
    created: datetime
    #: The creator fixed the seed: joining needs the joiner's consent.
    practice: bool = False


class SideTaken(Exception):
    """A side someone already holds was claimed, or a second rematch of one game started."""


class StaleGame(Exception):
    """A change written for a version (or secret version) of the game that is no longer the stored one; nothing
    was written.

    Another process sharing the database changed the game first: the caller
    reads the game again and decides again (docs/web.md, *Several processes*).
    """

    def __init__(self, game_id: str, version: int) -> None:
        self.game_id = game_id
        self.version = version
        super().__init__(f"game {game_id} changed since version {version}; read it again")


#: Times a chat line is numbered and stored before a clash of numbers reaches the caller.
CHAT_TRIES = 5

#: The PostgreSQL channel on which every committed change to a game is announced (web/fanout.py).
CHANNEL = "vectorwar"


class Store:
    """The database behind the server; every public method is one transaction."""

    def __init__(self, url: str, shared: bool | None = None) -> None:
        self.url = url
        self.engine = _engine(url)
        backend = make_url(url).get_backend_name()
        #: Whether other processes may change the games too (PostgreSQL: several servers may share it).
        #: The service then checks a game's version before each use of its copy in memory.
        self.shared = backend == "postgresql" if shared is None else shared
        #: Whether committed changes are announced on :data:`CHANNEL` (PostgreSQL's NOTIFY; web/fanout.py).
        self.announces = backend == "postgresql"
        #: This store's name in its announcements, so that a process can tell its own from the others'.
        self.origin = secrets.token_hex(6)
        from vectorwar.web.migrations import upgrade

        upgrade(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time, and a writer that finds the file locked sleeps
        # in steps of up to 100 ms before trying again. Writers of this process queue on a
        # lock instead, which wakes the next one the moment the last commits.
        self._one_writer = threading.Lock() if url.startswith("sqlite") else None

    def close(self) -> None:
        self.engine.dispose()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[Session]:
        with self._one_writer or contextlib.nullcontext(), self._sessions.begin() as db:
            yield db

    def create(self, new: NewGame, rematch_version: int | None = None) -> int | None:
        """Store a new game; for a rematch, point the finished game at it and return that game's new version.

        ``rematch_version``: the finished game's version the rematch was decided on (:class:`StaleGame`).
        """
        played = new.played
        with self._writing() as db:
            db.add(
                GameRow(
                    id=new.id,
                    system=new.system,
                    scenario_id=new.scenario_id,
                    title=new.title,
                    scenario=new.scenario,
                    seed=str(new.seed),
                    options=new.options,
                    seed_fixed=new.seed_fixed,
                    rematch_of=new.rematch_of,
                    created=datetime.now(UTC),
                    step=0 if played is None else len(played.batches),
                    turn=1 if played is None else played.turn,
                    over=False if played is None else played.over,
                )
            )
            db.flush()  # PostgreSQL checks the foreign keys below at once
            for position, (side, controller) in enumerate(new.controllers.items()):
                db.add(SideRow(game_id=new.id, side=side, position=position, controller=controller))
            for digest, sides in new.tokens.items():
                db.add(TokenRow(hash=digest, game_id=new.id, sides=list(sides)))
            if played is not None:
                last = len(played.batches) - 1
                for step, (clock, orders) in enumerate(played.batches):
                    ending = played.ending if step == last else ""
                    orders_data = [[side, text] for side, text in orders]
                    db.add(BatchRow(game_id=new.id, step=step, clock=clock, orders=orders_data, ending=ending))
            if new.rematch_of is None:
                return None
            # One statement that checks and sets, so two processes cannot both start a rematch.
            pointed = db.execute(
                update(GameRow)
                .where(GameRow.id == new.rematch_of, GameRow.rematch.is_(None), *_at(rematch_version))
                .values(rematch=new.id, version=GameRow.version + 1)
                .returning(GameRow.version)
            ).scalar()
            if pointed is None:
                # Rolled back with the new game: a finished game has one rematch at most.
                finished = db.get(GameRow, new.rematch_of)
                if finished is not None and finished.rematch is None and rematch_version is not None:
                    raise StaleGame(new.rematch_of, rematch_version)
                raise SideTaken(f"game {new.rematch_of} already has a rematch")
            self._announce(db, "game", new.rematch_of, pointed)
            return int(pointed)

    def claim_sides(self, game_id: str, sides: tuple[str, ...], digest: str, version: int | None = None) -> int:
        """Give open sides to a new token (by its hash), in one transaction; :class:`SideTaken` if one is held.

        Returns the game's new version. The version is moved on before the sides are
        read, so of two processes claiming at once the second waits for the first's
        commit and is then refused (:class:`StaleGame`), or, unguarded, sees its token.
        """
        with self._writing() as db:
            now = self._advance(db, game_id, version)
            held = db.scalars(select(TokenRow.sides).where(TokenRow.game_id == game_id))
            taken = [side for holder in held for side in holder if side in sides]
            if taken:
                raise SideTaken(f"side {taken[0]!r} of game {game_id} is already taken")
            db.add(TokenRow(hash=digest, game_id=game_id, sides=list(sides)))
            return now

    def open_games(self, limit: int = 50, scan: int = 200) -> list[OpenGame]:
        """Games not over with a human side that no token holds, newest first: of the newest ``scan``, ``limit``."""
        with self._sessions() as db:
            rows = list(
                db.scalars(
                    select(GameRow)
                    # A rematch's sides are kept for the players of the game it follows.
                    .where(GameRow.over == false(), GameRow.rematch_of.is_(None))
                    .order_by(GameRow.created.desc(), GameRow.id)
                    .limit(scan)
                )
            )
            ids = [r.id for r in rows]
            people: dict[str, list[str]] = {i: [] for i in ids}
            held: dict[str, set[str]] = {i: set() for i in ids}
            if ids:
                for s in db.scalars(select(SideRow).where(SideRow.game_id.in_(ids)).order_by(SideRow.position)):
                    if s.controller == "human":
                        people[s.game_id].append(s.side)
                for t in db.scalars(select(TokenRow).where(TokenRow.game_id.in_(ids))):
                    held[t.game_id].update(t.sides)
            found = []
            for r in rows:
                free = [s for s in people[r.id] if s not in held[r.id]]
                if free:
                    found.append(
                        OpenGame(r.id, r.system, r.scenario_id, r.title, tuple(free), _aware(r.created), r.seed_fixed)
                    )
            return found[:limit]

    def record(
        self,
        game_id: str,
        progress: Progress,
        version: int | None = None,
        secret: int | None = None,
        private_to: tuple[str, ...] = (),
    ) -> int:
        """Add resolved batches and replace the waiting plots, in one transaction; returns the game's new version.

        ``version`` and ``secret``: the versions the change was decided on; if the
        game has moved on since, nothing is written (:class:`StaleGame`).
        ``private_to``: the change shows only to these sides (a plot replaced):
        the secret version moves on instead, and is returned. Written as plain
        statements on a connection rather than through the ORM's unit of work:
        this runs for every order, and the rows are write-only here.
        """
        with self._one_writer or contextlib.nullcontext(), self.engine.begin() as db:
            # The game row first: it holds the whole scenario, so it is updated, never loaded.
            now = self._advance(
                db,
                game_id,
                version,
                secret=secret,
                private_to=private_to,
                step=progress.first_step + len(progress.batches),
                turn=progress.turn,
                over=progress.over,
            )
            if progress.batches:
                db.execute(
                    insert(BatchRow),
                    [
                        {
                            "game_id": game_id,
                            "step": progress.first_step + offset,
                            "clock": clock,
                            "orders": [[side, text] for side, text in orders],
                            "ending": progress.ending if offset == len(progress.batches) - 1 else "",
                        }
                        for offset, (clock, orders) in enumerate(progress.batches)
                    ],
                )
            db.execute(delete(PendingRow).where(PendingRow.game_id == game_id))
            if progress.pending:
                db.execute(
                    insert(PendingRow),
                    [
                        {"game_id": game_id, "side": side, "clock": progress.clock, "text": text}
                        for side, text in progress.pending.items()
                    ],
                )
            if progress.cleared_drafts:
                db.execute(
                    delete(DraftRow).where(DraftRow.game_id == game_id, DraftRow.side.in_(progress.cleared_drafts))
                )
            return now

    def set_draft(
        self, game_id: str, side: str, text: str, version: int | None = None, secret: int | None = None
    ) -> int:
        """Keep ``side``'s draft (``""``: none); returns the game's new secret version (only its owner sees it)."""
        with self._writing() as db:
            now = self._advance(db, game_id, version, secret=secret, private_to=(side,))
            row = db.get(DraftRow, (game_id, side))
            if text == "":
                if row is not None:
                    db.delete(row)
            elif row is None:
                db.add(DraftRow(game_id=game_id, side=side, text=text))
            else:
                row.text = text
            return now

    def set_standing(
        self, game_id: str, side: str, data: dict[str, Any], version: int | None = None, secret: int | None = None
    ) -> int:
        """Keep ``side``'s standing orders (``Standing.to_data()``) in place of any it had; returns the new secret
        version (only the side's own scene shows them)."""
        with self._writing() as db:
            now = self._advance(db, game_id, version, secret=secret, private_to=(side,))
            db.merge(StandingRow(game_id=game_id, side=side, data=data))
            return now

    def set_ending(
        self, game_id: str, agreed: tuple[str, ...] | None, note: str, note_step: int, version: int | None = None
    ) -> int:
        """Keep the open offer to end the game (``agreed``; ``None``: none) and the last note; returns the version."""
        with self._writing() as db:
            return self._advance(
                db,
                game_id,
                version,
                end_offer=None if agreed is None else list(agreed),
                end_note=note,
                end_note_step=note_step,
            )

    def version(self, game_id: str) -> int | None:
        """The game's stored version; ``None`` when there is no such game."""
        with self.engine.connect() as db:
            found = db.execute(select(GameRow.version).where(GameRow.id == game_id)).scalar()
            return None if found is None else int(found)

    def stamps(self, game_id: str, sides: tuple[str, ...] = ()) -> Stamps | None:
        """The game's versions and the marks of ``sides`` (one statement); ``None`` when there is no such game."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(GameRow.version, GameRow.secret_version, SideRow.side, SideRow.secret)
                .select_from(GameRow)
                .outerjoin(SideRow, and_(SideRow.game_id == GameRow.id, SideRow.side.in_(sides)))
                .where(GameRow.id == game_id)
            ).all()
            if not rows:
                return None
            marks = {str(r.side): int(r.secret) for r in rows if r.side is not None}
            return Stamps(int(rows[0].version), int(rows[0].secret_version), marks)

    def _advance(
        self,
        db: Connection | Session,
        game_id: str,
        version: int | None,
        *,
        secret: int | None = None,
        private_to: tuple[str, ...] = (),
        **values: Any,
    ) -> int:
        """Move the game's version on by one (and set ``values``), provided it is ``version`` (``None``: any)
        and its secret version is ``secret`` (``None``: any).

        ``private_to``: the change shows only to these sides, so the secret version
        moves on instead (and is returned), and each of them is marked with it.
        On PostgreSQL the row stays locked until the transaction ends, so a
        second process's change waits for this one's commit and then finds the
        version moved on. Announces the change, sent when the transaction commits.
        """
        guard = [GameRow.id == game_id, *_at(version)]
        if secret is not None:
            guard.append(GameRow.secret_version == secret)
        moved = {"secret_version": GameRow.secret_version + 1} if private_to else {"version": GameRow.version + 1}
        now = db.execute(
            update(GameRow)
            .where(*guard)
            .values(**moved, **values)
            .returning(GameRow.secret_version if private_to else GameRow.version)
        ).scalar()
        if now is None:
            unguarded = version is None and secret is None
            if unguarded or db.execute(select(GameRow.id).where(GameRow.id == game_id)).first() is None:
                raise LookupError(f"no game {game_id!r} in the store")
            raise StaleGame(game_id, version if version is not None else -1)
        if not private_to:
            self._announce(db, "game", game_id, int(now))
            return int(now)
        positions = db.execute(
            update(SideRow)
            .where(SideRow.game_id == game_id, SideRow.side.in_(private_to))
            .values(secret=int(now))
            .returning(SideRow.position)
        ).scalars()
        # Told by the side's place, not its name: other processes refresh only that side's sockets.
        for position in sorted(positions):
            self._announce(db, "secret", game_id, int(position))
        return int(now)

    def _announce(self, db: Connection | Session, kind: str, game_id: str, number: int) -> None:
        """Tell the other processes (web/fanout.py) ``KIND GAME NUMBER ORIGIN``, sent if the transaction commits."""
        if self.announces:
            db.execute(select(func.pg_notify(CHANNEL, f"{kind} {game_id} {number} {self.origin}")))

    def add_chat(self, game_id: str, side: str, text: str, key: str | None = None) -> ChatLine:
        """Store a chat line as the game's next; refused (:class:`ChatRefused`) once the game holds MAX_CHAT_LINES.

        Numbered by the store, so callers must not add lines to one game at the same
        time (the service adds them under the game's lock). ``key``: the client's
        idempotency key; the unique constraint on (game, key) refuses a second line
        with it (look for the first with :meth:`chat_line`).
        """
        for _ in range(CHAT_TRIES - 1):
            try:
                return self._add_chat(game_id, side, text, key)
            except IntegrityError:
                # Another process took the number first (where the row lock below is not to be had): the next
                # number is free. A line already stored with this key is the caller's to find.
                if key is not None and self.chat_line(game_id, key) is not None:
                    raise
        return self._add_chat(game_id, side, text, key)

    def _add_chat(self, game_id: str, side: str, text: str, key: str | None) -> ChatLine:
        with self._writing() as db:
            # The game's row locked first (PostgreSQL): two processes number a game's lines one after the other.
            db.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())
            last = db.scalar(select(func.max(ChatRow.number)).where(ChatRow.game_id == game_id)) or 0
            if last >= MAX_CHAT_LINES:
                raise ChatRefused(f"this game's chat is full: it holds {MAX_CHAT_LINES} lines", MAX_CHAT_LINES)
            line = ChatLine(last + 1, side, text, datetime.now(UTC))
            db.add(ChatRow(game_id=game_id, number=line.number, side=side, text=text, at=line.at, key=key))
            self._announce(db, "chat", game_id, line.number)
            return line

    def chat_number(self, game_id: str, number: int) -> ChatLine | None:
        """The game's chat line numbered ``number``, if any."""
        with self._sessions() as db:
            row = db.get(ChatRow, (game_id, number))
            return None if row is None else ChatLine(row.number, row.side, row.text, _aware(row.at))

    def chat_line(self, game_id: str, key: str) -> ChatLine | None:
        """The line of ``game_id`` stored with idempotency key ``key``, if any."""
        with self._sessions() as db:
            row = db.scalar(select(ChatRow).where(ChatRow.game_id == game_id, ChatRow.key == key))
            return None if row is None else ChatLine(row.number, row.side, row.text, _aware(row.at))

    def chat(self, game_id: str) -> list[ChatLine]:
        """A game's chat, oldest line first."""
        with self._sessions() as db:
            rows = db.scalars(select(ChatRow).where(ChatRow.game_id == game_id).order_by(ChatRow.number))
            return [ChatLine(r.number, r.side, r.text, _aware(r.at)) for r in rows]

    def load(self, game_id: str) -> StoredGame | None:
        with self._sessions() as db:
            if self.announces:
                # One snapshot for every table read, whatever other processes commit meanwhile.
                db.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            row = db.get(GameRow, game_id)
            if row is None:
                return None
            sides = list(db.scalars(select(SideRow).where(SideRow.game_id == game_id).order_by(SideRow.position)))
            tokens = db.scalars(select(TokenRow).where(TokenRow.game_id == game_id))
            batches = list(db.scalars(select(BatchRow).where(BatchRow.game_id == game_id).order_by(BatchRow.step)))
            pending = db.scalars(select(PendingRow).where(PendingRow.game_id == game_id))
            drafts = db.scalars(select(DraftRow).where(DraftRow.game_id == game_id))
            standing = db.scalars(select(StandingRow).where(StandingRow.game_id == game_id))
            return StoredGame(
                id=row.id,
                system=row.system,
                scenario=row.scenario,
                seed=int(row.seed),
                options=row.options,
                controllers={s.side: s.controller for s in sides},
                tokens={t.hash: tuple(t.sides) for t in tokens},
                batches=[(b.clock, [(str(s), str(t)) for s, t in b.orders]) for b in batches],
                pending={p.side: (p.clock, p.text) for p in pending},
                drafts={d.side: d.text for d in drafts},
                standing={s.side: dict(s.data) for s in standing},
                ending=batches[-1].ending if batches else "",
                seed_fixed=row.seed_fixed,
                rematch=row.rematch,
                rematch_of=row.rematch_of,
                version=row.version,
                secret_version=row.secret_version,
                marks={s.side: s.secret for s in sides},
                end_offer=None if row.end_offer is None else tuple(row.end_offer),
                end_note=row.end_note,
                end_note_step=row.end_note_step,
            )

    def games(self, limit: int = 200) -> list[GameSummary]:
        """The newest games first, for the lobby."""
        with self._sessions() as db:
            rows = list(db.scalars(select(GameRow).order_by(GameRow.created.desc(), GameRow.id).limit(limit)))
            ids = [r.id for r in rows]
            sides: dict[str, dict[str, str]] = {i: {} for i in ids}
            if ids:
                for s in db.scalars(select(SideRow).where(SideRow.game_id.in_(ids)).order_by(SideRow.position)):
                    sides[s.game_id][s.side] = s.controller
            return [
                GameSummary(
                    r.id, r.system, r.scenario_id, r.title, r.turn, r.over, sides[r.id], r.created, r.seed_fixed
                )
                for r in rows
            ]


def _at(version: int | None) -> list[Any]:
    """The condition that a game is at ``version`` (none for ``None``)."""
    return [] if version is None else [GameRow.version == version]


def _aware(at: datetime) -> datetime:
    # SQLite hands back naive datetimes even for a timezone-aware column; every time stored is UTC.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            # One shared connection keeps an in-memory database alive between sessions.
            poolclass=StaticPool if memory else None,
            connect_args={"check_same_thread": False, "timeout": 30},
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL lets readers go on while an order is written; FULL syncs the log on every
    # commit, so an acknowledged order survives a power cut as well as a killed process.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
