"""armsim against the real kernels on random shapes (issue 25 item 4).

Every case under tests/data/measured/<family>/ was measured by tools/measure (the real
CMSIS-NN, gcc 12.2 -O2, run on an emulated Cortex-M4 / M3; see its README) at seeded random
shapes: tiny, odd and medium sizes, every dispatch branch.  On both CMSIS-NN paths armsim's
counts must be the compiled code's: the per-mnemonic histogram, the instructions of each
function (callees excluded), the IT-block instructions whose condition failed, and the
output.  Pure JSON: no toolchain needed.

Functions: each instruction is attributed to the innermost Python frame that is one of the
case's measured functions or whose module is named after one (the ports are one file per C
function, newlib's functions share kernels/libc.py; helpers shared between files count where
they are called from)."""
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import Tracer
from armsim.kernels.harness import run_case

from conftest import MEASURED_BUILD, expected_output, load_case

DATA = Path(__file__).resolve().parent / "data" / "measured"
CASES = sorted(DATA.glob("*/*.json"))


class _FunctionCounter(Tracer):
    """A tracer that also counts each instruction for the C function it belongs to."""

    def __init__(self, functions):
        self.functions = frozenset(functions)
        self.per_function = Counter()
        super().__init__(limit=10_000_000)

    def _wrap(self, op):
        recorded = super()._wrap(op)
        per_function, functions = self.per_function, self.functions

        def counted(m, *operands):
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_name not in functions and \
                    frame.f_globals.get("__name__", "").rpartition(".")[2] not in functions:
                frame = frame.f_back
            name = "?" if frame is None else (
                frame.f_code.co_name if frame.f_code.co_name in functions
                else frame.f_globals["__name__"].rpartition(".")[2])
            per_function[name] += 1
            return recorded(m, *operands)
        counted.__name__ = recorded.__name__
        return counted


def test_there_is_measured_data():
    """Guards the glob: an empty or renamed directory must fail, not skip."""
    assert len(CASES) >= 20
    assert "fully_connected" in {load_case(p)["family"] for p in CASES}


#: measured functions whose port is not yet read off a disassembly.  newlib's memmove
#: (kernels/libc.py, kept by the conv branch) is a fitted model whose mnemonics are not gcc's
#: and whose short copies are one instruction short: newlib's memmove.o (v7e-m and v7-m) runs
#: SVDF's unaligned forward state shift in 4 n + 14 instructions for n >= 16, 4 n + 12 below.
#: The other functions of such a case are held exactly; the histogram and memmove's own count
#: are a strict xfail until memmove is transcribed.
NOT_TRANSCRIBED = frozenset({"memmove"})


class NotTranscribed(AssertionError):
    """A difference that a NOT_TRANSCRIBED function of the case may account for."""


def _case_param(path):
    if any(f'"{name}"' in path.read_text() for name in NOT_TRANSCRIBED):
        return pytest.param(path, id=path.stem, marks=pytest.mark.xfail(
            strict=True, raises=NotTranscribed,
            reason="newlib memmove (kernels/libc.py) is not transcribed yet"))
    return pytest.param(path, id=path.stem)


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", [_case_param(p) for p in CASES])
def test_counts_equal_the_compiled_code(file, path):
    case = load_case(file)
    measured = case["measured"][MEASURED_BUILD[path]]
    tracer = _FunctionCounter(measured["functions"])
    result = run_case(case, path, function=case["function"], tracer=tracer)
    np.testing.assert_array_equal(result.output, expected_output(case).ravel())
    failed = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    assert machine.counter(result.m, machine.IT_FAILED) == failed
    per_function = dict(tracer.per_function)
    assert {f: n for f, n in per_function.items() if f not in NOT_TRANSCRIBED} == \
        {f: n for f, n in measured["functions"].items() if f not in NOT_TRANSCRIBED}
    counts = {mn: n for mn, n in result.counts().items() if n}
    histogram = measured["mnemonic_histogram"]
    wrong = {mn: (counts.get(mn, 0), histogram.get(mn, 0)) for mn in set(counts) | set(histogram)
             if counts.get(mn, 0) != histogram.get(mn, 0)}
    if wrong or per_function != measured["functions"]:
        pending = NOT_TRANSCRIBED & set(measured["functions"])
        raise (NotTranscribed if pending else AssertionError)(
            f"mnemonics (armsim, measured) {wrong}; functions {per_function} vs "
            f"{measured['functions']}")
