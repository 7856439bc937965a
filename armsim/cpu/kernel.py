"""One kernel source, two ways to run it.

``@kernel`` compiles a kernel written against `armsim.cpu.ops` with numba (the fast counted
run, cached on disk).  `traced` rebuilds the very same function object -- same code object,
same bytecode -- in a namespace where every op is a recording wrapper around the op's
Python body and every kernel it calls is itself traced.  So the trace executes exactly the
instructions the counted run counts; tests compare both.
"""
import gc
import sys
import types

from . import ops
from .jit import jit
from .machine import MemoryFault

_PYTHON_OF = {}   # compiled kernel dispatcher -> its Python function


def kernel(fn=None, *, inline=False):
    """Compile a kernel for the counted run.  ``inline=True`` for small per-element helpers
    (requantize, ...): compiled once and inlined by LLVM at every call site, so no call
    passes refcounted arrays (numba's own inlining would re-type and re-lower the helper
    at every call site, which multiplied the first run's compile time)."""
    def wrap(f):
        fast = jit(f, inline="llvm" if inline else None)
        _PYTHON_OF[fast] = f
        return fast
    return wrap(fn) if fn is not None else wrap


class Record:
    """One executed instruction of a trace; `fitted` when its op is calibrated bookkeeping
    (`armsim.cpu.ops.fitted_*`), not a transcribed instruction."""
    __slots__ = ("op", "mnemonic", "operands", "result", "function", "line", "depth", "fitted",
                 "file")

    def __init__(self, op, mnemonic, operands, result, function, line, depth, fitted=False,
                 file=None):
        self.op, self.mnemonic, self.operands, self.result = op, mnemonic, operands, result
        self.function, self.line, self.depth, self.fitted = function, line, depth, fitted
        self.file = file            # the issuing function's source (names repeat across ports)


class Tracer:
    """Collects `Record`s; `limit` stops runaway traces of big problems."""

    def __init__(self, limit=1_000_000):
        self.records = []
        self.limit = limit
        self._traced = {}
        self._depths = {}
        self._ops = {name: self._wrap(op) for name, op in ops.OPS.items()}

    def _depth_of(self, frame):
        """The stack depth of `frame`.  Consecutive instructions mostly come from the frame
        of the last one or a frame near it, so depths are remembered per frame (the dict
        holds the frames, so no other frame can take their identity) and a new frame walks
        up only to the nearest remembered one; the memo is emptied now and then."""
        depths = self._depths
        known = depths.get(frame)
        if known is not None:
            return known
        steps, f = 0, frame
        while f is not None and f not in depths:
            steps += 1
            f = f.f_back
        depth = steps + (depths[f] if f is not None else 0)
        if len(depths) > 256:
            depths.clear()
        depths[frame] = depth
        return depth

    def _wrap(self, op):
        body, records, name, mnemonic = op.body, self.records, op.name, op.mnemonic
        fitted = op.fitted
        limit = self.limit
        depth_of = self._depth_of

        def recorded(m, *operands):
            result = body(m, *operands)
            caller = sys._getframe(1)
            if len(records) >= limit:
                raise RuntimeError(f"trace longer than {limit} instructions: use a smaller problem")
            try:
                values = tuple(map(int, operands))
            except TypeError:                       # a vector operand (a 4-tuple)
                values = _plain(operands)
            records.append(Record(name, mnemonic, values,
                                  _plain(result), caller.f_code.co_name, caller.f_lineno,
                                  depth_of(caller), fitted, caller.f_code.co_filename))
            return result
        recorded.__name__ = name
        return recorded

    def traced(self, fast_kernel):
        """The traced twin of a compiled kernel (memoised per tracer)."""
        if fast_kernel in self._traced:
            return self._traced[fast_kernel]
        py = _PYTHON_OF[fast_kernel]
        namespace = dict(py.__globals__)
        twin = types.FunctionType(py.__code__, namespace, py.__name__, py.__defaults__,
                                  py.__closure__)
        self._traced[fast_kernel] = twin
        for name, value in py.__globals__.items():
            op = _op_name(value)
            if op is not None:
                if op not in self._ops:             # registered after this tracer was made
                    self._ops[op] = self._wrap(ops.OPS[op])
                namespace[name] = self._ops[op]
            elif isinstance(value, type(fast_kernel)) and value in _PYTHON_OF:
                namespace[name] = self.traced(value)
        return twin


_OP_OF_BODY = {}


def _op_name(value):
    """The op whose body `value` is, else None (the table follows `ops.OPS`, which grows
    when armsim.cpu.ops_mve is imported)."""
    if len(_OP_OF_BODY) != len(ops.OPS):
        _OP_OF_BODY.clear()
        _OP_OF_BODY.update({id(op.body): name for name, op in ops.OPS.items()})
    return _OP_OF_BODY.get(id(value))


def _plain(result):
    """Plain ints of an op's result: an int, a tuple of them, or of vectors (4-tuples)."""
    if result is None:
        return None
    if isinstance(result, tuple):
        return tuple(_plain(x) if isinstance(x, tuple) else int(x) for x in result)
    return int(result)


def run(fast_kernel, *args, tracer=None):
    """Run a kernel counted (fast) or, with a `Tracer`, traced; returns its return value.
    A traced run pauses Python's cyclic garbage collector: its records form no cycles, and
    the collector's passes over a growing trace cost a quarter of the tracing time.  The
    frames the tracer remembered are let go when the run ends."""
    if tracer is None:
        return fast_kernel(*args)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return tracer.traced(fast_kernel)(*args)
    finally:
        tracer._depths.clear()
        if collecting:
            gc.enable()


__all__ = ["kernel", "Tracer", "Record", "run", "MemoryFault"]
