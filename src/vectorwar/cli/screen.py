"""A game as a player sees it: map, ship cards, whose orders are awaited, events.

Only the kernel's view of the game is used here (prompt, pending plots,
events) and the display protocol for the rest, so any rule system shows up.
A side sees its own waiting plot, never another's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rich.console import Group, RenderableType
from rich.text import Text

from vectorwar.cli.avid import avid_texts
from vectorwar.cli.common import HUMAN, UserError, find_side
from vectorwar.cli.render import map_legend, render_cards, render_map, side_styles, view_window
from vectorwar.events import Event, GameOver, Rolled, TurnBegan
from vectorwar.game import Game


def styles_for(game: Game) -> dict[str, str]:
    return side_styles([side.id for side in game.scenario.sides])


def resolve_ship(game: Game, name: str) -> str:
    ids = [c.id for c in game.system.counters(game.state)]
    for ident in ids:
        if ident.lower() == name.lower():
            return ident
    raise UserError(f"no ship called {name!r} (ships: {', '.join(ids) or 'none'})")


def title_line(game: Game) -> Text:
    where = "game over" if game.is_over else str(game.clock)
    return Text(f"{game.scenario.title} ({game.system.manifest.title}) - {where}", style="bold")


def board(game: Game, arcs_ship: str | None = None) -> RenderableType:
    """The map with its legend; ``arcs_ship`` highlights that ship's weapon arcs."""
    styles = styles_for(game)
    counters = game.system.counters(game.state)
    arcs = None
    ship = None
    if arcs_ship is not None:
        ship = resolve_ship(game, arcs_ship)
        arcs = game.system.arc_hexes(game.state, ship)
    hex_map = game.board
    live = [c for c in counters if c.status == "active"]
    focus = [c.position.hex for c in live if ship is None or c.id == ship]
    window = view_window(hex_map, focus)
    parts: list[RenderableType] = [render_map(hex_map, counters, styles, arcs, window)]
    if window != hex_map.extent:
        c0, r0, c1, r1 = window
        parts.append(
            Text(f"(showing columns {c0}-{c1}, rows {r0}-{r1} of the map; every ship is listed below)", style="dim")
        )
    parts.append(map_legend(counters, styles, hex_map, ship))
    return Group(*parts)


def status(game: Game, side: str | None = None, controllers: Mapping[str, str] | None = None) -> Text:
    """Whose orders are awaited, and ``side``'s own waiting plot; or the result."""
    prompt = game.prompt
    if prompt is None:
        return result_text(game)
    controllers = controllers or {}
    text = Text()

    def who(s: str) -> str:
        player = controllers.get(s, HUMAN)
        return s if player == HUMAN else f"{s} ({player})"

    text.append(f"{prompt.clock}: waiting for {', '.join(who(s) for s in game.waiting_for)}", style="bold")
    given = [s for s in prompt.sides if s in game.pending]
    if given:
        text.append(f"\norders already in from {', '.join(given)}")
    if side is not None and side in game.pending:
        text.append(f"\nyour orders ({side}): {game.pending[side]}")
    kind = (prompt.kind if prompt.kind.endswith(("order", "orders")) else f"{prompt.kind} orders") + (
        ", secret until all are in" if prompt.simultaneous else ""
    )
    text.append(f"\n{kind}: {prompt.help}" if prompt.help else f"\n{kind}", style="dim")
    return text


def result_text(game: Game) -> Text:
    result = game.result
    if result is None:
        return Text("game over", style="bold")
    who = " and ".join(result.winners) + (" wins" if len(result.winners) == 1 else " win")
    verdict = who if result.winners else "a draw"
    text = Text(f"game over: {verdict} ({result.reason})", style="bold")
    if result.scores:
        scores = ", ".join(f"{s} {v:g} {result.score_label}" for s, v in result.scores.items())
        text.append(f"\nscores: {scores}", style="")
    return text


def shot_menu(game: Game, side: str) -> Text | None:
    """The shots ``side`` may give now, each as it is typed, with its odds (``None``: no shot is offered).

    From the rule system's ``fire_options``: the odds are worked out by the
    function resolution reads its number from, as the browser shows them.
    """
    if game.is_over or side not in game.waiting_for:
        return None
    options = {ship: shots for ship, shots in game.system.fire_options(game.state, side).items() if shots}
    if not options:
        return None
    text = Text("legal shots now, as typed, with their odds:", style="bold")
    for ship, shots in options.items():
        for shot in shots:
            what = shot.label or shot.weapon
            text.append(f"\n  {ship} {shot.piece}", style="bold")
            text.append(f"  {what} at {shot.target}")
            if shot.odds is not None:
                text.append(f": {shot.odds.summary()}")
    return text


def events_block(events: Sequence[Event]) -> Text | None:
    """The events since the player last gave orders, headed, for the screen above the prompt."""
    if not events:
        return None
    text = Text("what happened:", style="bold")
    for line in event_lines(events):
        text.append("\n")
        text.append_text(line)
    return text


def game_screen(
    game: Game,
    side: str | None = None,
    arcs_ship: str | None = None,
    controllers: Mapping[str, str] | None = None,
    events: Sequence[Event] = (),
) -> RenderableType:
    """The whole screen: title, map, cards, then ``events`` (so a tall map never scrolls them away), the
    status, and ``side``'s legal shots with their odds when it is to fire."""
    if side is not None:
        side = find_side((s.id for s in game.scenario.sides), side)
    cards = game.system.ship_cards(game.state)
    parts: list[RenderableType] = [title_line(game), board(game, arcs_ship)]
    if cards:
        parts.append(render_cards(cards, styles_for(game)))
    # AV:T's AVIDs, ring by ring: the terminal's drawing of what the browser draws as the paper card.
    parts.extend(Text("\n".join(lines)) for lines in avid_texts(game.system.diagrams(game.state)))
    happened = events_block(events)
    if happened is not None:
        parts.append(happened)
    parts.append(status(game, side, controllers))
    menu = None if side is None else shot_menu(game, side)
    if menu is not None:
        parts.append(menu)
    return Group(*parts)


def event_line(event: Event) -> Text:
    text = event.describe()
    if isinstance(event, TurnBegan | GameOver):
        return Text(text, style="bold")
    if isinstance(event, Rolled):
        return Text(f"  {text}", style="dim")
    return Text(f"  {text}")


def event_lines(events: Iterable[Event]) -> Sequence[Text]:
    return [event_line(e) for e in events]
