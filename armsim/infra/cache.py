"""Numba's on-disk cache for armsim's compiled kernels: stamped by what each one compiles,
relocatable, checked on load, safe under concurrent first runs.

* **Stamp.**  Numba stamps a cached function with the content of its own source file only,
  but a kernel inlines ops, semantics and helpers from other files.  `ArmsimLocator` stamps
  an armsim source file with its own content *and that of every armsim module it imports,
  transitively* (read from the import statements), so editing a kernel recompiles that
  kernel and the kernels that import it, and editing the CLI, the report or Prepare
  recompiles nothing.
* **Place.**  One directory (``$ARMSIM_CACHE_DIR``, else ``$NUMBA_CACHE_DIR``, else
  ``$XDG_CACHE_HOME/armsim`` or ``~/.cache/armsim``), laid out by package-relative path, so
  a cache made by one install serves any other install of the same sources.  When it cannot
  be written, a private temporary directory is used instead (one line on stderr); nothing is
  ever written beside the sources.
* **Checks.**  Index and data files carry a SHA-256 of their content and each data file the
  key it was saved for; an entry that does not verify or load is deleted and recompiled
  (one line on stderr) instead of ending the run in an unpickling error or a crash.
* **Concurrency.**  Compiling and saving a function holds an exclusive lock on its own lock
  file, so concurrent first runs compile each function once and never interleave the
  read-modify-write of an index; the others wait and load the result.

This subclasses numba's cache classes (`numba.core.caching`), an internal interface: the
numba versions it was written for are pinned in pyproject.toml, and tests/infra/test_cache.py
exercises every part on the installed numba.
"""
import contextlib
import functools
import hashlib
import os
import pickle
import re
import stat
import sys
import tempfile
from pathlib import Path

import numba
from llvmlite import binding as llvm
from numba.core import caching, compiler
from numba.core.codegen import JITCodeLibrary
from numba.core.runtime import rtsys

try:
    import fcntl
except ImportError:          # not POSIX: no lock, concurrent first runs may compile twice
    fcntl = None

PACKAGE = Path(__file__).resolve().parents[1]      # .../armsim
_ROOT = PACKAGE.parent
_MAGIC = b"armsim-cache-2\n"
_LIBRARY_KIND = "object+symbols"


def cache_dir():
    """The cache directory asked for (it may not be writable: see `cache_root`)."""
    for var in ("ARMSIM_CACHE_DIR", "NUMBA_CACHE_DIR"):
        if os.environ.get(var):
            return Path(os.environ[var])
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "armsim"


def _writable(path):
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def _private_temporary():
    """A temporary cache directory only this user can write (a shared one someone else
    created is not trusted: cached code is executed)."""
    getuid = getattr(os, "getuid", None)
    if getuid is not None:
        path = Path(tempfile.gettempdir()) / f"armsim-cache-{getuid()}"
        try:
            path.mkdir(mode=0o700, exist_ok=True)
            info = path.lstat()
            if (stat.S_ISDIR(info.st_mode) and info.st_uid == getuid()
                    and not info.st_mode & 0o022 and _writable(path)):
                return path
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="armsim-cache-"))


@functools.lru_cache(maxsize=None)
def _resolve(wanted):
    if _writable(wanted):
        return wanted
    fallback = _private_temporary()
    print(f"armsim: cache directory {wanted} is not writable; compiled kernels are cached "
          f"in {fallback} for now", file=sys.stderr)
    return fallback


def cache_root():
    """The cache directory in use: `cache_dir()`, or a private temporary one when that
    cannot be written (OSError when neither can)."""
    return _resolve(cache_dir())


# --- the stamp: a source file and its armsim imports ------------------------------------

