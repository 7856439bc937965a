"""Average pooling: arm_avgpool_s8 (scratch: arm_avgpool_s8_get_buffer_size)."""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_avgpool_get_buffer_sizes_s8 import buffer_size_host
from armsim.kernels.cmsis_nn.arm_avgpool_s8 import arm_avgpool_s8
from armsim.errors import CaseError
from armsim.kernels import oracle
from armsim.kernels.tflm.avgpool import run_reference  # noqa: F401 (the reference path)

FUNCTION = "arm_avgpool_s8"


def buffer_size(case, dsp, armclang):
    return buffer_size_host(case["output_dims"]["w"], case["input_dims"]["c"], dsp)


def pool_args(case, addr):
    """The C API's arguments (ctx, pool_params, input_dims, src, filter_dims, output_dims,
    dst) of both int8 pooling kernels, as `arm_nn_types` structs and simulated addresses."""
    return (types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
            types.pool_params(case["pool_params"]), types.dims(case["input_dims"]),
            int(addr["input"]), types.dims(case["filter_dims"]), types.dims(case["output_dims"]),
            int(addr["output"]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTION):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an average pooling entry "
                        f"point (use {FUNCTION})")
    status = run(arm_avgpool_s8, m, *pool_args(case, addr), tracer=tracer)
    if status != 0:
        raise CaseError(f"{case.get('case', '?')}: arm_avgpool_s8 returned ARM_CMSIS_NN_ARG_ERROR")
    return [FUNCTION]


ORACLE = oracle.avgpool
