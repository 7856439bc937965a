"""The numba cache: each armsim source is stamped by itself and what it imports, so an edit
recompiles exactly the kernels that can see it, and nothing for the CLI, report or Prepare."""
from pathlib import Path

import pytest

from armsim import _cache


@pytest.fixture
def tree(tmp_path, monkeypatch):
    monkeypatch.setattr(_cache, "_ROOT", tmp_path)
    pkg = tmp_path / "armsim"
    (pkg / "sub").mkdir(parents=True)
    for f in ("__init__.py", "sub/__init__.py"):
        (pkg / f).write_text("")
    (pkg / "sub" / "kernel.py").write_text("from ..ops import add\nfrom armsim.sub import leaf\n")
    (pkg / "ops.py").write_text("import armsim.isa\n")
    (pkg / "isa.py").write_text("X = 1\n")
    (pkg / "sub" / "leaf.py").write_text("Y = 1\n")
    (pkg / "cli.py").write_text("from armsim.sub.kernel import add\n")
    for f in (_cache.imports, _cache.dependencies, _cache.source_stamp):
        f.cache_clear()
    yield pkg
    for f in (_cache.imports, _cache.dependencies, _cache.source_stamp):
        f.cache_clear()


def _stamp(path):
    for f in (_cache.imports, _cache.dependencies, _cache.source_stamp):
        f.cache_clear()
    return _cache.source_stamp(path)


def test_stamp_follows_transitive_imports_only(tree):
    kernel = tree / "sub" / "kernel.py"
    assert {p.name for p in _cache.dependencies(kernel)} == {
        "kernel.py", "ops.py", "isa.py", "leaf.py", "__init__.py"}
    before = _stamp(kernel)
    (tree / "cli.py").write_text("# an edit to the command line\n")
    assert _stamp(kernel) == before                      # not imported: no recompile
    (tree / "isa.py").write_text("X = 2\n")              # imported two levels down
    assert _stamp(kernel) != before


def test_no_compiled_module_depends_on_the_pipeline_or_cli():
    """Editing the CLI, report, Prepare, profile or the operators costs no recompile."""
    pipeline = {"cli", "report", "prepare", "profiler", "api", "model", "arena", "operators",
                "modelgen", "explain"}
    for path in sorted(_cache.PACKAGE.rglob("*.py")):
        text = path.read_text()
        if "@kernel" not in text and "njit" not in text:
            continue
        for dep in _cache.dependencies(path.resolve()):
            rel = dep.relative_to(_cache.PACKAGE).parts
            assert rel[0].removesuffix(".py") not in pipeline, (path, dep)


def test_compiled_kernels_are_cached_under_the_armsim_locator(tmp_path, monkeypatch):
    from numba.core.caching import CacheImpl
    assert CacheImpl._locator_classes[0].__name__ == "ArmsimLocator"
    monkeypatch.setenv("ARMSIM_CACHE_DIR", str(tmp_path))
    locator = CacheImpl._locator_classes[0]
    from armsim.cpu import isa
    loc = locator.from_function(isa.SMLAD.py_func, isa.__file__)
    assert Path(loc.get_cache_path()) == tmp_path / "armsim" / "cpu" / "isa"
    assert loc.get_source_stamp() == _cache.source_stamp(Path(isa.__file__).resolve())
