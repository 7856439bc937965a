"""Transpose: arm_transpose_s8 (no scratch buffer); rank 1 to 4 as the case's num_dims."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_transpose_s8 import arm_transpose_s8
from armsim.errors import CaseError
from armsim.kernels.tflm.transpose import run_reference, shapes  # noqa: F401 (reference path)

FUNCTIONS = ("arm_transpose_s8",)


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return int(np.prod(shapes(case)[0]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTIONS[0]):
        raise CaseError(f"{case.get('case', '?')}: {function} is not a transpose entry point "
                        f"(use {FUNCTIONS[0]})")
    i, o, p = case["input_dims"], case["output_dims"], case["transpose_params"]
    perm = (list(p["permutations"]) + [0, 0, 0, 0])[:4]
    status = run(arm_transpose_s8, m, addr["input"], addr["output"], i["n"], i["h"], i["w"],
                 i["c"], o["n"], o["h"], o["w"], o["c"], p["num_dims"], *perm, tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: arm_transpose_s8 returned "
                        f"ARM_CMSIS_NN_ARG_ERROR (permutation {p['permutations']})")
    return [FUNCTIONS[0]]


def ORACLE(case):
    """numpy: output dimension k is input dimension perm[k]."""
    shape, perm = shapes(case)
    return np.transpose(np.asarray(case["input"], np.int8).reshape(shape), perm).ravel()
