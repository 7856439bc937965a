"""Seeded random and hand-picked shapes measured on the real kernels (tests/data/measured/
<dir>/*.json: CMSIS-NN 99f736a built by arm-none-eabi-gcc 12.2 -O2 for Cortex-M4 with
ARM_MATH_DSP and for Cortex-M3, run on emulated cores by tools/measure; each file says how it
was generated in `source`).  armsim's run of each case, simd against dsp_O2 and scalar against
scalar_O2, must execute what the compiled code executed: the same count of every mnemonic, of
instructions in every function, of IT-block instructions whose condition failed, and the same
output (the functions that ran are in the per-function counts).  One test per file and path: a new file there is a new test.

../shared/reference's cases (the same builds; its README) join them: those of a transcribed
family are held to the same equality (less what the README's erratum says a run did not
count, conftest.UNCOUNTED); those of a family still pending are held to what its
port promises until it is transcribed, its `Rule` (instructions within a tolerance, the DSP
MACs and the mnemonics the port does transcribe counted exactly, no DSP instruction on the M3).

Families whose ports are not yet transcribed from gcc's output (issue 25) are listed in
NOT_YET_TRANSCRIBED: their cases are strict xfails, so a family that becomes exact fails here
until it leaves the list."""
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.instructions import CLASS_OF

from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case

from conftest import (MEASURED_BUILD, REFERENCE, UNCOUNTED, expected_output, load_case,
                      shared_cases)
from function_counts import function_counts

DATA = Path(__file__).resolve().parents[1] / "data" / "measured"
CASES = sorted(DATA.glob("*/*.json"))
#: ../shared/reference's cases not already copied, with more builds, under DATA/shared_reference
SHARED = [f for f in shared_cases(REFERENCE)
          if not (DATA / "shared_reference" / f.name).exists()]

_FITTED = "the port still issues calibrated (fitted) bookkeeping, not gcc's instructions"
#: family -> why its counts still differ from the compiled code (issue 25)
NOT_YET_TRANSCRIBED = {
    **dict.fromkeys(("conv_s4", "depthwise_conv_s4", "elementwise_add", "elementwise_add_s16",
                     "maximum", "minimum", "transpose", "transpose_conv"), _FITTED),
    "svdf_state_s16": _FITTED + " (arm_svdf_state_s16_s8; its memmove is newlib's code)",
}
#: (family, path) -> the case-name prefix of a NOT_YET_TRANSCRIBED family's cases that are
#: exact already (arm_transpose_s8's 4-D loop equals gcc's DSP code; its other ranks do not;
#: arm_transpose_conv_wrapper_s8's reverse path runs transcribed code only)
EXACT_ALREADY = {("transpose", "simd"): "transpose_4d_",
                 **dict.fromkeys((("transpose_conv", "simd"), ("transpose_conv", "scalar")),
                                 "transpose_conv_reverse_")}
#: measured function -> why a case that runs it still differs (the case's other functions
#: are transcribed)
FUNCTIONS_NOT_YET_TRANSCRIBED = {}


def test_the_directories_hold_measured_cases():
    assert len(CASES) >= 30 and len(SHARED) >= 30


def _pending(case, path):
    """Why `case`'s counts on `path` still differ from the measured build's, or None."""
    exact_already = case["case"].startswith(EXACT_ALREADY.get((case["family"], path), "\0"))
    return (not exact_already and NOT_YET_TRANSCRIBED.get(case["family"])) or next(
        (why for f, why in FUNCTIONS_NOT_YET_TRANSCRIBED.items()
         if f in case["measured"][MEASURED_BUILD[path]]["functions"]), None)


def _measured_paths(files, pending):
    """(file, path) for every CMSIS-NN build a file measured (a file may hold only TFLM's
    reference build, ref_O2) whose case is pending (True), not (False) or either (None)."""
    for file in files:
        case = load_case(file)
        for path, build in MEASURED_BUILD.items():
            if build in case["measured"] and pending in (None, bool(_pending(case, path))):
                yield pytest.param(file, path, id=f"{file.parent.name}/{file.stem}-{path}")


