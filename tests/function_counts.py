"""Instructions per function, as the measured `functions` field counts them (per ELF symbol,
callees not included), from a run of the ports.

A kernel compiled on its own (`@kernel` without inline) is a function of the measured
firmware: the C function it is named after, or for a private one (`_return_after_...`: a
piece of a C function the host runs around a call) its module's, which is named after the C
function.  Inline helpers belong to their caller, as gcc inlines them.  `FunctionCounter` is a tracer for `armsim.cpu.kernel.run`: a kernel that
calls no other compiled kernel runs compiled and is charged the instructions it adds; one
that does is traced, its own instructions charged to it one by one and each compiled callee
run compiled in turn.  Only the callers' own instructions pay the traced run's cost."""
import collections

from armsim.cpu import machine
from armsim.cpu.kernel import _PYTHON_OF, Tracer


def _compiled_alone(fast):
    return fast in _PYTHON_OF and not fast.targetoptions.get("forceinline")


def _callees(fast, seen=None):
    """The compiled kernels `fast` calls, through the inline helpers it calls."""
    seen = set() if seen is None else seen
    found = set()
    py = _PYTHON_OF[fast]
    for name in py.__code__.co_names:
        value = py.__globals__.get(name)
        if value in _PYTHON_OF and value not in seen:
            seen.add(value)
            if _compiled_alone(value):
                found.add(value)
            else:
                found |= _callees(value, seen)
    return found


def _function_of(fast):
    name = fast.py_func.__name__
    return fast.py_func.__module__.rsplit(".", 1)[-1] if name.startswith("_") else name


def _total(m):
    return sum(machine.counts(m).values())


class FunctionCounter(Tracer):
    def __init__(self):
        self.functions = collections.Counter()
        self._stack = []
        self._entry = {}
        super().__init__(limit=1 << 62)

    def _wrap(self, op):
        body, functions, stack = op.body, self.functions, self._stack

        def charged(m, *operands):
            result = body(m, *operands)
            functions[stack[-1]] += 1
            return result
        charged.__name__ = op.name
        return charged

    def _counted(self, fast):
        """`fast` run compiled, charged with the instructions it adds."""
        name, functions = _function_of(fast), self.functions

        def counted(m, *args):
            before = _total(m)
            result = fast(m, *args)
            functions[name] += _total(m) - before
            return result
        return counted

    def traced(self, fast):
        if fast in self._entry:
            return self._entry[fast]
        if not _compiled_alone(fast):                # an inline helper: traced in its caller
            twin = super().traced(fast)
        elif not _callees(fast):
            twin = self._counted(fast)
        else:
            body = super().traced(fast)
            name, stack = _function_of(fast), self._stack

            def twin(*args):
                stack.append(name)
                try:
                    return body(*args)
                finally:
                    stack.pop()
        self._entry[fast] = twin
        return twin


def function_counts(case, path):
    """(Result, {function: instructions}) of `case` run on `path` through its entry point."""
    from armsim.pipeline.build import Build
    from armsim.pipeline.harness import run_case
    counter = FunctionCounter()
    result = run_case(case, Build(path), function=case.get("function"), tracer=counter)
    return result, dict(counter.functions)
