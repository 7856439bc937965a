"""Every family against what CMSIS-NN really executed: each ../shared/reference case (the
family's C compiled by gcc 12.2 -O2 and run on an emulated Cortex-M4 and Cortex-M3; its
README) on the simd and scalar builds must write output_ref, take the measured kernel
chain, come within its family's tolerance of the measured instruction total, issue the
mnemonics its port transcribes exactly as often as measured, and, built for the M3, no DSP
instruction at all.  A new family's measured cases join by themselves under the default
rule; a family whose port promises more (or less) has a row in RULES."""
from dataclasses import dataclass

import numpy as np
import pytest

from armsim.cpu.instructions import CLASS_OF
from armsim.pipeline.build import Build
from armsim.pipeline.harness import run_case

from conftest import REFERENCE, expected_output, load_case, shared_cases

#: the DSP extension's MAC and unpacking instructions: every port counts them exactly
SIMD_MNEMONICS = ("smlad", "sxtb16", "sxtab16", "pkhbt")


@dataclass(frozen=True)
class Rule:
    """What a family's port reproduces of its measured cases."""
    tolerance: float = 0.05     # |instructions / measured instructions - 1|
    exact: tuple = ()           # mnemonics counted exactly, besides SIMD_MNEMONICS
    all_but: tuple = None       # or every mnemonic but these (a port read off the disassembly)
    chain: int = None           # the first `chain` functions of the measured chain (None: all)


S16_MACS = ("pkhtb", "smlal", "umull", "strh", "bl")
#: beyond SIMD_MNEMONICS, the `exact` mnemonics are the C's own work (no fitted bookkeeping)
RULES = {
    "conv": Rule(tolerance=0.10),
    "depthwise_conv": Rule(tolerance=0.10, exact=("push", "pop", "bl")),
    "fully_connected": Rule(tolerance=0.10),
    "avgpool": Rule(tolerance=0.10),
    "maxpool": Rule(tolerance=0.10),
    "softmax": Rule(tolerance=0.10),
    "elementwise_add": Rule(tolerance=0.10),
    "conv_s16": Rule(exact=S16_MACS),
    "depthwise_conv_s16": Rule(exact=S16_MACS),
    "fully_connected_s16": Rule(exact=S16_MACS),
    "fully_connected_s4": Rule(exact=("ror", "ldrh", "bfi", "uxtb", "smlal", "strb", "bl", "mla",
                                      "ldrsb", "sbfx")),
    "elementwise_add_s16": Rule(exact=("smlal", "uxth", "asr", "lsr", "orr", "strh")),
    "elementwise_mul_s16": Rule(exact=("smlal", "smulbb", "smultt", "mul", "uxth")),
    "avgpool_s16": Rule(exact=("ldrsh", "strh", "qadd", "sdiv", "udiv")),
    "maxpool_s16": Rule(exact=("bfi", "sxth", "asr", "bl", "bx")),
    "softmax_s16": Rule(exact=("ldrsh", "strh", "smlal", "sbfx", "uxth", "smulbb")),
    "transpose_conv": Rule(exact=("smlal", "strb", "bl", "sdiv")),
    # the port's helper chain differs from the measured objects' inlining below the entry
    "svdf": Rule(exact=("smlabb", "smlal", "strb", "ldrb", "bl", "sdiv"), chain=1),
    # transcribed from the measured objects' disassembly, all but the stack traffic exact:
    # gcc's LDM of stacked arguments and LDRB of the activation type are stack-slot LDRs in
    # armsim; a few M3 spills differ in LDR/STR, LDRD/STRD
    "lstm": Rule(tolerance=0.005, all_but=("ldr", "ldm", "ldrb", "str", "ldrd", "strd")),
}
CASES = shared_cases(REFERENCE)


def test_every_family_with_a_rule_has_measured_cases():
    measured = {load_case(f)["family"] for f in CASES}
    assert len(CASES) >= 40 and set(RULES) <= measured, sorted(set(RULES) - measured)


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", CASES, ids=lambda p: p.stem)
def test_counts_against_measured(file, path):
    case = load_case(file)
    rule = RULES.get(case["family"], Rule())
    build = Build(path)
    measured = case["measured"][build.measured_build]
    result = run_case(case, build)
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
    if not build.dsp_extension:                 # the Cortex-M3 build has no DSP instruction
        assert not [mn for mn in counts if CLASS_OF[mn] in ("dspmac", "simd")], counts
