"""Convolution: arm_convolve_wrapper_s8 and the kernels it dispatches to.

`run_cmsis(m, case, addr, function, tracer)` calls `function` (None or
'arm_convolve_wrapper_s8': the wrapper; or one of the leaf entry points, as the unit tests
and the measured `functions_validated` do) and returns the kernel chain actually taken,
decided inside the kernels, e.g. ['arm_convolve_wrapper_s8', 'arm_convolve_1x1_s8_fast',
'arm_nn_mat_mult_nt_t_s8'].
"""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_convolve_1x1_s8_fast as fast_mod
from armsim.kernels.cmsis_nn import arm_convolve_s8 as conv_mod
from armsim.kernels.cmsis_nn import arm_convolve_wrapper_s8 as wrapper_mod
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_convolve_1_x_n_s8 import arm_convolve_1_x_n_s8
from armsim.kernels.cmsis_nn.arm_convolve_1x1_s8 import arm_convolve_1x1_s8
from armsim.kernels.cmsis_nn.arm_convolve_1x1_s8_fast import arm_convolve_1x1_s8_fast
from armsim.kernels.cmsis_nn.arm_convolve_get_buffer_sizes_s8 import buffer_size_for
from armsim.kernels.cmsis_nn.arm_convolve_s8 import arm_convolve_s8
from armsim.kernels.cmsis_nn.arm_convolve_wrapper_s8 import call_convolve_wrapper_s8
from armsim.errors import CaseError
from armsim.kernels import oracle
from armsim.kernels.tflm.conv import run_reference  # noqa: F401 (the reference path)

WRAPPER = "arm_convolve_wrapper_s8"
FUNCTIONS = (WRAPPER, "arm_convolve_s8", "arm_convolve_1x1_s8_fast", "arm_convolve_1x1_s8",
             "arm_convolve_1_x_n_s8")
_LEAF_NAME = {wrapper_mod.LEAF_1X1_FAST: "arm_convolve_1x1_s8_fast",
              wrapper_mod.LEAF_1X1: "arm_convolve_1x1_s8",
              wrapper_mod.LEAF_1_X_N: "arm_convolve_1_x_n_s8",
              wrapper_mod.LEAF_CONVOLVE: "arm_convolve_s8"}
_GEMM_NAME = {conv_mod.GEMM_S8_S16: "arm_nn_mat_mult_kernel_s8_s16",
              conv_mod.GEMM_ROW_OFFSET: "arm_nn_mat_mult_kernel_row_offset_s8_s16"}
_LEAF = {"arm_convolve_1_x_n_s8": arm_convolve_1_x_n_s8,
         "arm_convolve_1x1_s8_fast": arm_convolve_1x1_s8_fast}
_STATUS = {-1: "ARM_CMSIS_NN_ARG_ERROR", -2: "ARM_CMSIS_NN_NO_IMPL_ERROR"}
_FAST_NAME = {fast_mod.VIA_MAT_MULT_NT_T: "arm_nn_mat_mult_nt_t_s8",
              fast_mod.VIA_MAT_MULT_KERNEL: "arm_nn_mat_mult_kernel_s8_s16"}


def buffer_size(case, dsp, armclang, function=None):
    """The scratch size the caller of `function` (default: the wrapper) asks for."""
    return buffer_size_for(function, case["conv_params"], case["input_dims"],
                           case["filter_dims"], case["output_dims"], dsp, armclang)


def _args(case, addr):
    """The C API's arguments (ctx, conv_params, quant_params, input_dims, input_data,
    filter_dims, filter_data, bias_data, output_dims, output_data) as `arm_nn_types`
    structs and simulated addresses."""
    return (types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
            types.conv_params(case["conv_params"]),
            types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
            types.dims(case["input_dims"]), int(addr["input"]),
            types.dims(case["filter_dims"]), int(addr["weights"]), int(addr["bias"]),
            types.dims(case["output_dims"]), int(addr["output"]))


def _leaf_chain(leaf, detail):
    if leaf == "arm_convolve_1x1_s8_fast":
        return [leaf, _FAST_NAME[detail]]
    if leaf == "arm_convolve_1x1_s8":
        return [leaf, "arm_nn_mat_mult_nt_t_s8"]
    if leaf == "arm_convolve_1_x_n_s8":
        return [leaf, "arm_convolve_s8"] + ([_GEMM_NAME[detail]] if detail in _GEMM_NAME else [])
    return [leaf] + ([_GEMM_NAME[detail]] if detail in _GEMM_NAME else [])


def run_cmsis(m, case, addr, function, tracer):
    name = case.get("case", "?")
    if function is None:
        function = WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"{name}: {function} is not a convolution entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    need = buffer_size(case, m.dsp, m.armclang, function)
    if addr["scratch_bytes"] < need:
        raise CaseError(f"{name}: {function} needs a {need}-byte buffer, the case was given "
                        f"{addr['scratch_bytes']} (sized for the wrapper)")
    args = _args(case, addr)
    if function == WRAPPER:
        status, leaf, detail = call_convolve_wrapper_s8(m, *args, tracer=tracer)
        chain = [WRAPPER] + _leaf_chain(_LEAF_NAME[leaf], detail)
    elif function == "arm_convolve_1x1_s8":
        status = run(arm_convolve_1x1_s8, m, *args, tracer=tracer)
        chain = _leaf_chain(function, 0)
    elif function == "arm_convolve_s8":                   # upscale_dims = NULL
        status, detail = run(arm_convolve_s8, m, *args[:8], types.NULL_DIMS, *args[8:],
                             tracer=tracer)
        chain = _leaf_chain(function, detail)
    else:
        status, detail = run(_LEAF[function], m, *args, tracer=tracer)
        chain = _leaf_chain(function, detail)
    if status != 0:
        raise CaseError(f"{name}: {function} returned {_STATUS.get(status, status)} for these "
                        f"parameters")
    return chain


ORACLE = oracle.conv
