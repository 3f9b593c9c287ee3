"""A mutation run over the constructs' hooks: does each construct's own test file kill a planted bug?

For every construct module of ``rulelang/constructs/`` and each of its hooks ``legal``, ``apply`` and
``observe`` that the module itself defines, the script plants one bug at a time in the source, as a
careless edit would, and runs that construct's own test files (``tests/test_<kind>*.py`` and the test
files that name the construct in their first lines); the mutant is *killed* when a test fails.
The mutations, made on the ``ast`` and written back with ``ast.unparse`` (the file is restored after
each run, and on any exit):

* ``legal``: the first ``return`` gives one choice fewer (``[1:]`` of a list, a set bit less of a mask);
* ``apply``: the first ``if`` takes the other branch (its test negated);
* ``observe``: the first key the hook adds to an observation is left out.

    python benchmarks/mutation_run.py                  # every construct, about 20 min
    python benchmarks/mutation_run.py --only passing   # one construct

It prints a line per mutant (killed or survived, and which tests ran) and the kill rate. Do not run
it beside the test suite: it edits the source while it runs.
"""

from __future__ import annotations

import argparse
import ast
import atexit
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONSTRUCTS = ROOT / "rulelang" / "constructs"
TESTS = ROOT / "tests"
HOOKS = ("legal", "apply", "observe")


def hook_functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """The hooks of :data:`HOOKS` the module's construct class defines, by name."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name in HOOKS and item.name not in found:
                    found[item.name] = item
    return found


def mutate(fn: ast.FunctionDef) -> str | None:
    """Plant the hook's mutation in ``fn`` (in place); what it did, or None when there is nothing to change."""
    if fn.name == "legal":
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                node.value = ast.Call(ast.Name("_fewer", ast.Load()), [node.value], [])
                return "a choice fewer from the first return"
    if fn.name == "apply":
        for node in ast.walk(fn):
            if isinstance(node, ast.If):
                node.test = ast.UnaryOp(ast.Not(), node.test)
                return f"the first `if` negated (line {node.lineno})"
    if fn.name == "observe":
        for node in ast.walk(fn):
            if isinstance(node, ast.Dict) and node.keys and node.keys[0] is not None:
                key = ast.unparse(node.keys[0])
                node.keys, node.values = node.keys[1:], node.values[1:]
                return f"the key {key} left out"
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
                key = ast.unparse(node.targets[0].slice)
                node.targets = [ast.Name("_dropped", ast.Store())]
                return f"the key {key} left out"
    return None


FEWER = '''

def _fewer(value):
    """A planted bug: one choice fewer."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value & (value - 1)
    if isinstance(value, (list, tuple)):
        return value[1:]
    return value
'''


GAMES = ("zwanzig-ab", "zwanzigerrufen", "hearts", "oh-hell", "spades", "euchre", "bridge", "skat", "schafkopf",
         "koenigrufen", "doppelkopf")


def test_files(kind: str, module: Path) -> list[Path]:
    """The construct's own test files: ``test_<kind>*.py``, those whose first lines name its module, and the rule
    tests (in card names) and OpenSpiel cross-checks of the shipped games that play it (at most three games)."""
    own = set(TESTS.glob(f"test_{kind}*.py")) | set(TESTS.glob(f"test_{module.stem}*.py"))
    for path in TESTS.glob("test_*.py"):
        head = path.read_text(encoding="utf-8")[:600]
        if re.search(rf"constructs/{module.stem}\.py|``{kind}``|\b{kind} phase", head):
            own.add(path)
    own.add(TESTS / "test_observations.py")         # what every seat is shown, phase by phase
    for game in [g for g in GAMES if kind in kinds_of(g)][:3]:
        for suffix in ("rules", "openspiel"):
            path = TESTS / f"test_{game.replace('-', '_')}_{suffix}.py"
            if path.is_file():
                own.add(path)
    return sorted(own)


def kinds_of(game: str) -> set[str]:
    """The phase kinds a shipped game plays, steps and contracts' trick rules included."""
    from rulelang.loader import load_game
    kinds = set()
    for phase in load_game(game).definition.phases:
        kinds.add(phase.kind)
        kinds |= {step.kind for step in getattr(phase, "steps", None) or []}
    return kinds


def killed(tests: list[Path]) -> bool:
    """Whether the tests fail on the mutant (a hang guard of 15 minutes counts as killed)."""
    try:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n0", "-p", "no:cacheprovider",
                               *map(str, tests)], cwd=ROOT, capture_output=True, timeout=900)
    except subprocess.TimeoutExpired:
        return True
    return done.returncode != 0


def run(only: str | None) -> int:
    results = []
    for module in sorted(CONSTRUCTS.glob("*.py")):
        source = module.read_text(encoding="utf-8")
        if "CONSTRUCT = " not in source or only and module.stem != only:
            continue
        kind = re.search(r'kind = "(\w+)"', source)
        kind = kind.group(1) if kind else module.stem
        tests = test_files(kind, module)
        for hook in HOOKS:
            tree = ast.parse(source)
            fn = hook_functions(tree).get(hook)
            if fn is None:
                continue
            what = mutate(fn)
            if what is None:
                continue
            atexit.register(module.write_text, source, encoding="utf-8")
            module.write_text(ast.unparse(tree) + FEWER, encoding="utf-8")
            try:
                dead = killed(tests) if tests else False
            finally:
                module.write_text(source, encoding="utf-8")
            results.append(dead)
            names = ", ".join(t.name for t in tests) or "no test file"
            print(f"{'killed  ' if dead else 'SURVIVED'} {module.stem}.{hook}: {what}  [{names}]", flush=True)
    if results:
        print(f"\nkill rate: {sum(results)} of {len(results)} mutants ({100 * sum(results) / len(results):.0f} %)")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="one construct module, e.g. passing")
    return run(parser.parse_args(argv).only)


if __name__ == "__main__":
    sys.exit(main())
