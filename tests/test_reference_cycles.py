"""Cortex-M4 cycles against the measured firmware's `cycles_trm`.

../shared/reference/README.md prices each measured run with the Cortex-M4 TRM table, the
same table as `armsim.cores.CORTEX_M4`; the part a histogram does not fix is which single
loads follow a single load (pipelined, 1 cycle instead of 2).  armsim counts that from the
order the ports issue their ops, so this checks that the ports' hot loops keep gcc -O2's
order of loads and ALU/multiply ops.  Parametrised over ../shared/reference/*.json: a new
file there is a new test.

Charged in `cycles_trm` but not (yet) in armsim's runs: one cycle per IT-block instruction
whose condition failed (armsim/cores.py prices them as `condition_failed`, but the ports do
not issue them yet), and no pipelining when a load's base register is the previous load's
destination (not modelled).  Those, with the per-mnemonic counts' own small differences,
keep two cases outside 10%:

* add_1000: the measured code charges 5,265 (dsp) / 7,118 (scalar) failed-IT cycles (5-7%),
  its instruction mix costs 5-8% more than the port's, and the scalar element loop's 19
  stack reloads pipeline with each other more often in armsim than in gcc's schedule;
* maxpool2x2_s2_8x8x16: 856 / 913 failed-IT cycles (7%) plus 4-5% in the counts.
"""
import json

import pytest

from armsim import cores
from kernels.harness import run_case

from conftest import REFERENCE

BUILD = {"simd": "dsp_O2", "scalar": "scalar_O2"}
CASES = sorted(REFERENCE.glob("*.json"))
TOLERANCE = 0.10
#: wider bounds for the cases named in the module docstring
WIDER = {("add_1000", "simd"): 0.16, ("add_1000", "scalar"): 0.18,
         ("maxpool2x2_s2_8x8x16", "simd"): 0.14, ("maxpool2x2_s2_8x8x16", "scalar"): 0.14}


def test_the_directory_holds_reference_cases():
    assert len(CASES) >= 16


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", CASES, ids=lambda p: p.stem)
def test_m4_cycles_against_cycles_trm(file, path):
    case = json.loads(file.read_text())
    measured = case["measured"][BUILD[path]]["cycles_trm"]
    ours = cores.cycles(run_case(case, path).m, "cortex-m4")
    bound = WIDER.get((file.stem, path), TOLERANCE)
    assert abs(ours - measured) <= bound * measured, \
        f"{file.stem} {path}: armsim {ours} vs cycles_trm {measured} ({100 * (ours / measured - 1):+.1f}%)"