@functools.lru_cache(maxsize=None)
def sources():
    """Every armsim source file by dotted module name (one directory walk: a warm start
    resolves each kernel's imports against it instead of probing the disk per name)."""
    found = {}
    for path in sorted((_ROOT / "armsim").rglob("*.py")):
        parts = path.relative_to(_ROOT).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _module_path(name):
    """The source file of armsim module `name` (dotted), or None if it is not one."""
    return sources().get(name)


def _package_of(path):
    rel = path.relative_to(_ROOT).with_suffix("")
    parts = list(rel.parts)
    return parts if path.name == "__init__.py" else parts[:-1]


# `import a.b as c, d` and `from .x import (y, z)` at the start of a line: a regex, not the
# parser, because a warm start stamps every kernel it loads (ast.parse of the sources costs
# ~20x more).  A match inside a docstring only adds a dependency, which is safe.
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
                     r"|import[ \t]+([^\n]*))", re.M)


def _names(clause):
    """The imported names of an import clause: `(a as b,  # note\n c)` -> ['a', 'c']."""
    clause = re.sub(r"#[^\n]*", "", clause).strip("()")
    return [n.split()[0] for n in clause.split(",") if n.split()]


@functools.lru_cache(maxsize=None)
def imports(path):
    """The armsim source files `path` imports directly.  ``from package import module``
    depends on the module, not on the package's ``__init__``."""
    text = Path(path).read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
    names = []
    for module, members, plain in _IMPORT.findall(text):
        if plain:
            names += _names(plain)
            continue
        base = module.lstrip(".")
        level = len(module) - len(base)
        if level:
            try:
                package = _package_of(Path(path))
            except ValueError:           # a relative import outside armsim
                continue
            package = package[:len(package) - level + 1]
            base = ".".join(package + ([base] if base else []))
        for name in _names(members):
            member = f"{base}.{name}"
            names.append(member if _module_path(member) is not None else base)
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


def _name(path):
    """A file's name in stamps and cache paths: package-relative inside armsim."""
    try:
        return path.relative_to(_ROOT).as_posix()
    except ValueError:
        return path.as_posix()


@functools.lru_cache(maxsize=None)
def _content_digest(path):
    return hashlib.sha256(path.read_bytes()).digest()


@functools.lru_cache(maxsize=None)
def source_stamp(path):
    digest = hashlib.sha256(numba.__version__.encode())
    for p in dependencies(path):
        digest.update(_name(p).encode())
        digest.update(_content_digest(p))
    return digest.hexdigest()


def _subpath(py_file):
    """Where under the cache root a source file's functions go: its package path, or for a
    file outside armsim (a benchmark, a test) a folder named after its directory."""
    try:
        return py_file.relative_to(_ROOT).with_suffix("").parts
    except ValueError:
        folder = hashlib.sha1(str(py_file.parent).encode()).hexdigest()[:16]
        return ("external", f"{py_file.parent.name}_{folder}", py_file.stem)


class ArmsimLocator(caching._CacheLocator):
    """Cache a function under cache_root()/<package path>, stamped by `source_stamp`."""

    def __init__(self, py_func, py_file):
        self._py_file = Path(py_file).resolve()
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_root().joinpath(*_subpath(self._py_file)))

    def get_cache_path(self):
        return self._cache_path

    def get_source_stamp(self):
        return source_stamp(self._py_file)

    def get_disambiguator(self):
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file):
        return cls(py_func, py_file)


class _CachedLibrary(JITCodeLibrary):
    """A compiled library loaded from the cache.  numba parses the library's linking bitcode
    on load, only to list the symbols it defines (~0.1 s of a warm start for the example);
    here the symbols are saved with the entry and the bitcode is parsed only if a later
    compile links this library into another."""
    _linking_bitcode = None

    @property
    def _shared_module(self):
        if self._linking_bitcode is not None:
            self.__dict__["_shared_module"] = llvm.parse_bitcode(self._linking_bitcode)
            self._linking_bitcode = None
        return self.__dict__.get("_shared_module")

    @_shared_module.setter
    def _shared_module(self, module):
        self.__dict__["_shared_module"] = module

    @classmethod
    def load(cls, codegen, name, object_code, linking_bitcode, symbols):
        """numba's `CPUCodeLibrary._unserialize` of an object-code entry, without the parse."""
        library = cls(codegen, name)
        library.enable_object_caching()
        library._set_compiled_object(object_code)
        library._linking_bitcode = linking_bitcode
        library._finalize_final_module()
        codegen._engine._defined_symbols |= symbols
        return library


