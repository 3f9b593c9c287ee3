"""The package stands in layers: no import circle between modules, and no import up the layers.

The graph is built from the source (``ast``: every ``import`` and ``from … import``, at the top of a
module or inside a function, since a deferred import still ties the two modules) and checked with
networkx. ``LAYERS`` is the declaration docs/architecture.md shows: a module may import modules of
its own layer and of the layers below it, never above. Constructs are found by the registry, not
imported, so the registry sits low and the construct modules high; the batch engine finds its
kernels through the constructs' ``batch_kernel`` names the same way.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {"rulelang": ROOT / "rulelang", "rulelang.interpreter": ROOT / "interpreter",
           "rulelang.validators": ROOT / "validators", "rulelang.games": ROOT / "games"}

LAYERS = [
    ("shared vocabulary", ["rulelang", "rulelang.games", "rulelang.diagnostics", "rulelang.read.source", "rulelang.read.document",
                           "rulelang.compile.deck", "rulelang.constructs", "rulelang.constructs.base"]),
    ("reading", ["rulelang.read.*"]),
    ("compiling", ["rulelang.compile.*"]),
    ("engine", ["rulelang.interpreter", "rulelang.interpreter.game", "rulelang.interpreter.state",
                "rulelang.interpreter.worlds", "rulelang.interpreter.inference", "rulelang.interpreter.words",
                "rulelang.interpreter.tally"]),
    ("checks", ["rulelang.validators.*"]),
    ("rendering", ["rulelang.render.*"]),
    ("constructs", ["rulelang.constructs.*"]),
    ("loader", ["rulelang.loader"]),
    ("the OpenSpiel game", ["rulelang.adapters.*"]),
    ("players, matches and logs", ["rulelang.interpreter.*"]),
    ("the PettingZoo environments and the double-dummy judge", ["rulelang.adapters.pettingzoo",
                                                                 "rulelang.adapters.double_dummy"]),
    ("checks by play", ["rulelang.validators.simulate", "rulelang.validators.logs", "rulelang.validators.report"]),
    ("batch engine", ["rulelang.batch.*"]),
    ("web table", ["rulelang.web.*"]),
    ("command line", ["rulelang.cli.*", "rulelang.__main__"]),
]
"""Low to high, as docs/architecture.md shows them. ``pkg.*`` is a package and every module in it; any other
entry one module. A module belongs to its most specific entry: a module named alone, else the longest
package that holds it."""


def module_name(path: Path) -> str:
    """The dotted name a source file installs as."""
    for package, folder in sorted(SOURCES.items(), key=lambda kv: -len(str(kv[1]))):
        if path.is_relative_to(folder):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            return ".".join([package, *parts])
    raise ValueError(path)


def modules() -> dict[str, Path]:
    """Every module of the package by its dotted name."""
    found = {}
    for folder in SOURCES.values():
        for path in folder.rglob("*.py"):
            if ".venv" not in path.parts:
                found[module_name(path)] = path
    return found


def imported(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that ``name`` imports: ``from a import b`` is module ``a.b`` if there is one, else ``a``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != name}


def import_graph() -> nx.DiGraph:
    """Module → the modules it imports, over the whole package."""
    known = modules()
    graph = nx.DiGraph()
    for name, path in known.items():
        graph.add_node(name)
        graph.add_edges_from((name, other) for other in imported(name, path, set(known)))
    return graph


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of the most specific entry that holds ``module``."""
    best, best_weight = None, -1
    for index, (_, entries) in enumerate(LAYERS):
        for entry in entries:
            package = entry.removesuffix(".*")
            if entry == module:
                weight = 1_000
            elif entry.endswith(".*") and (module == package or module.startswith(package + ".")):
                weight = len(package)
            else:
                continue
            if weight > best_weight:
                best, best_weight = index, weight
    assert best is not None, f"{module} is in no layer"
    return best


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """Each set of modules that import one another in a circle, sorted."""
    return sorted(sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1)


def upward_imports(graph: nx.DiGraph) -> list[str]:
    """Each import of a module from a higher layer, said in words."""
    return [f"{a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
            for a, b in sorted(graph.edges) if layer_of(b) > layer_of(a)]


def test_no_module_imports_another_that_imports_it_back():
    found = circles(import_graph())
    assert found == [], "import circles:\n" + "\n".join(" ↔ ".join(c) for c in found)


def test_no_module_imports_up_the_layers():
    found = upward_imports(import_graph())
    assert found == [], "imports up the layers:\n" + "\n".join(found)


def test_every_module_has_a_layer_and_the_package_keeps_only_its_face_at_the_top():
    for name in import_graph():
        layer_of(name)
    top = sorted(p.stem for p in (ROOT / "rulelang").glob("*.py"))
    assert top == ["__init__", "__main__", "diagnostics", "loader"]


def test_the_checker_sees_a_planted_circle():
    graph = import_graph()
    graph.add_edge("rulelang.compile.deck", "rulelang.compile.ir")       # ir imports deck
    assert ["rulelang.compile.deck", "rulelang.compile.ir"] in circles(graph)


def test_the_checker_sees_the_engine_importing_the_command_line():
    graph = import_graph()
    graph.add_edge("rulelang.interpreter.state", "rulelang.cli.main")
    assert "rulelang.interpreter.state (engine) imports rulelang.cli.main (command line)" in upward_imports(graph)


def test_constructs_sit_between_the_compiler_and_the_engine_that_runs_them():
    assert layer_of("rulelang.constructs") < layer_of("rulelang.compile.compiler") < layer_of("rulelang.constructs.deal")
    assert layer_of("rulelang.constructs.deal") < layer_of("rulelang.batch.kernels")
