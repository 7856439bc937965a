"""Transpose convolution: arm_transpose_conv_wrapper_s8 and the kernels it dispatches to.

The wrapper takes two contexts: ctx (the rolling int32 buffer of arm_transpose_conv_s8, or
arm_convolve_s8's im2col buffer on the reverse path) and reverse_conv_ctx (the reversed
filter, reverse path only).  Both live in the case's one scratch block: ctx first, the
reverse buffer after it (4-byte aligned), as TFLM's arena places two scratch buffers.
The chain returned is the one the wrapper took, e.g. ['arm_transpose_conv_wrapper_s8',
'arm_transpose_conv_s8', 'arm_nn_transpose_conv_row_s8_s32'] or [..., 'arm_convolve_s8',
'arm_nn_mat_mult_kernel_s8_s16'].
"""
from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_convolve_s8 as conv_mod
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn import arm_transpose_conv_wrapper_s8 as wrapper_mod
from armsim.kernels.cmsis_nn.arm_transpose_conv_get_buffer_sizes_s8 import (
    arm_transpose_conv_s8_get_buffer_size,
    arm_transpose_conv_s8_get_reverse_conv_buffer_size,
)
from armsim.kernels.cmsis_nn.arm_transpose_conv_s8 import arm_transpose_conv_s8
from armsim.kernels.cmsis_nn.arm_transpose_conv_wrapper_s8 import (
    arm_transpose_conv_wrapper_s8,
)
from armsim.errors import CaseError
from armsim.kernels.tflm.transpose_conv import reference_buffer_size, run_reference  # noqa: F401

WRAPPER = "arm_transpose_conv_wrapper_s8"
LEAF = "arm_transpose_conv_s8"
ROW = "arm_nn_transpose_conv_row_s8_s32"
FUNCTIONS = (WRAPPER, LEAF)
_GEMM_NAME = {conv_mod.GEMM_S8_S16: "arm_nn_mat_mult_kernel_s8_s16",
              conv_mod.GEMM_ROW_OFFSET: "arm_nn_mat_mult_kernel_row_offset_s8_s16"}


def _ctx_bytes(case):
    p, i, f, o = (case["transpose_conv_params"], case["input_dims"], case["filter_dims"],
                  case["output_dims"])
    return arm_transpose_conv_s8_get_buffer_size(p, i, f, o)


def _reverse_bytes(case):
    return arm_transpose_conv_s8_get_reverse_conv_buffer_size(
        case["transpose_conv_params"], case["input_dims"], case["filter_dims"])


def buffer_sizes(case):
    """(ctx bytes, reverse_conv_ctx bytes): TFLM's Prepare requests one scratch buffer each."""
    return _ctx_bytes(case), _reverse_bytes(case)


def buffer_size(case, dsp, armclang):
    """Both buffers in one block: ctx rounded up to a word, then the reversed filter."""
    ctx, rev = buffer_sizes(case)
    return (ctx + 3) // 4 * 4 + rev


def run_cmsis(m, case, addr, function, tracer):
    name = case.get("case", "?")
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"{name}: {function} is not a transpose convolution entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    p, i, f, o = (case["transpose_conv_params"], case["input_dims"], case["filter_dims"],
                  case["output_dims"])
    if p["dilation"]["h"] != 1 or p["dilation"]["w"] != 1:
        raise CaseError(f"{name}: transpose convolution takes no dilation (got "
                        f"{p['dilation']['h']}x{p['dilation']['w']})")
    ctx, rev = buffer_sizes(case)
    buf = addr["scratch"] if ctx else 0
    reverse_buf = addr["scratch"] + (ctx + 3) // 4 * 4 if rev else 0
    act = p["activation"]
    args = (i["n"], i["w"], i["h"], i["c"], f["w"], f["h"], o["w"], o["h"], o["c"],
            p["padding"]["w"], p["padding"]["h"], p["stride"]["w"], p["stride"]["h"],
            p["output_offset"], p["input_offset"], act["min"], act["max"], addr["input"],
            addr["weights"], addr["bias"], addr["output_mult"], addr["output_shift"],
            addr["output"])
    if function == WRAPPER:
        status, leaf, gemm = run(
            arm_transpose_conv_wrapper_s8, m, types.Context(int(buf), int(ctx)),
            types.Context(int(reverse_buf), int(rev)), types.transpose_conv_params(p),
            types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
            types.dims(i), int(addr["input"]), types.dims(f), int(addr["weights"]),
            int(addr["bias"]), types.dims(o), int(addr["output"]), tracer=tracer)
        if leaf == wrapper_mod.LEAF_CONVOLVE:
            chain = [WRAPPER, "arm_convolve_s8"] + ([_GEMM_NAME[gemm]] if gemm in _GEMM_NAME
                                                   else [])
        else:
            chain = [WRAPPER, LEAF, ROW]
    else:
        need = (((i["w"] - 1) * p["stride"]["w"] + max(f["w"], p["stride"]["w"])) * o["c"]
                * max(f["h"], p["stride"]["h"]) * 4)
        if addr["scratch_bytes"] < need:
            raise CaseError(f"{name}: {LEAF} needs a {need}-byte buffer, the case was given "
                            f"{addr['scratch_bytes']} (sized for the wrapper)")
        status = run(arm_transpose_conv_s8, m, buf, *args, tracer=tracer)
        chain = [LEAF, ROW]
    if status != 0:
        raise CaseError(f"{name}: {function} returned ARM_CMSIS_NN_ARG_ERROR for these parameters")
    return chain


ORACLE = oracle.transpose_conv
