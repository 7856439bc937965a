"""Instructions per C function of a run, as the measured `functions` field counts them
(../shared/reference/README.md: instructions inside each ELF symbol, callees not included)."""
import collections
import sys

from armsim.cpu.kernel import Tracer


class FunctionCounter(Tracer):
    """A Tracer that keeps no records: each executed instruction counts for the innermost
    Python frame whose function is named like one of `functions` (the C functions of the
    measurement; a port is named after its C function).  Helpers the ports call (inlined by
    gcc: requantize, clamps, read_and_pad, per-build blocks) count for the function that
    calls them; "?" collects instructions no such frame issued."""

    def __init__(self, functions):
        self.functions = frozenset(functions)
        self.counts = collections.Counter()
        super().__init__(limit=0)

    def _wrap(self, op):
        body, counts, functions = op.body, self.counts, self.functions

        def counted(m, *operands):
            result = body(m, *operands)
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_name not in functions:
                frame = frame.f_back
            counts["?" if frame is None else frame.f_code.co_name] += 1
            return result
        counted.__name__ = op.name
        return counted
