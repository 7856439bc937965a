"""arm_convolve_wrapper_s8 (Source/ConvolutionFunctions/arm_convolve_wrapper_s8.c), non-MVE.

    arm_nn_is_convolve_1x1 (padding 0, 1x1 filter, dilation 1, filter c == input c)
        -> arm_nn_is_convolve_1x1_fast (stride 1x1) ? arm_convolve_1x1_s8_fast
                                                    : arm_convolve_1x1_s8
    else arm_nn_is_convolve_1_x_n (input h 1, dilation.w 1, filter h 1,
                                   stride.w * input c % 4 == 0, filter c == input c)
        -> arm_convolve_1_x_n_s8
    else -> arm_convolve_s8 (upscale_dims = NULL)

The 11-argument calls are tail calls (B), the call of arm_convolve_s8 (12 arguments) a BL.
Calibration (../shared/reference): 30 (arm_convolve_s8) to 46 instructions in the function.

The wrapper's own instructions are one compiled kernel that returns which kernel it calls;
`call_convolve_wrapper_s8` (host side) then runs that kernel, so a model compiles only the
kernels it reaches, and the instructions and their order are those of the C.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, fitted_ldr_sp, fitted_str_sp, mov, mul, pop_pc,
                            push, sub)

from .arm_convolve_1_x_n_s8 import arm_convolve_1_x_n_s8
from .arm_convolve_1x1_s8 import arm_convolve_1x1_s8
from .arm_convolve_1x1_s8_fast import arm_convolve_1x1_s8_fast
from .arm_convolve_s8 import arm_convolve_s8

# which kernel the wrapper called
LEAF_1X1_FAST = 1
LEAF_1X1 = 2
LEAF_1_X_N = 3
LEAF_CONVOLVE = 4


@kernel(inline=True)
def _check(m, value, want, ok):
    """One `field == want` term of an && chain: LDR field, CMP, branch out when false."""
    if ok:
        fitted_ldr_sp(m)
        cmp(m, value, want)
        bcc(m, value != want)
        ok = value == want
    return ok


@kernel
def arm_convolve_wrapper_s8(m, conv_params, input_dims, filter_dims):
    """The wrapper's own instructions, up to its call of the kernel; returns which kernel
    it calls (LEAF_*).  `call_convolve_wrapper_s8` then runs that kernel."""
    input_y = input_dims.h
    input_ch = input_dims.c
    kernel_x = filter_dims.w
    kernel_y = filter_dims.h
    kernel_ch = filter_dims.c
    pad_x = conv_params.padding.w
    pad_y = conv_params.padding.h
    stride_x = conv_params.stride.w
    stride_y = conv_params.stride.h
    dilation_x = conv_params.dilation.w
    dilation_y = conv_params.dilation.h
    push(m, 5)                                        # push {r4-r7, lr}
    sub(m, 0, 0)
    fitted_ldr_sp(m)
    fitted_ldr_sp(m)
    # arm_nn_is_convolve_1x1(conv_params, input_dims, filter_dims)
    is_1x1 = _check(m, pad_x, 0, True)
    is_1x1 = _check(m, pad_y, 0, is_1x1)
    is_1x1 = _check(m, kernel_x, 1, is_1x1)
    is_1x1 = _check(m, kernel_y, 1, is_1x1)
    is_1x1 = _check(m, dilation_x, 1, is_1x1)
    is_1x1 = _check(m, dilation_y, 1, is_1x1)
    is_1x1 = _check(m, input_ch, kernel_ch, is_1x1)
    if is_1x1:
        # arm_nn_is_convolve_1x1_fast(conv_params)
        fast = _check(m, stride_x, 1, True)
        fast = _check(m, stride_y, 1, fast)
        for _ in range(7):
            fitted_ldr_sp(m)                          # the caller's stacked arguments ...
            fitted_str_sp(m)                          # ... passed on to the tail call
        add(m, 0, 0)                                  # add sp, #frame
        b(m)                                          # tail call (pop {r4-r7, lr}; b.w)
        return LEAF_1X1_FAST if fast else LEAF_1X1
    # arm_nn_is_convolve_1_x_n(conv_params, input_dims, filter_dims)
    is_1xn = _check(m, input_y, 1, True)
    is_1xn = _check(m, dilation_x, 1, is_1xn)
    is_1xn = _check(m, kernel_y, 1, is_1xn)
    if is_1xn:
        fitted_ldr_sp(m)
        t = mul(m, stride_x, input_ch)
        cmp(m, t & 3, 0)                              # (stride.w * input_dims->c) % 4 == 0
        bcc(m, (t & 3) != 0)
        is_1xn = (t & 3) == 0
    is_1xn = _check(m, input_ch, kernel_ch, is_1xn)
    if is_1xn:
        for _ in range(7):
            fitted_ldr_sp(m)
            fitted_str_sp(m)
        add(m, 0, 0)
        b(m)                                          # tail call
        return LEAF_1_X_N
    for _ in range(8):
        fitted_ldr_sp(m)                              # stacked arguments passed on
        fitted_str_sp(m)
    mov(m, 0)                                         # upscale_dims = NULL
    bl(m)
    return LEAF_CONVOLVE


@kernel
def _return_after_convolve(m):
    """The wrapper's epilogue after its (non-tail) call of arm_convolve_s8."""
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 5)


def call_convolve_wrapper_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data,
                             tracer=None):
    """Run arm_convolve_wrapper_s8 as the C does: its dispatch, then the kernel it calls
    (each compiled on its own, so a model compiles only the kernels it reaches).  The
    arguments are the C's (structs from `arm_nn_types`).  Returns (status, leaf, detail):
    leaf LEAF_*, detail the leaf's own path code."""
    leaf = run(arm_convolve_wrapper_s8, m, conv_params, input_dims, filter_dims, tracer=tracer)
    args = (ctx, conv_params, quant_params, input_dims, input_data, filter_dims, filter_data,
            bias_data, output_dims, output_data)
    if leaf == LEAF_1X1_FAST:
        status, detail = run(arm_convolve_1x1_s8_fast, m, *args, tracer=tracer)
        return status, leaf, detail
    if leaf == LEAF_1X1:
        status = run(arm_convolve_1x1_s8, m, *args, tracer=tracer)
        return status, leaf, 0
    if leaf == LEAF_1_X_N:
        status, gemm = run(arm_convolve_1_x_n_s8, m, *args, tracer=tracer)
        return status, leaf, gemm
    status, gemm = run(arm_convolve_s8, m, *args, tracer=tracer)
    run(_return_after_convolve, m, tracer=tracer)
    return status, leaf, gemm
