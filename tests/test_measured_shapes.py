"""Seeded random and hand-picked shapes measured on the real kernels (tests/data/measured/
<dir>/*.json: CMSIS-NN 99f736a built by arm-none-eabi-gcc 12.2 -O2 for Cortex-M4 with
ARM_MATH_DSP and for Cortex-M3, run on emulated cores by tools/measure; each file says how it
was generated in `source`).  armsim's run of each case, simd against dsp_O2 and scalar against
scalar_O2, must execute what the compiled code executed: the same count of every mnemonic, of
instructions in every function, of IT-block instructions whose condition failed, and the same
output (the functions that ran are in the per-function counts).  One test per file and path: a new file there is a new test.

Families whose ports are not yet transcribed from gcc's output (issue 25) are listed in
NOT_YET_TRANSCRIBED: their cases are strict xfails, so a family that becomes exact fails here
until it leaves the list."""
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine

from conftest import MEASURED_BUILD, expected_output, load_case
from function_counts import function_counts

DATA = Path(__file__).resolve().parent / "data" / "measured"
CASES = sorted(DATA.glob("*/*.json"))

#: family -> why its counts still differ from the compiled code (issue 25)
NOT_YET_TRANSCRIBED = {}
#: measured function -> why a case that runs it still differs (the case's other functions
#: are transcribed)
FUNCTIONS_NOT_YET_TRANSCRIBED = {
    "memmove": "newlib's memmove (kernels/libc.py) is a fitted model, not gcc's code: "
               "newlib's memmove.o runs SVDF's unaligned forward state shift in 4 n + 14 "
               "instructions for n >= 16, 4 n + 12 below, with other mnemonics",
}


def test_the_directory_holds_measured_cases():
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_counts_equal_the_measured_build(file, path, request):
    case = load_case(file)
    pending = NOT_YET_TRANSCRIBED.get(case["family"]) or next(
        (why for f, why in FUNCTIONS_NOT_YET_TRANSCRIBED.items()
         if f in case["measured"][MEASURED_BUILD[path]]["functions"]), None)
    if pending:
        request.applymarker(pytest.mark.xfail(reason=pending, strict=True))
    build = MEASURED_BUILD[path]
    measured = case["measured"][build]
    result, functions = function_counts(case, path)
    np.testing.assert_array_equal(result.output, expected_output(case))
    counts = result.counts()
    hist = measured["mnemonic_histogram"]
    assert {mn: n for mn, n in counts.items() if n} == hist, \
        {mn: (counts.get(mn, 0), hist.get(mn, 0)) for mn in set(counts) | set(hist)
         if counts.get(mn, 0) != hist.get(mn, 0)}
    assert functions == measured["functions"]
    failed = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    assert machine.counter(result.m, machine.IT_FAILED) == failed
