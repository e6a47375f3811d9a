"""``vectorwar serve``: the game server for playing in the browser (see docs/web.md)."""

from __future__ import annotations

import logging
import socket
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from vectorwar.cli.common import UserError, reports_errors

if TYPE_CHECKING:
    import uvicorn

    from vectorwar.web.reminders import Settings

_REMINDERS = "Reminders (docs/web.md, Deadlines and clocks)"
_RATES = "Per-address rates (docs/web.md, Per-address rates)"


class Tls(StrEnum):
    none = "none"
    starttls = "starttls"
    ssl = "ssl"


@reports_errors
def serve_command(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database URL, e.g. postgresql+psycopg://user@host/db (default: SQLite in your data directory)",
            metavar="URL",
        ),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on", metavar="HOST")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on", metavar="N")] = 8000,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            "--bot-workers",
            min=0,
            help="Worker processes for the computer players' thinking (default: one per core but one; "
            "0: on the server's own threads)",
            metavar="N",
        ),
    ] = None,
    games_per_minute: Annotated[
        float,
        typer.Option(
            min=0.01, max=100_000, help="Games one address may create a minute", metavar="N", rich_help_panel=_RATES
        ),
    ] = 30.0,
    games_burst: Annotated[
        int,
        typer.Option(
            min=1, max=100_000, help="Games one address may create at once", metavar="N", rich_help_panel=_RATES
        ),
    ] = 60,
    refusals_per_minute: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=100_000,
            help="Refused requests one address may earn a minute before a cool-down",
            metavar="N",
            rich_help_panel=_RATES,
        ),
    ] = 600.0,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="VECTORWAR_SMTP_HOST",
            help="The SMTP server that mails the players' reminders (none: no e-mail)",
            metavar="HOST",
            rich_help_panel=_REMINDERS,
        ),
    ] = None,
    smtp_port: Annotated[
        int,
        typer.Option(
            envvar="VECTORWAR_SMTP_PORT",
            min=1,
            max=65535,
            help="The SMTP server's port",
            metavar="N",
            rich_help_panel=_REMINDERS,
        ),
    ] = 25,
    smtp_from: Annotated[
        str | None,
        typer.Option(
            envvar="VECTORWAR_SMTP_FROM",
            help="The reminders' sender address",
            metavar="ADDRESS",
            rich_help_panel=_REMINDERS,
        ),
    ] = None,
    smtp_user: Annotated[
        str,
        typer.Option(
            envvar="VECTORWAR_SMTP_USER",
            help="The name to log in to the SMTP server with (none: no login)",
            metavar="NAME",
            rich_help_panel=_REMINDERS,
        ),
    ] = "",
    smtp_password: Annotated[
        str,
        typer.Option(
            envvar="VECTORWAR_SMTP_PASSWORD",
            help="Better given in the environment, where other users' ps cannot read it",
            metavar="TEXT",
            show_default=False,
            rich_help_panel=_REMINDERS,
        ),
    ] = "",
    smtp_tls: Annotated[
        Tls,
        typer.Option(
            envvar="VECTORWAR_SMTP_TLS",
            help="starttls: upgrade the connection (port 587); ssl: TLS from the start (port 465)",
            rich_help_panel=_REMINDERS,
        ),
    ] = Tls.none,
    webhooks: Annotated[
        bool,
        typer.Option(
            "--webhooks/--no-webhooks",
            envvar="VECTORWAR_WEBHOOKS",
            help="Post reminders to the webhook URLs players give (the server then sends requests where they say)",
            rich_help_panel=_REMINDERS,
        ),
    ] = False,
    public_url: Annotated[
        str,
        typer.Option(
            envvar="VECTORWAR_PUBLIC_URL",
            help="The server's address as players reach it, for the link in each reminder",
            metavar="URL",
            rich_help_panel=_REMINDERS,
        ),
    ] = "",
) -> None:
    """Start the game server and play in the browser.

    Open the printed address; the lobby starts a game against the computer in one click.
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from vectorwar.web.app import WS_MESSAGE_MAX, create_app
    from vectorwar.web.botpool import default_size
    from vectorwar.web.guard import DatabaseInUse, claim_database
    from vectorwar.web.ratelimit import RateLimits
    from vectorwar.web.service_core import budget_scale
    from vectorwar.web.store import default_db_url

    try:
        budget_scale()  # the operator's VECTORWAR_BUDGET_SCALE, checked before anything starts
    except ValueError as err:
        raise UserError(str(err)) from None
    reminders = _reminders(smtp_host, smtp_port, smtp_from, smtp_user, smtp_password, smtp_tls, webhooks, public_url)
    url = db or default_db_url()
    try:
        # Claimed before anything reads or migrates it, and held until the process ends.
        claim = claim_database(url)
    except DatabaseInUse as err:
        raise UserError(str(err)) from None
    except SQLAlchemyError as err:
        raise UserError(f"cannot open the database {url}: {err}") from None
    try:
        app = create_app(
            url,
            bot_workers=default_size() if bot_workers is None else bot_workers,
            reminders=reminders,
            rate_limits=RateLimits(
                games_per_minute=games_per_minute, games_burst=games_burst, refusals_per_minute=refusals_per_minute
            ),
        )
    except SQLAlchemyError as err:
        raise UserError(f"cannot open the database {url}: {err}") from None
    # Migrated now: other servers of this version may join a PostgreSQL database (web/guard.py).
    claim.settle()
    app.state.claim = claim
    _settle_memory()
    _check_port(host, port)
    # Players think for a while between orders; keeping their connection open that long
    # spares most orders a new connection (and the race of reusing one just closed).
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        timeout_keep_alive=75,
        # A larger message is refused as it arrives, before it is gathered or parsed (close code 1009).
        ws_max_size=WS_MESSAGE_MAX,
    )
    logging.getLogger("uvicorn.error").addFilter(QuietDenials())
    _announcing_server(config).run()


def _reminders(
    host: str | None,
    port: int,
    sender: str | None,
    user: str,
    password: str,
    tls: Tls,
    webhooks: bool,
    public_url: str,
) -> Settings:
    from vectorwar.web.reminders import Settings, SmtpSettings

    if host and not sender:
        raise UserError("--smtp-host needs --smtp-from, the address the reminders are sent from")
    smtp = None
    if host and sender:
        smtp = SmtpSettings(host, sender, port, user, password, starttls=tls is Tls.starttls, ssl=tls is Tls.ssl)
    return Settings(smtp, webhooks, public_url)


class QuietDenials(logging.Filter):
    """Drops the error uvicorn's websockets-sansio logs after every denial response it sent.

    A socket one too many is refused with a 429 before its handshake; the client gets it,
    but uvicorn (up to at least 0.54, its pull request 3138) then logs that the app returned
    without completing the handshake. This app never returns from a socket without
    accepting, closing or refusing it, so the line says nothing here, and a burst of refused
    sockets would fill the log with it.
    """

    NOISE = "ASGI callable returned without completing handshake."

    def filter(self, record: logging.LogRecord) -> bool:
        return record.getMessage() != self.NOISE


def _announcing_server(config: uvicorn.Config) -> uvicorn.Server:
    """A uvicorn server that prints the address once the port is bound (so ``--port 0`` shows the real one).

    uvicorn binds the port itself: handing it a socket bound here instead
    more than doubled the order round-trip's p99 in benchmarks/web.py.
    """
    import uvicorn

    class AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if self.should_exit or not self.servers:
                return
            bound = self.servers[0].sockets[0].getsockname()
            host = str(bound[0])
            shown = f"[{host}]" if ":" in host else host
            typer.echo(f"vectorwar is at http://{shown}:{bound[1]}/")

    return AnnouncingServer(config)


def _check_port(host: str, port: int) -> None:
    """A clear error, before anything starts, when ``host:port`` cannot be listened on."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by a server just stopped is free to take.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            reason = err.strerror or str(err)
            raise UserError(f"cannot listen on {host}:{port}: {reason} (is another server using that port?)") from None


def _settle_memory() -> None:
    """Keep the garbage collector's full passes short and rare while many games are live.

    A full pass walks every object the collector tracks, and the server's code
    (FastAPI, SQLAlchemy, every rule system) is most of them: tens of
    milliseconds a pass, landing on whichever order is being answered. What is
    loaded at start-up lives as long as the process, so it is frozen out of
    the collector's sight; and a young pass waits for more allocations, since
    the engine's value types are mostly freed by reference counting anyway.
    """
    import gc

    from vectorwar.registry import systems
    from vectorwar.web.service import catalogue

    catalogue()  # loads every registered system and its scenarios now, not on the first order
    for system in systems().values():
        system.bots()
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
