"""Pad: arm_pad_s8 (no scratch buffer); 4-D input_dims, pre_pad, post_pad, pad_value."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_pad_s8 import arm_pad_s8
from armsim.errors import CaseError
from armsim.kernels.tflm.pad import run_reference  # noqa: F401 (the reference path)

FUNCTIONS = ("arm_pad_s8",)
DIMS = "nhwc"


def buffer_size(case, dsp, armclang):
    return 0


def output_shape(case):
    return [case["input_dims"][k] + case["pre_pad"][k] + case["post_pad"][k] for k in DIMS]


def output_count(case):
    return int(np.prod(output_shape(case)))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTIONS[0]):
        raise CaseError(f"{case.get('case', '?')}: {function} is not a pad entry point "
                        f"(use {FUNCTIONS[0]})")
    run(arm_pad_s8, m, addr["input"], addr["output"], case["pad_value"],
        types.dims(case["input_dims"]), types.dims(case["pre_pad"]), types.dims(case["post_pad"]),
        tracer=tracer)
    return [FUNCTIONS[0]]


def ORACLE(case):
    """numpy.pad with the constant pad value."""
    shape = [case["input_dims"][k] for k in DIMS]
    widths = [(case["pre_pad"][k], case["post_pad"][k]) for k in DIMS]
    x = np.asarray(case["input"], np.int8).reshape(shape)
    return np.pad(x, widths, constant_values=case["pad_value"]).ravel()
