"""Element-wise add: arm_elementwise_add_s8 (no scratch buffer)."""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_elementwise_add_s8 import arm_elementwise_add_s8
from armsim.errors import CaseError
from armsim.kernels import oracle
from armsim.kernels.tflm.elementwise_add import run_reference  # noqa: F401 (the reference path)

FUNCTION = "arm_elementwise_add_s8"


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTION):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an element-wise add entry "
                        f"point (use {FUNCTION})")
    c = case
    run(arm_elementwise_add_s8, m, addr["input"], addr["input2"], c["input_1_offset"],
        c["input_1_mult"], c["input_1_shift"], c["input_2_offset"], c["input_2_mult"],
        c["input_2_shift"], c["left_shift"], addr["output"], c["out_offset"], c["out_mult"],
        c["out_shift"], c["out_activation_min"], c["out_activation_max"], c["block_size"],
        tracer=tracer)
    return [FUNCTION]


ORACLE = oracle.elementwise_add


def output_count(case):
    return case["block_size"]
