"""Numba's on-disk cache for armsim's compiled kernels, stamped by what each one compiles.

Numba stamps a cached function with the content of its own source file only, but a kernel
inlines ops, semantics and helpers from other files.  `ArmsimLocator` stamps an armsim
source file with its own content *and that of every armsim module it imports, transitively*
(read from the import statements), so editing a kernel recompiles that kernel and the
kernels that import it, and editing the CLI, the report or Prepare recompiles nothing.

The cache lives in one directory (``$ARMSIM_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
``$XDG_CACHE_HOME/armsim`` or ``~/.cache/armsim``), laid out by package-relative path, so a
cache made by one install serves any other install of the same sources.

This relies on numba's locator interface (`numba.core.caching`, numba 0.59-0.68, pinned in
pyproject.toml); if that interface is missing, numba's own locators are used unchanged.
"""
import ast
import functools
import hashlib
import os
from pathlib import Path

import numba

PACKAGE = Path(__file__).resolve().parent          # .../armsim
_ROOT = PACKAGE.parent


def cache_dir():
    for var in ("ARMSIM_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "armsim"


def _module_path(name):
    """The source file of armsim module `name` (dotted), or None if it is not one."""
    parts = name.split(".")
    if parts[0] != "armsim":
        return None
    base = _ROOT.joinpath(*parts)
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    return None


def _package_of(path):
    rel = path.relative_to(_ROOT).with_suffix("")
    parts = list(rel.parts)
    return parts if path.name == "__init__.py" else parts[:-1]


@functools.lru_cache(maxsize=None)
def imports(path):
    """The armsim source files `path` imports directly."""
    tree = ast.parse(Path(path).read_bytes(), str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package_of(Path(path))
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    found = {p for p in map(_module_path, names) if p is not None}
    found.discard(Path(path))
    return frozenset(found)


@functools.lru_cache(maxsize=None)
def dependencies(path):
    """`path` and every armsim source file it imports, transitively (sorted)."""
    seen, todo = set(), [Path(path)]
    while todo:
        p = todo.pop()
        if p not in seen:
            seen.add(p)
            todo.extend(imports(p))
    return tuple(sorted(seen))


@functools.lru_cache(maxsize=None)
def source_stamp(path):
    digest = hashlib.sha256(numba.__version__.encode())
    for p in dependencies(path):
        digest.update(p.relative_to(_ROOT).as_posix().encode())
        digest.update(p.read_bytes())
    return digest.hexdigest()


def _locator_class():
    try:
        from numba.core.caching import CacheImpl, _CacheLocator
    except ImportError:       # another numba layout: numba's own locators apply
        return None, None

    class ArmsimLocator(_CacheLocator):
        """Cache armsim's functions under cache_dir()/<package path>, stamped by
        `source_stamp` (the file and its armsim imports)."""

        def __init__(self, py_func, py_file):
            self._py_file = Path(py_file).resolve()
            self._lineno = py_func.__code__.co_firstlineno
            rel = self._py_file.relative_to(_ROOT).with_suffix("")
            self._cache_path = str(cache_dir().joinpath(*rel.parts))

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return source_stamp(self._py_file)

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                Path(py_file).resolve().relative_to(PACKAGE)
            except ValueError:
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            return self

    return CacheImpl, ArmsimLocator


def configure():
    impl, locator = _locator_class()
    if impl is None:
        return
    if not any(c.__name__ == "ArmsimLocator" for c in impl._locator_classes):
        impl._locator_classes = [locator] + list(impl._locator_classes)
