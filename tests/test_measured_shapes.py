"""Seeded random and hand-picked shapes measured on the real kernels (tests/data/measured/
<family>/*.json: CMSIS-NN 99f736a built by arm-none-eabi-gcc 12.2 -O2 for Cortex-M4 with
ARM_MATH_DSP and for Cortex-M3, run on emulated cores by tools/measure; each file says how it
was generated in `source`).  armsim's run of each case, simd against dsp_O2 and scalar against
scalar_O2, must execute what the compiled code executed: the same count of every mnemonic,
of instructions in every function, of IT-block instructions whose condition failed, and the
same output.  One test per file and path: a new file there is a new test."""
import json
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.kernels.harness import run_case

from conftest import MEASURED_BUILD, expected_output
from function_counts import FunctionCounter

MEASURED = Path(__file__).parent / "data" / "measured"
FILES = sorted(MEASURED.glob("*/*.json"))


def test_the_directory_holds_measured_cases():
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_counts_equal_the_measured_kernel(file, path):
    case = json.loads(file.read_text())
    measured = case["measured"][MEASURED_BUILD[path]]
    counter = FunctionCounter(measured["functions"])
    result = run_case(case, path, tracer=counter)
    np.testing.assert_array_equal(result.output, expected_output(case))
    assert result.counts() == measured["mnemonic_histogram"]
    assert dict(counter.counts) == measured["functions"]
    failed = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    assert machine.counter(result.m, machine.IT_FAILED) == failed
