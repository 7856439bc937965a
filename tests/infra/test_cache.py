"""The compiled cache (armsim.infra.cache, armsim.cpu.jit): each armsim source is stamped by itself
and what it imports, so an edit recompiles exactly the kernels that can see it; constants do
not multiply compiles; a corrupt entry is rebuilt, an unwritable place replaced by a private
temporary one, and concurrent first runs compile each function once.

The cache tests run small compiled functions in fresh processes on a fresh cache directory."""
import ast
import json
import os
import pickle
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from armsim.infra import cache as _cache
from armsim.cpu.jit import jit

_STAMP_CACHES = (_cache.sources, _cache.imports, _cache.dependencies, _cache._content_digest,
                 _cache.source_stamp)


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
    for f in _STAMP_CACHES:
        f.cache_clear()
    yield pkg
    for f in _STAMP_CACHES:
        f.cache_clear()


def _stamp(path):
    for f in _STAMP_CACHES:
        f.cache_clear()
    return _cache.source_stamp(path)


def test_stamp_follows_transitive_imports_only(tree):
    kernel = tree / "sub" / "kernel.py"
    assert {p.relative_to(tree).as_posix() for p in _cache.dependencies(kernel)} == {
        "sub/kernel.py", "ops.py", "isa.py", "sub/leaf.py"}
    before = _stamp(kernel)
    (tree / "cli.py").write_text("# an edit to the command line\n")
    assert _stamp(kernel) == before                      # not imported: no recompile
    (tree / "sub" / "__init__.py").write_text("Z = 3\n")
    assert _stamp(kernel) == before                      # `from armsim.sub import leaf`: the module
    (tree / "isa.py").write_text("X = 2\n")              # imported two levels down
    assert _stamp(kernel) != before


