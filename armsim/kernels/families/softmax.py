"""Softmax: arm_softmax_s8 -> arm_nn_softmax_common_s8 (no scratch buffer)."""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_nn_softmax_common_s8 import arm_nn_softmax_common_s8
from armsim.kernels.cmsis_nn.arm_softmax_s8 import arm_softmax_s8
from armsim.errors import CaseError
from armsim.kernels import oracle
from armsim.kernels.tflm.softmax import run_reference  # noqa: F401 (the reference path)

FUNCTIONS = ("arm_softmax_s8", "arm_nn_softmax_common_s8")


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function is None:
        function = "arm_softmax_s8"
    if function not in FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not a softmax entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    args = (addr["input"], case["num_rows"], case["row_size"], case["mult"], case["shift"],
            case["diff_min"])
    if function == "arm_softmax_s8":
        run(arm_softmax_s8, m, *args, addr["output"], tracer=tracer)
        return ["arm_softmax_s8", "arm_nn_softmax_common_s8"]
    run(arm_nn_softmax_common_s8, m, *args, False, addr["output"], tracer=tracer)
    return ["arm_nn_softmax_common_s8"]


ORACLE = oracle.softmax


def output_count(case):
    return case["num_rows"] * case["row_size"]
