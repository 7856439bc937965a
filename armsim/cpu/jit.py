"""How armsim compiles with numba: every compiled function (instruction semantics, ops,
kernels) is made by `jit`.

* **Constants typed as plain ints.**  numba types a constant argument as a literal, so
  ``add(m, x, 8)`` and ``add(m, x, 16)`` would compile the op (and what it calls) twice; a
  call to a `Dispatcher` is typed with the arguments' plain types, so each function is
  compiled once per plain signature.
* **Cached** through `armsim.infra.cache` (armsim's locator and stamp, checked files, a lock per
  function so that concurrent first runs compile it once).
* ``inline="numba"``: numba's own inlining (the callee's IR copied into each caller and
  typed there), kept for the tiny helpers inside ops; ``inline="llvm"``: compiled once,
  marked ``alwaysinline`` for LLVM (numba's ``forceinline``), for per-element helpers.
* **The machine is borrowed.**  A `Machine` passed in from Python reaches the compiled code
  with its arrays' NRT meminfos set to NULL (`_unbox_named_tuple`).  The Python caller keeps
  the arrays alive for the call, and no kernel keeps or returns them, so the reference
  counting numba emits for every use of ``m`` in a helper with branches becomes a null test
  instead of an atomic increment and decrement (these were 70 % of the time of the vector x
  matrix kernel; measured with ``perf``).  And a `Machine` value itself is not
  reference-counted at all (`_BorrowedMachineModel`): each call of an inlined helper
  (``@kernel(inline=True)``) taking ``m`` otherwise kept an out-of-line NRT_incref and
  NRT_decref call per array around it, which made the vector x matrix kernel's column loop
  ~3x slower than the same ops written inline (measured with this model switched off;
  benchmarks/bench_machine.py --helpers times a helper-style kernel against a plain one).
  Compiled code makes machines only from the borrowed one's arrays (`ops.enter_region`).

`Dispatcher` overrides two methods of numba's dispatcher (an internal interface: numba's
version is pinned in pyproject.toml; tests/infra/test_cache.py exercises each override).
"""
import sys

from numba.core import boxing, cgutils, sigutils, types
from numba.core.caching import NullCache
from numba.core.compiler_lock import global_compiler_lock
from numba.core.datamodel import default_manager, models
from numba.core.pythonapi import NativeValue
from numba.core.registry import CPUDispatcher
from numba.extending import unbox

from armsim.infra import cache as _cache
from armsim.cpu.machine import Machine


class Dispatcher(CPUDispatcher):
    """numba's CPU dispatcher with plain-typed calls and armsim's cache."""

    def get_call_template(self, args, kws):
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def enable_caching(self):
        self._cache = None            # made on first use: a run compiles or loads a few dozen

    @property
    def _cache(self):
        if self.__dict__["_cache"] is None:
            self.__dict__["_cache"] = NullCache()
            try:
                self.__dict__["_cache"] = _cache.FunctionCache(self.py_func)
            except OSError as error:
                print(f"armsim: no writable cache directory ({error}); compiling without a "
                      f"cache", file=sys.stderr)
        return self.__dict__["_cache"]

    @_cache.setter
    def _cache(self, cache):
        self.__dict__["_cache"] = cache

    def compile(self, sig):
        with global_compiler_lock:
            args, _ = sigutils.normalize_signature(sig)
            if tuple(args) in self.overloads or not isinstance(self._cache, _cache.FunctionCache):
                return super().compile(sig)
            with self._cache.lock():
                return super().compile(sig)


_INLINE = {None: {}, "numba": {"inline": "always"}, "llvm": {"forceinline": True}}


def jit(fn=None, *, inline=None, cache=True):
    """Compile `fn` in nopython mode (see the module docstring for `inline`)."""
    def wrap(f):
        disp = Dispatcher(py_func=f, locals={},
                          targetoptions={"nopython": True, "no_cfunc_wrapper": True,
                                         **_INLINE[inline]})
        if cache:
            disp.enable_caching()
        return disp
    return wrap(fn) if fn is not None else wrap


@unbox(types.NamedTuple)
def _unbox_named_tuple(typ, obj, c):
    """numba's tuple unboxing; for a `Machine`, the compiled code gets a copy whose arrays
    have no meminfo (borrowed), and the owned value is released after the call."""
    native = boxing.unbox_tuple(typ, obj, c)
    if typ.instance_class is not Machine:
        return native
    owned = borrowed = native.value
    for i, member in enumerate(typ.types):
        if isinstance(member, types.Array):
            array = c.context.make_array(member)(c.context, c.builder,
                                                 value=c.builder.extract_value(owned, i))
            array.meminfo = cgutils.get_null_value(array.meminfo.type)
            borrowed = c.builder.insert_value(borrowed, array._getvalue(), i)

    def cleanup():
        if native.cleanup is not None:
            native.cleanup()
        for i, member in enumerate(typ.types):     # the model counts none: release each
            if isinstance(member, types.Array):
                c.context.nrt.decref(c.builder, member, c.builder.extract_value(owned, i))
    return NativeValue(borrowed, is_error=native.is_error, cleanup=cleanup)


class _BorrowedMachineModel(models.TupleModel):
    """numba's tuple layout for a `Machine`, with no members to reference-count: compiled
    code never owns a machine's arrays (module docstring), so passing, copying or dropping
    ``m`` emits no NRT_incref / NRT_decref calls (numba keeps those out of line)."""

    def traverse(self, builder):
        return []


_numba_tuple_model = default_manager._handlers[types.NamedTuple]


def _named_tuple_model(dmm, fe_type):
    if fe_type.instance_class is Machine:
        return _BorrowedMachineModel(dmm, fe_type)
    return _numba_tuple_model(dmm, fe_type)


default_manager.register(types.NamedTuple, _named_tuple_model)
