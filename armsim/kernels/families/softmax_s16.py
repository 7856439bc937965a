"""Softmax, int16 in / int16 out: arm_softmax_s16 with the exp and 1/(1 + x) lookup tables
(513 int16 entries each) that TFLM's Prepare generates (kernels/tflm/softmax_s16.py
`softmax_luts`) and keeps in the persistent arena; no scratch buffer."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_nn_types import SoftmaxLutS16
from armsim.kernels.cmsis_nn.arm_softmax_s16 import arm_softmax_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import softmax_s16
from armsim.kernels.tflm.softmax_s16 import run_reference_s16 as run_reference  # noqa: F401

FUNCTIONS = ("arm_softmax_s16",)
ARRAYS = {"input": ("sram", np.int16), "exp_lut": ("sram", np.int16),
          "one_by_one_lut": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16
ORACLE = softmax_s16


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return case["num_rows"] * case["row_size"]


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 softmax entry "
                        f"point (use {FUNCTIONS[0]})")
    run(arm_softmax_s16, m, addr["input"], case["num_rows"], case["row_size"], case["mult"],
        case["shift"], SoftmaxLutS16(addr["exp_lut"], addr["one_by_one_lut"]), addr["output"],
        tracer=tracer)
    return list(FUNCTIONS)