@pytest.mark.parametrize("file,path", list(_measured_paths(CASES, None))
                         + list(_measured_paths(SHARED, False)))
def test_counts_equal_the_measured_build(file, path, request):
    case = load_case(file)
    pending = _pending(case, path)
    if pending:
        request.applymarker(pytest.mark.xfail(reason=pending, strict=True))
    build = MEASURED_BUILD[path]
    measured = case["measured"][build]
    result, functions = function_counts(case, path)
    np.testing.assert_array_equal(result.output, expected_output(case))
    uncounted = UNCOUNTED.get((file.stem, path), {})
    counts = {mn: n - uncounted.get("mnemonics", {}).get(mn, 0)
              for mn, n in result.counts().items()}
    functions.pop(uncounted.get("function"), None)
    hist = measured["mnemonic_histogram"]
    assert {mn: n for mn, n in counts.items() if n} == hist, \
        {mn: (counts.get(mn, 0), hist.get(mn, 0)) for mn in set(counts) | set(hist)
         if counts.get(mn, 0) != hist.get(mn, 0)}
    assert functions == measured["functions"]
    failed = measured["instructions_incl_condition_failed_it"] - measured["instructions"]
    assert machine.counter(result.m, machine.IT_FAILED) == failed


@dataclass(frozen=True)
class Rule:
    """What a pending family's port reproduces of ../shared/reference's cases."""
    tolerance: float = 0.05     # |instructions / measured instructions - 1|
    exact: tuple = ()           # mnemonics counted exactly, besides SIMD_MNEMONICS
    all_but: tuple = None       # or every mnemonic but these
    chain: int = None           # the first `chain` functions of the measured chain (None: all)


#: the DSP extension's MAC and unpacking instructions: every port counts them exactly
SIMD_MNEMONICS = ("smlad", "sxtb16", "sxtab16", "pkhbt")
S16_MACS = ("pkhtb", "smlal", "umull", "strh", "bl")
#: family -> its port's promise (default: `Rule()`); the `exact` mnemonics are the C's own
#: work, not fitted bookkeeping
RULES = {
    "elementwise_add": Rule(tolerance=0.10),
    "elementwise_add_s16": Rule(exact=("smlal", "uxth", "asr", "lsr", "orr", "strh")),
    "transpose_conv": Rule(exact=("smlal", "strb", "bl", "sdiv")),
}


PENDING_SHARED = list(_measured_paths(SHARED, True))


def test_rules_are_for_pending_families():
    """A family that became exact leaves RULES with NOT_YET_TRANSCRIBED."""
    assert set(RULES) <= {load_case(p.values[0])["family"] for p in PENDING_SHARED}


@pytest.mark.parametrize("file,path", PENDING_SHARED)
def test_pending_ports_keep_their_rule(file, path):
    case = load_case(file)
    rule = RULES.get(case["family"], Rule())
    measured = case["measured"][MEASURED_BUILD[path]]
    result = run_case(case, Build(path))
    np.testing.assert_array_equal(result.output, expected_output(case))
    assert result.kernel_path[:rule.chain] == measured["kernel_chain"][:rule.chain]
    want = measured["instructions"]
    assert abs(result.instructions - want) <= rule.tolerance * want, \
        (result.instructions, want, f"{result.instructions / want - 1:+.2%}")
    counts, hist = result.counts(), measured["mnemonic_histogram"]
    exact = SIMD_MNEMONICS + rule.exact if rule.all_but is None else \
        sorted((set(counts) | set(hist)) - set(rule.all_but))
    for mnemonic in exact:
        assert counts.get(mnemonic, 0) == hist.get(mnemonic, 0), mnemonic
    if path == "scalar":                        # the Cortex-M3 build has no DSP instruction
        assert not [mn for mn in counts if CLASS_OF[mn] in ("dspmac", "simd")], counts
