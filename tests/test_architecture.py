"""The house rules of the code base, read from the source (docs/architecture.md, "Layers").

* no import circles, counting imports inside functions and under TYPE_CHECKING;
* the kernel imports no rule system and no front end; rule code imports no front end
  and none of the kernel's game-running machinery (bots loop, scenes, the registry);
* code outside a rule system imports only the system's public modules, and no module
  imports another's underscored names;
* rule code, and the kernel modules that run a game, do no I/O, read no clock and use
  no global random source;
* checks raise: the package has no ``assert`` statement (``python -O`` strips them).
"""

from __future__ import annotations

import ast
import re
import textwrap
import tomllib
from pathlib import Path

import pytest

from tests.support.imports import (
    Impurity,
    describe_cycle,
    find_cycle,
    import_graph,
    imports_of,
    impurities,
    in_layer,
    module_files,
    private_imports,
)
from vectorwar.registry import GROUP, systems

FRONT_ENDS = ("vectorwar.cli", "vectorwar.web", "vectorwar.env", "vectorwar.lab", "vectorwar.conformance")
RULE_CODE = ("vectorwar.systems", "vectorwar.combat")
#: Kernel modules that run games; rule code must not reach up into them.
GAME_RUNNING = ("vectorwar.play", "vectorwar.setup", "vectorwar.scene", "vectorwar.registry")
#: Kernel modules whose job is I/O (files the user names, packaged data, entry points; the set-up also draws
#: each game's secret seed from the operating system).
KERNEL_IO = (
    "vectorwar.scenario",
    "vectorwar.catalogue",
    "vectorwar.savefile",
    "vectorwar.registry",
    "vectorwar.setup",
    "vectorwar.tutorial",
)

#: The modules of a system that code outside it may import (besides the package itself).
PUBLIC = ("api", "catalogue", "bots")
#: Further public modules of one system, each with the reason.
PUBLIC_EXTRA = {
    "vectorwar.systems.vv5.crews": "the campaign roster of experienced crews, kept by `vectorwar roster`",
}

#: Imports of private modules still to be fixed, each with the fix; a test fails once one is gone,
#: so the entry is dropped then. (The CLI is reworked by another change in the same wave.)
KNOWN_BREACHES: dict[tuple[str, str], str] = {}

#: Allowed impurities in rule code: module -> (what it does, why).
IMPURE_ALLOWED = {
    "vectorwar.systems.vv5.crews": (
        ("from pathlib import ...", ".read_text(...)"),
        "load_roster/save_roster read and write the campaign roster file for `vectorwar roster`; "
        "nothing in play calls them",
    ),
    "vectorwar.search.collector": (
        ("import threading",),
        "a lock, no I/O: the garbage collector's pause is shared by decisions that may overlap in threads",
    ),
}


def kernel_modules() -> list[str]:
    return [m for m in module_files() if not in_layer(m, FRONT_ENDS + RULE_CODE)]


def system_of(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:3]) if module.startswith("vectorwar.systems.") else None


def is_public(module: str) -> bool:
    system = system_of(module)
    return module == system or module in {f"{system}.{name}" for name in PUBLIC} or module in PUBLIC_EXTRA


def test_the_graph_sees_imports_inside_functions_and_under_type_checking(tmp_path: Path) -> None:
    from tests.support.imports import imports_of

    source = tmp_path / "a.py"
    source.write_text(
        textwrap.dedent(
            """
            from typing import TYPE_CHECKING
            if TYPE_CHECKING:
                from pkg.b import X
            def f():
                from pkg import c
            """
        )
    )
    found = imports_of("pkg.a", source, {"pkg", "pkg.a", "pkg.b", "pkg.c"})
    assert {(i.target, i.line) for i in found} == {("pkg.b", 4), ("pkg.c", 6)}