def test_import_scanner_finds_what_the_parser_finds():
    """`imports` reads import statements with a regex (fast enough for every warm start);
    on every armsim source it finds every module Python's parser finds (a docstring's
    example may add one: a needless recompile, never a stale kernel)."""
    def parsed(path):
        names = []
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                names += [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                package = _cache._package_of(path)[:len(_cache._package_of(path)) - node.level + 1]
                base = ".".join(package + [node.module or ""]).strip(".") if node.level \
                    else node.module
                names += [f"{base}.{a.name}" if _cache._module_path(f"{base}.{a.name}") else base
                          for a in node.names]
        return {p for p in map(_cache._module_path, names) if p is not None} - {path}

    for path in sorted(_cache.PACKAGE.rglob("*.py")):
        assert parsed(path) <= _cache.imports(path), path


def test_no_compiled_module_depends_on_the_pipeline_or_cli():
    """Editing the CLI, the analyses, the pipeline, the data or the operators costs no
    recompile."""
    pipeline = {"cli", "analysis", "pipeline", "data", "operators", "api", "__init__.py"}
    for path in sorted(_cache.PACKAGE.rglob("*.py")):
        text = path.read_text()
        if "@kernel" not in text and "@jit" not in text:
            continue
        for dep in _cache.dependencies(path.resolve()):
            rel = dep.relative_to(_cache.PACKAGE).parts
            assert rel[0].removesuffix(".py") not in pipeline and rel[0] not in pipeline, \
                (path, dep)


def test_compiled_functions_are_cached_by_package_path(tmp_path, monkeypatch):
    monkeypatch.setenv("ARMSIM_CACHE_DIR", str(tmp_path))
    from armsim.cpu import isa
    cache = _cache.FunctionCache(isa.SMLAD.py_func)
    assert Path(cache.cache_path) == tmp_path / "armsim" / "cpu" / "isa"
    assert cache._cache_file._source_stamp == _cache.source_stamp(Path(isa.__file__).resolve())
    assert isinstance(isa.SMLAD._cache, _cache.FunctionCache)


def test_numba_s_own_cache_keeps_armsim_functions_out_of_the_sources(tmp_path, monkeypatch):
    """A stray ``njit(cache=True)`` in armsim is cached under the cache directory too."""
    from numba.core.caching import CacheImpl
    monkeypatch.setenv("ARMSIM_CACHE_DIR", str(tmp_path))
    from armsim.cpu import isa
    locator = next(cls.from_function(isa.SMLAD.py_func, isa.__file__)
                   for cls in CacheImpl._locator_classes
                   if cls.from_function(isa.SMLAD.py_func, isa.__file__) is not None)
    assert Path(locator.get_cache_path()) == tmp_path / "armsim" / "cpu" / "isa"
    assert CacheImpl._locator_classes[0].from_function(test_stamp_follows_transitive_imports_only,
                                                       __file__) is None


def test_constant_arguments_compile_once():
    """`f(x, 8)` and `f(x, 16)` from compiled code share one plain-int specialisation."""
    @jit(cache=False)
    def scale(x, k):
        return x * k

    @jit(cache=False)
    def caller(x):
        return scale(x, 8) + scale(x, 16) + scale(x, True)

    assert caller(3) == 75
    assert [str(s) for s in scale.signatures] in (["(int64, int64)", "(int64, bool)"],
                                                  ["(int64, bool)", "(int64, int64)"])


def test_a_borrowed_machine_is_neither_leaked_nor_freed_by_compiled_code():
    """`jit._unbox_named_tuple`: a Machine reaches compiled code with NULL meminfos, and the
    reference unboxing took is given back.  A helper with branches taking `m` (the code whose
    reference counting the borrowing removes) writes through the machine 1,000 times: the
    writes land, no array gains or loses a reference, and a named tuple that is not a
    Machine unboxes as numba's own."""
    from collections import namedtuple

    import numpy as np

    from armsim.cpu import machine, ops

    @jit(cache=False)
    def store_or_add(m, address, value):
        if value & 1:
            ops.strb(m, address, value)
        else:
            ops.add(m, value, 1)
        return m.regions.shape[0]

    @jit(cache=False)
    def run_many(m, n):
        rows = 0
        for k in range(n):
            rows = store_or_add(m, machine.SRAM_BASE + (k & 15), k)
        return rows

    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 16)
    m = machine.build(mem)
    arrays = [a for a in m if isinstance(a, np.ndarray)]
    before = [sys.getrefcount(a) for a in arrays]
    for _ in range(1000):
        assert store_or_add(m, machine.SRAM_BASE + 3, 5) == len(machine.CODE_REGIONS)
    assert run_many(m, 1000) == len(machine.CODE_REGIONS)
    assert [sys.getrefcount(a) for a in arrays] == before
    expected = [0] * 16
    expected[3] = 5
    for k in range(1, 1000, 2):
        expected[k & 15] = k & 0xFF
    assert machine.read(m, machine.SRAM_BASE, 16, np.uint8).tolist() == expected
    assert machine.counts(m) == {"strb": 1000 + 500, "add": 500}

    Pair = namedtuple("Pair", "left right")

    @jit(cache=False)
    def total(pair):
        return pair.left.sum() + pair.right.sum()

    pair = Pair(np.arange(4), np.arange(3))
    refs = sys.getrefcount(pair.left)
    result = total(pair)
    after = sys.getrefcount(pair.left)
    assert result == 9 and after == refs


def test_passing_the_machine_to_inlined_helpers_counts_no_references():
    """`jit._BorrowedMachineModel`: the row-pair loop of the vector x matrix product, which
    calls LLVM-inlined helpers taking `m` (`_pair_columns`, `_row_macs`, ...), compiles to
    code with no NRT_incref or NRT_decref call (without the model: each an out-of-line call)
    and counts and computes as the cached kernel does; a helper entering a code region
    leaves the arrays' reference counts as they were."""
    import numpy as np

    from armsim.cpu import machine, ops
    from armsim.cpu.kernel import _PYTHON_OF
    from armsim.kernels.cmsis_nn.arm_nn_vec_mat_mult_t_s8 import _dsp_row_pairs

    fresh = jit(_PYTHON_OF[_dsp_row_pairs], cache=False)   # compiled here, so inspectable
    rng = np.random.default_rng(3)
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0).region("flash", machine.FLASH_BASE, 0)
    lhs = mem.place("sram", rng.integers(-128, 128, 64, dtype=np.int8))
    rhs = mem.place("flash", rng.integers(-128, 128, 128, dtype=np.int8))
    dst = mem.place("sram", 2)
    results = []
    for row_pairs in (fresh, _dsp_row_pairs):
        m = machine.build(mem)
        out = row_pairs(m, lhs, rhs, 0, dst, 5, 1, 1 << 30, -3, 64, 1, -128, 127, 1, 0,
                        0x00050005, 0, False)
        results.append((out, machine.counts(m), machine.read(m, dst, 2, np.int8).tolist()))
    assert results[0] == results[1] and results[0][1]["smlad"] == 4 * 16
    (ir,) = fresh.inspect_llvm().values()
    functions = {re.match(r"[^@]*@([^(]+)\(", f).group(1): f
                 for f in re.split(r"^define ", ir, flags=re.MULTILINE)[1:]}
    kernel = [f for name, f in functions.items()     # not its Python wrapper, nor NRT's own
              if "_dsp_row_pairs" in name and not name.startswith("_ZN7cpython")]
    assert len(kernel) == 1
    assert "@NRT_incref" not in kernel[0] and "@NRT_decref" not in kernel[0]

    @jit(inline="llvm", cache=False)
    def helper(m, address, value):
        if value & 1:
            inner = ops.enter_region(m, ops.REQUANTIZE)
            value = ops.add(inner, value, 2)
            ops.leave_region(m, inner)
        ops.strb(m, address, value)
        return value

    @jit(cache=False)
    def loop(m, n):
        total = 0
        for k in range(n):
            total += helper(m, machine.SRAM_BASE + (k & 15), k)
        return total

    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 16)
    m = machine.build(mem)
    arrays = [a for a in m if isinstance(a, np.ndarray)]
    before = [sys.getrefcount(a) for a in arrays]
    assert loop(m, 1000) == sum(k + 2 * (k & 1) for k in range(1000))
    assert [sys.getrefcount(a) for a in arrays] == before
    assert machine.counts(m) == {"strb": 1000, "add": 500}
    requantize_alu = (machine.CODE_REGIONS.index("requantize") * len(machine.CATEGORIES)
                      + machine.CATEGORIES.index("alu"))
    assert machine.counts(m, requantize_alu) == {"add": 500}