def _defined_symbols(module):
    return frozenset(value.name for values in (module.functions, module.global_variables)
                     for value in values if not value.is_declaration)


class _CacheImpl(caching.CompileResultCacheImpl):
    """numba's compile-result cache; an entry's library also lists the symbols it defines
    (see `_CachedLibrary`)."""
    _locator_classes = [ArmsimLocator]

    def reduce(self, cres):
        library, *rest = cres._reduce()
        name, kind, (object_code, linking_bitcode) = library
        symbols = _defined_symbols(cres.library._get_module_for_linking())
        return ((name, _LIBRARY_KIND, (object_code, linking_bitcode, symbols)), *rest)

    def rebuild(self, target_context, payload):
        (name, kind, data), *rest = payload
        if kind != _LIBRARY_KIND:
            raise CorruptEntry(f"a library saved as {kind!r}, not {_LIBRARY_KIND!r}")
        # numba's `CompileResult._rebuild`, with the library loaded as above
        fndesc, env, signature, objectmode, lifted, typeann, reload_init, envs = rest
        for init in reload_init:
            init()
        library = _CachedLibrary.load(target_context.codegen(), name, *data)
        result = compiler.CompileResult(
            target_context=target_context, typing_context=target_context.typing_context,
            library=library, environment=env,
            entry_point=target_context.get_executable(library, fndesc, env),
            fndesc=fndesc, type_annotation=typeann, signature=signature,
            objectmode=objectmode, lifted=lifted, typing_error=None, call_helper=None,
            metadata=None, reload_init=reload_init, referenced_envs=envs)
        for referenced in envs:
            library.codegen.set_env(referenced.env_name, referenced)
        return result


class _PackageLocator(ArmsimLocator):
    """`ArmsimLocator` for armsim's files only: what `configure` gives numba's own cache."""

    @classmethod
    def from_function(cls, py_func, py_file):
        try:
            Path(py_file).resolve().relative_to(PACKAGE)
        except ValueError:
            return None
        return cls(py_func, py_file)


def configure():
    """A function in armsim compiled with numba's own ``njit(cache=True)`` instead of
    `armsim.cpu.jit` is still cached under `cache_root()`, never beside the sources (it
    lacks the checks and the lock: use `armsim.cpu.jit`)."""
    if _PackageLocator not in caching.CacheImpl._locator_classes:
        caching.CacheImpl._locator_classes = ([_PackageLocator]
                                              + list(caching.CacheImpl._locator_classes))


# --- checked index and data files -------------------------------------------------------

class CorruptEntry(Exception):
    """A cache file that does not verify."""


def _sealed(payload):
    return _MAGIC + hashlib.sha256(payload).digest() + payload


def _unsealed(blob, path):
    head = len(_MAGIC)
    digest, payload = blob[head:head + 32], blob[head + 32:]
    if blob[:head] != _MAGIC or hashlib.sha256(payload).digest() != digest:
        raise CorruptEntry(f"{Path(path).name} does not match its checksum")
    return payload


