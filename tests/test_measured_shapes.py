"""Random and edge-case shapes measured on the real kernels (tests/data/measured/<dir>/*.json,
written by tools/measure from gcc 12.2 -O2's M4 and M3 builds): the ports execute what the
compiled code executed.  Per case and build: the per-mnemonic histogram, the instructions
per function, the IT-block instructions whose condition failed, the kernel chain and the
output, all equal.  A new file there is a new test."""
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.kernels.cmsis_nn import arm_q7_to_q15_with_offset as q7_to_q15
from conftest import MEASURED_BUILD, expected_output, load_case
from function_counts import function_counts

DATA = Path(__file__).resolve().parent / "data" / "measured"
CASES = sorted(DATA.glob("*/*.json"))


def test_there_is_measured_data():
    assert len(list(DATA.glob("depthwise_port/*.json"))) >= 30


def _pending(case, build):
    """The reason a case cannot be equal yet, or None: arm_q7_to_q15_with_offset is
    transcribed on the convolution port's branch (the lead merges it)."""
    if "arm_q7_to_q15_with_offset" in case["measured"][build]["functions"] \
            and build == "dsp_O2" and not hasattr(q7_to_q15, "DISASSEMBLED"):
        return "arm_q7_to_q15_with_offset (dsp_O2) is not transcribed on this branch"
    return None


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_counts_equal_the_measured_build(file, path, request):
    case = load_case(file)
    build = MEASURED_BUILD[path]
    pending = _pending(case, build)
    if pending:
        request.applymarker(pytest.mark.xfail(reason=pending, strict=True))
    measured = case["measured"][build]
    result, functions = function_counts(case, path)
    np.testing.assert_array_equal(result.output, expected_output(case))
    assert result.kernel_path == measured["kernel_chain"]
    counts = result.counts()
    hist = measured["mnemonic_histogram"]
    assert {mn: n for mn, n in counts.items() if n} == hist, \
        {mn: (counts.get(mn, 0), hist.get(mn, 0)) for mn in set(counts) | set(hist)
         if counts.get(mn, 0) != hist.get(mn, 0)}
    assert functions == measured["functions"]
    failed = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    assert machine.counter(result.m, machine.IT_FAILED) == failed