# --- robustness, in fresh processes -------------------------------------------------------

SMLAD = "from armsim.cpu import isa; print(isa.SMLAD(0x00020003, 0x00040005, 7))"


def _python(code, env_update, cwd=None, **kw):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ARMSIM_CACHE_DIR", "NUMBA_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(env_update)
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=600, **kw)


def _entry(root):
    folder = root / "armsim" / "cpu" / "isa"
    index = next(folder.glob("isa.SMLAD-*.nbi"))
    return index, next(folder.glob(index.name[:-len(".nbi")] + ".*.nbc"))


@pytest.mark.parametrize("damage", ["truncate index", "garble index", "truncate data",
                                    "garble data", "empty data"])
def test_a_corrupt_entry_is_rebuilt_with_one_line(tmp_path, damage):
    env = {"ARMSIM_CACHE_DIR": str(tmp_path)}
    first = _python(SMLAD, env)
    assert first.returncode == 0 and first.stdout == "(30, False)\n", first.stderr
    index, data = _entry(tmp_path)
    target = index if "index" in damage else data
    blob = target.read_bytes()
    if damage.startswith("truncate"):
        target.write_bytes(blob[:len(blob) // 2])
    elif damage.startswith("garble"):
        middle = len(blob) // 2
        target.write_bytes(blob[:middle] + bytes(b ^ 0x5A for b in blob[middle:middle + 64])
                           + blob[middle + 64:])
    else:
        target.write_bytes(b"")
    second = _python(SMLAD, env)
    assert second.returncode == 0 and second.stdout == "(30, False)\n", second.stderr
    lines = second.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("armsim: discarded an unreadable compile "
                                                   "cache entry"), second.stderr
    assert "isa.SMLAD" in lines[0]
    third = _python(SMLAD, env)                          # rebuilt: loads silently
    assert third.returncode == 0 and third.stdout == "(30, False)\n" and third.stderr == ""


LINKED = """
from armsim.cpu import isa
from armsim.cpu.jit import jit
print(isa.SMLAD(0x00020003, 0x00040005, 7))
library = isa.SMLAD.overloads[isa.SMLAD.signatures[0]].library
print(type(library).__name__, library._linking_bitcode is not None)

@jit(cache=False)
def both_ways(a, b):
    return isa.SMLAD(a, b, 0)[0] + isa.SMLAD(b, a, 1)[0]

print(both_ways(0x00020003, 0x00040005), library._linking_bitcode is None)
"""


def test_a_cached_library_is_parsed_only_when_a_new_compile_links_it(tmp_path):
    """Loading from the cache skips the linking bitcode; a later compile that calls the
    loaded function parses and links it, and the result is right."""
    env = {"ARMSIM_CACHE_DIR": str(tmp_path)}
    first = _python(SMLAD, env)
    assert first.returncode == 0 and first.stdout == "(30, False)\n", first.stderr
    second = _python(LINKED, env)
    assert second.returncode == 0, second.stderr
    assert second.stdout == "(30, False)\n_CachedLibrary True\n47 True\n", second.stderr


def test_an_entry_of_an_older_format_is_rebuilt(tmp_path):
    """An entry whose library is numba's own serialisation (no symbol list) is discarded
    with one line and recompiled."""
    env = {"ARMSIM_CACHE_DIR": str(tmp_path)}
    assert _python(SMLAD, env).returncode == 0
    index, data = _entry(tmp_path)
    key, payload = pickle.loads(_cache._unsealed(data.read_bytes(), data))
    (name, _, (object_code, bitcode, _symbols)), *rest = payload
    data.write_bytes(_cache._sealed(pickle.dumps((key, ((name, "object", (object_code, bitcode)),
                                                        *rest)))))
    second = _python(SMLAD, env)
    assert second.returncode == 0 and second.stdout == "(30, False)\n", second.stderr
    assert "discarded an unreadable compile cache entry" in second.stderr


def _numba_files(folder):
    return sorted(p for p in folder.rglob("*") if p.suffix in (".nbi", ".nbc"))


def test_an_unwritable_cache_falls_back_to_a_private_temporary_directory(tmp_path):
    """A home (hence ~/.cache) that cannot be written: the cache goes to a temporary
    directory of this user, with one line saying so, and nothing is written in the package."""
    blocker = tmp_path / "home"
    blocker.write_text("a file where the home directory should be")
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    package_before = _numba_files(_cache.PACKAGE)
    run = _python(SMLAD, {"HOME": str(blocker), "TMPDIR": str(temporary)})
    assert run.returncode == 0 and run.stdout == "(30, False)\n", run.stderr
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and "is not writable" in lines[0], run.stderr
    assert _numba_files(_cache.PACKAGE) == package_before
    fallback = temporary / f"armsim-cache-{os.getuid()}"
    assert list(fallback.glob("armsim/cpu/isa/isa.SMLAD-*.nbi"))
    assert (fallback.stat().st_mode & 0o777) == 0o700


COUNTED = """
import json, os, sys, time
from pathlib import Path
import numpy as np
sys.path.insert(0, {folder!r})
from armsim.cpu import machine
from armsim.cpu.kernel import run
import dot_kernel
Path({folder!r}, f"ready-{{os.getpid()}}").write_text("")
while not Path({go!r}).exists():
    time.sleep(0.005)
mem = machine.Memory()
mem.region("sram", machine.SRAM_BASE, 0)
a = mem.place("sram", np.arange(-8, 8, dtype=np.int8))
w = mem.place("sram", np.arange(16, dtype=np.int8)[::-1].copy())
m = machine.build(mem)
acc = run(dot_kernel.dot, m, a, w, 4)
print(json.dumps({{"acc": acc, "counts": machine.counts(m),
                   "compiled": sum(dot_kernel.dot._cache_misses.values())}}))
"""

DOT = """
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import add, bcc, cmp, ldr, mov, smlad, sxtb16


@kernel
def dot(m, a, w, n):
    acc = mov(m, 0)
    i = mov(m, 0)
    while i < n:
        x = ldr(m, a + 4 * i)
        k = ldr(m, w + 4 * i)
        acc = smlad(m, sxtb16(m, x, 8), sxtb16(m, k, 8), acc)
        acc = smlad(m, sxtb16(m, x, 0), sxtb16(m, k, 0), acc)
        i = add(m, i, 1)
        cmp(m, i, n)
        bcc(m, i < n)
    return acc
"""


def test_concurrent_first_runs_compile_once_and_agree(tmp_path):
    """Three processes start compiling the same kernel at the same moment on an empty cache:
    one compiles it, the others wait for it and load it; all count the same."""
    (tmp_path / "dot_kernel.py").write_text(DOT)
    go = tmp_path / "go"
    code = COUNTED.format(folder=str(tmp_path), go=str(go))
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
    env["ARMSIM_CACHE_DIR"] = str(tmp_path / "cache")
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    deadline = time.monotonic() + 300
    while len(list(tmp_path.glob("ready-*"))) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)                                 # all three imported and waiting
    go.write_text("")
    results = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0 and err == "", err
        results.append(json.loads(out))
    assert sum(r["compiled"] for r in results) == 1
    assert all({k: v for k, v in r.items() if k != "compiled"} ==
               {k: v for k, v in results[0].items() if k != "compiled"} for r in results)
    assert results[0]["acc"] == sum((i - 8) * (15 - i) for i in range(16))