def test_find_cycle_names_the_circle() -> None:
    assert find_cycle({"a": ["b"], "b": ["c"], "c": []}) is None
    assert find_cycle({"a": ["b"], "b": ["c"], "c": ["a"]}) == ["a", "b", "c", "a"]


def test_there_are_no_import_circles() -> None:
    graph = import_graph()
    cycle = find_cycle({m: [i.target for i in imports] for m, imports in graph.items()})
    assert cycle is None, "import circle:\n" + describe_cycle(cycle or [], graph)


def test_every_module_is_in_a_layer_and_the_kernel_is_what_the_docs_list() -> None:
    kernel = kernel_modules()
    assert "vectorwar.game" in kernel
    assert "vectorwar.rules" in kernel
    assert not any(in_layer(m, FRONT_ENDS + RULE_CODE) for m in kernel)


def test_the_kernel_imports_no_system_and_no_front_end() -> None:
    graph = import_graph()
    bad = [
        f"{i.source} line {i.line} imports {i.target}"
        for m in kernel_modules()
        for i in graph[m]
        if in_layer(i.target, FRONT_ENDS + RULE_CODE)
    ]
    assert bad == []


def test_rule_code_imports_no_front_end_and_no_game_running_machinery() -> None:
    graph = import_graph()
    bad = [
        f"{i.source} line {i.line} imports {i.target}"
        for m, imports in graph.items()
        if in_layer(m, RULE_CODE)
        for i in imports
        if in_layer(i.target, FRONT_ENDS + GAME_RUNNING)
    ]
    assert bad == []


def test_code_outside_a_system_imports_only_its_public_modules() -> None:
    graph = import_graph()
    bad = [
        f"{i.source} line {i.line} imports {i.target}, private to {system_of(i.target)}"
        for m, imports in graph.items()
        for i in imports
        if system_of(i.target) is not None
        and system_of(m) != system_of(i.target)
        and not is_public(i.target)
        and (m, i.target) not in KNOWN_BREACHES
    ]
    assert bad == []


def test_the_private_import_check_sees_absolute_and_relative_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from vectorwar.hexes import Hex, _x\nfrom .planner import _y as y\nfrom os import _exit\n")
    assert private_imports(module) == ["line 1 imports _x from vectorwar.hexes", "line 2 imports _y from .planner"]


def test_no_module_imports_another_modules_private_names() -> None:
    bad = [f"{m} {found}" for m, path in module_files().items() for found in private_imports(path)]
    assert bad == []


def test_the_package_checks_by_raising_never_by_assert() -> None:
    found = [
        f"{module} line {node.lineno}"
        for module, path in module_files().items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assert)
    ]
    assert found == []


def test_the_combat_contract_imports_no_system() -> None:
    """combat/ is the contract below the systems: the modules live in their systems and VMS takes them
    sideways through the systems' api, so no import runs from the contract up into a system."""
    graph = import_graph()
    bad = [
        f"{i.source} line {i.line} imports {i.target}"
        for m, imports in graph.items()
        if in_layer(m, ("vectorwar.combat",))
        for i in imports
        if in_layer(i.target, ("vectorwar.systems",))
    ]
    assert bad == []
    assert {m for m in module_files() if in_layer(m, ("vectorwar.combat",))} == {
        "vectorwar.combat",
        "vectorwar.combat.base",
    }


def test_every_known_breach_is_still_there() -> None:
    graph = import_graph()
    for (source, target), fix in KNOWN_BREACHES.items():
        assert target in {i.target for i in graph.get(source, ())}, f"{source} is fixed ({fix}): drop the entry"


ROOT = Path(__file__).resolve().parents[1]
#: The system that ships with the tests only (tests/support/fifth, registered by tests/conftest.py).
FIXTURE = "fifth"


