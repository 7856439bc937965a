"""Max pooling: arm_max_pool_s8 (no scratch buffer)."""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_max_pool_s8 import arm_max_pool_s8
from armsim.kernels.families.avgpool import pool_args
from armsim.errors import CaseError
from armsim.kernels import oracle
from armsim.kernels.tflm.maxpool import run_reference  # noqa: F401 (the reference path)

FUNCTION = "arm_max_pool_s8"


def buffer_size(case, dsp, armclang):
    return 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTION):
        raise CaseError(f"{case.get('case', '?')}: {function} is not a max pooling entry point "
                        f"(use {FUNCTION})")
    status = run(arm_max_pool_s8, m, *pool_args(case, addr), tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: arm_max_pool_s8 returned ARM_CMSIS_NN_ARG_ERROR")
    return [FUNCTION]


ORACLE = oracle.maxpool
