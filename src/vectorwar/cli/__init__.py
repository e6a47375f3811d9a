"""The ``vectorwar`` command line."""

import typer

app = typer.Typer(help="vectorwar: tactical starship combat on hex maps.")


@app.command()
def systems() -> None:
    """List the rule systems."""
    from vectorwar.registry import systems as found

    for name, system in found().items():
        print(name, system.manifest.title)
