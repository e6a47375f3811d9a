"""``vectorwar serve``: the game server for playing in the browser (see docs/web.md)."""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING, Annotated

import typer

from vectorwar.cli.common import UserError, reports_errors

if TYPE_CHECKING:
    import uvicorn


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
) -> None:
    """Start the game server and play in the browser.

    Open the printed address; the lobby starts a game against the computer in one click.
    """
    import uvicorn
    from sqlalchemy.exc import SQLAlchemyError

    from vectorwar.web.app import WS_MESSAGE_MAX, create_app
    from vectorwar.web.botpool import default_size
    from vectorwar.web.guard import DatabaseInUse, claim_database
    from vectorwar.web.store import default_db_url

    url = db or default_db_url()
    try:
        # Claimed before anything reads or migrates it, and held until the process ends.
        claim = claim_database(url)
    except DatabaseInUse as err:
        raise UserError(str(err)) from None
    except SQLAlchemyError as err:
        raise UserError(f"cannot open the database {url}: {err}") from None
    try:
        app = create_app(url, bot_workers=default_size() if bot_workers is None else bot_workers)
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
    _announcing_server(config).run()


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
