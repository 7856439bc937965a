"""The package's layers (docs/design.md): a module imports only from its own layer and the
layers below it, wherever the import stands (top level or inside a function)."""
import ast
from pathlib import Path

ARMSIM = Path(__file__).resolve().parents[1] / "armsim"
#: bottom to top, as docs/design.md draws them
LAYERS = ("errors", "infra", "cpu", "kernels", "operators", "data", "pipeline", "analysis",
          "api", "sweeps", "cli")


def _layer(module):
    """The layer of `armsim.<part>...`, or None for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def _imports(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield from (f"{node.module}.{alias.name}" if node.module == "armsim" else node.module
                        for alias in node.names)


def test_every_module_has_a_layer():
    tops = {p.stem if p.is_file() else p.name for p in ARMSIM.iterdir()
            if p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists())}
    assert tops - {"__init__"} == set(LAYERS)


def test_no_import_runs_up():
    upward = []
    for path in sorted(ARMSIM.rglob("*.py")):
        module = ".".join(path.relative_to(ARMSIM.parent).with_suffix("").parts)
        own = _layer(module)
        if own is None or own == "__init__":
            continue
        for name in _imports(path):
            if name.startswith("armsim."):
                target = _layer(name)
                if LAYERS.index(target) > LAYERS.index(own):
                    upward.append(f"{module} -> {name}")
    assert not upward, upward