class _CheckedFile(caching.IndexDataCacheFile):
    """numba's index + data files, each sealed with a SHA-256 of its content; a data file
    also holds the key it was saved for.  The source stamp is computed on first use (a
    warm start stamps only the kernels it runs)."""

    def __init__(self, cache_path, filename_base, locator):
        super().__init__(cache_path, filename_base, None)
        del self._source_stamp                   # the property below, on first use
        self._locator = locator

    @functools.cached_property
    def _source_stamp(self):
        return self._locator.get_source_stamp()

    def save(self, key, data):
        super().save(key, (key, data))

    def load(self, key):
        entry = super().load(key)
        if entry is None:
            return None
        saved_key, data = entry
        if saved_key != key:
            raise CorruptEntry(f"{self._index_path}: an entry holds another signature's code")
        return data

    def _load_index(self):
        try:
            with open(self._index_path, "rb") as f:
                blob = f.read()
        except FileNotFoundError:
            return {}
        if not blob.startswith(_MAGIC):
            return {}          # numba's own format (an older armsim): stale, overwritten
        version, stamp, overloads = pickle.loads(_unsealed(blob, self._index_path))
        if version != self._version or stamp != self._source_stamp:
            return {}          # another numba or stale sources: recompiled and overwritten
        return overloads

    def _save_index(self, overloads):
        blob = _sealed(self._dump((self._version, self._source_stamp, overloads)))
        with self._open_for_write(self._index_path) as f:
            f.write(blob)

    def _load_data(self, name):
        path = self._data_path(name)
        with open(path, "rb") as f:
            blob = f.read()
        return pickle.loads(_unsealed(blob, path))

    def _save_data(self, name, data):
        with self._open_for_write(self._data_path(name)) as f:
            f.write(_sealed(self._dump(data)))

    def discard(self):
        """Delete the index and every data file of this function."""
        base = self._index_name[:-len(".nbi")]
        for path in Path(self._cache_path).glob(f"{base}.*"):
            if path.suffix in (".nbi", ".nbc"):
                with contextlib.suppress(OSError):
                    path.unlink()


class FunctionCache(caching.FunctionCache):
    """numba's per-function cache with armsim's locator, checked files and a lock."""
    _impl_class = _CacheImpl

    def __init__(self, py_func):       # numba's Cache.__init__, with the file class above
        self._name = repr(py_func)
        self._py_func = py_func
        self._impl = self._impl_class(py_func)
        self._cache_path = self._impl.locator.get_cache_path()
        self._cache_file = _CheckedFile(self._cache_path, self._impl.filename_base,
                                        self._impl.locator)
        self.enable()

    def load_overload(self, sig, target_context):
        # numba's load_overload first refreshes the target context (imports and installs every
        # lowering registry: ~0.35 s of a warm start); cached code needs only the runtime (NRT)
        # it calls, and a compile refreshes the contexts itself
        try:
            rtsys.initialize(target_context)
            return self._load_overload(sig, target_context)
        except Exception as error:       # any entry that cannot be loaded is rebuilt
            self._cache_file.discard()
            print(f"armsim: discarded an unreadable compile cache entry "
                  f"({self._cache_file._index_path}: {_reason(error)}); recompiling",
                  file=sys.stderr)
            return None

    def save_overload(self, sig, data):
        try:
            super().save_overload(sig, data)
        except CorruptEntry:
            self._cache_file.discard()
            super().save_overload(sig, data)
        except OSError as error:
            print(f"armsim: could not save to the compile cache ({_reason(error)}); "
                  f"continuing without it", file=sys.stderr)
            self.disable()

    @contextlib.contextmanager
    def lock(self):
        """Hold this function's lock file (exclusive) while it is compiled and saved;
        re-entrant within the process."""
        path = os.path.join(self._cache_path, self._impl.filename_base + ".lock")
        if fcntl is None or path in _HELD:
            yield
            return
        try:
            os.makedirs(self._cache_path, exist_ok=True)
            f = open(path, "ab")
        except OSError:
            yield
            return
        with f:
            fcntl.flock(f, fcntl.LOCK_EX)
            _HELD.add(path)
            try:
                yield
            finally:
                _HELD.discard(path)
                fcntl.flock(f, fcntl.LOCK_UN)


_HELD = set()          # lock files this process holds


def _reason(error):
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}" if text else type(error).__name__