def shipped_systems() -> dict[str, str]:
    """The package's own systems: its entry points, by name."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    found: dict[str, str] = pyproject["project"]["entry-points"][GROUP]
    return found


def test_the_registry_holds_the_shipped_systems_and_the_fixture() -> None:
    assert set(systems()) == {*shipped_systems(), FIXTURE}


def test_every_system_has_its_public_catalogue_and_the_combat_systems_an_api() -> None:
    modules = module_files()
    shipped = {system_of(m) for m in modules if system_of(m)}
    assert shipped == {f"vectorwar.systems.{name}" for name in shipped_systems()}
    assert all(value == f"vectorwar.systems.{name}:system" for name, value in shipped_systems().items())
    assert all(f"{s}.catalogue" in modules for s in shipped)
    assert {"vectorwar.systems.msc.api", "vectorwar.systems.vv5.api"} <= set(modules)
    assert all(m in modules for m in PUBLIC_EXTRA)


def pure_modules() -> list[str]:
    return [m for m in module_files() if in_layer(m, RULE_CODE) or (m in kernel_modules() and m not in KERNEL_IO)]


def test_the_purity_check_catches_io_clock_and_global_random(tmp_path: Path) -> None:
    source = tmp_path / "bad.py"
    source.write_text(
        textwrap.dedent(
            """
            import random, time
            from datetime import datetime
            def f(rng: random.Random):
                print(open("x").read(), random.choice([1]), time.time(), hash("a"))
            """
        )
    )
    found = {i.what for i in impurities("bad", source)}
    assert found == {
        "import time",
        "from datetime import ...",
        "print(...)",
        "open(...)",
        "random.choice (the global generator)",
        "hash(...)",
    }


@pytest.mark.parametrize("module", pure_modules())
def test_rule_code_does_no_io_reads_no_clock_and_uses_no_global_random(module: str) -> None:
    allowed, _reason = IMPURE_ALLOWED.get(module, ((), ""))
    found: list[Impurity] = [i for i in impurities(module, module_files()[module]) if i.what not in allowed]
    assert found == [], "\n".join(map(str, found))


def test_every_allowed_impurity_is_still_needed() -> None:
    for module, (allowed, _reason) in IMPURE_ALLOWED.items():
        found = {i.what for i in impurities(module, module_files()[module])}
        assert set(allowed) <= found, f"{module}: no longer does {set(allowed) - found}; drop the exception"


def test_docs_name_every_kernel_module_public_module_and_exception() -> None:
    docs = (Path(__file__).resolve().parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    layers = docs[docs.index("## Layers and what may import what") : docs.index("## Adding a rule system")]
    kernel_row = next(line for line in layers.splitlines() if line.startswith("| kernel |"))
    undocumented = [m for m in kernel_modules() if m != "vectorwar" and f"`{m.rsplit('.', 1)[-1]}`" not in kernel_row]
    assert undocumented == [], "add these to the kernel row of docs/architecture.md's layer table"
    for name in (*PUBLIC, *(m.removeprefix("vectorwar.systems.") for m in PUBLIC_EXTRA)):
        assert f"`{name}`" in layers
    for module in IMPURE_ALLOWED:
        assert module.removeprefix("vectorwar.").replace(".", "/") + ".py" in layers


def test_public_means_the_package_and_its_top_level_api_catalogue_and_bots() -> None:
    assert is_public("vectorwar.systems.vv5")
    assert is_public("vectorwar.systems.vv5.api")
    assert is_public("vectorwar.systems.msc.catalogue")
    assert is_public("vectorwar.systems.vms.bots")
    assert not is_public("vectorwar.systems.vv5.state")
    assert not is_public("vectorwar.systems.vv5.specials.api")


def fixture_modules() -> dict[str, Path]:
    return module_files(ROOT, "tests/support/fifth")


def test_the_fixture_system_keeps_the_rule_code_rules() -> None:
    """The fifth system is rule code like any other: no front end, no game-running machinery, no I/O."""
    modules = {name.replace("/", "."): path for name, path in fixture_modules().items()}
    assert "tests.support.fifth.rules" in modules
    known = [*module_files(), *modules]
    bad = [
        f"{i.source} line {i.line} imports {i.target}"
        for name, path in modules.items()
        for i in imports_of(name, path, known)
        if in_layer(i.target, FRONT_ENDS + GAME_RUNNING)
    ]
    assert bad == []
    found = [i for name, path in modules.items() for i in impurities(name, path)]
    assert found == [], "\n".join(map(str, found))


#: The files outside the systems' folders, the tests and the docs that may name a shipped system in a
#: string, each with why: a choice of one system's behaviour, never a list of every system (those come
#: from the registry, so that adding a system takes no edit outside its folder; docs/architecture.md).
NAMED_SYSTEMS_ALLOWED = {
    "src/vectorwar/game.py": "a doctest playing an MSC game",
    "src/vectorwar/scene.py": "a doctest playing an MSC game",
    "src/vectorwar/autopilot.py": "a doctest playing an AV:T game",
    "src/vectorwar/conformance.py": "a doctest running the kit over MSC",
    "src/vectorwar/cli/info.py": "MSC as the default system of `vectorwar design`",
    "src/vectorwar/web/static/cards.js": "how each system's printed card marks its boxes",
    "src/vectorwar/web/static/view3d.js": "AV:T opens in the 3-D view",
    "src/vectorwar/web/static/map/geometry.js": "AV:T's map shows altitude",
    "src/vectorwar/web/static/lobby.js": "VV5 is the lobby's first choice and the quick start's system",
    "src/vectorwar/web/static/orders/vms-composer.js": "the VMS plot composer's own style classes",
    "src/vectorwar/web/service.py": "the quick start's scenario",
    "src/vectorwar/cli/interactive.py": "the interactive play's default scenario",
    "src/vectorwar/setup.py": "a doctest setting up an MSC game",
    "src/vectorwar/env.py": "a doctest making an MSC environment",
    "src/vectorwar/play.py": "a doctest playing an MSC game",
    "src/vectorwar/pbem/__init__.py": "a doctest of an MSC game by e-mail",
    "src/vectorwar/pbem/files.py": "a doctest of a forged first commitment in an MSC game",
}


def files_naming_shipped_systems() -> set[str]:
    names = "|".join(map(re.escape, shipped_systems()))
    quoted = re.compile(rf"""["']({names})(-[\w-]+)?["']""")  # a system, or one of its scenarios
    skip = ("src/vectorwar/systems/", "src/vectorwar/web/docs/")
    found = set()
    for path in sorted((ROOT / "src").rglob("*")):
        where = path.relative_to(ROOT).as_posix()
        if path.suffix not in {".py", ".js", ".html", ".toml"} or where.startswith(skip):
            continue
        if quoted.search(path.read_text(encoding="utf-8")):
            found.add(where)
    return found


def test_no_hidden_list_of_systems() -> None:
    """A file that starts naming a shipped system or one of its scenarios is caught: a list of them belongs
    to the registry, a system's own data (its prompt rule rows, its scenarios) to its folder."""
    assert files_naming_shipped_systems() == set(NAMED_SYSTEMS_ALLOWED)


def test_the_guide_to_adding_a_system_names_every_file_the_fixture_took() -> None:
    """docs/architecture.md, *Adding a rule system*, lists what the fifth system took: each file of its
    folder (a scenario by its folder), its registration and the reinstall after an entry point."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    guide = text.split("## Adding a rule system")[1].split("\n## ")[0]
    folder = ROOT / "tests" / "support" / "fifth"
    took = {
        path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file() and path.suffix != ".pyc"
    }
    named = {f.replace("data/scenarios/fifth-duel.toml", "data/scenarios/*.toml") for f in took}
    assert named == {"__init__.py", "rules.py", "data/scenarios/*.toml"}
    assert all(f"`NAME/{f}`" in guide for f in named), named
    for step in ('[project.entry-points."vectorwar.systems"]', "pip install -e .", "VECTORWAR_EXTRA_SYSTEMS"):
        assert step in guide, step
