"""arm_convolve_wrapper_s8 (Source/ConvolutionFunctions/arm_convolve_wrapper_s8.c), non-MVE.

    arm_nn_is_convolve_1x1 (padding 0, 1x1 filter, dilation 1, filter c == input c)
        -> arm_nn_is_convolve_1x1_fast (stride 1x1) ? arm_convolve_1x1_s8_fast
                                                    : arm_convolve_1x1_s8
    else arm_nn_is_convolve_1_x_n (input h 1, dilation.w 1, filter h 1,
                                   stride.w * input c % 4 == 0, filter c == input c)
        -> arm_convolve_1_x_n_s8
    else -> arm_convolve_s8 (upscale_dims = NULL)

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3 differ
only in the order of the argument moves): the three stacked argument pairs loaded up front
(LDRD), the && chains as LDR field / CMP / branch in gcc's block order (a failed 1x1 test
on dilation.h or the channel count goes on to the 1xN test's second half), the 11-argument
calls as tail calls (stacked arguments stored back, POP without PC, B.W), the call of
arm_convolve_s8 (12 arguments) as a BL.  Struct field loads (LDR [rN, #imm] of the caller's
structs, which are not placed in simulated memory) are issued as `ldr_sp`.

The wrapper's own instructions are one compiled kernel that returns which kernel it calls;
`call_convolve_wrapper_s8` (host side) then runs that kernel, so a model compiles only the
kernels it reaches, and the instructions and their order are those of the compiled code.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cbnz, cbz, cmp, ldr_sp, ldrd_sp, lsl, mov, mul, pop,
                            pop_pc, push, str_sp, strd_sp, sub)

from .arm_convolve_1_x_n_s8 import arm_convolve_1_x_n_s8
from .arm_convolve_1x1_s8 import arm_convolve_1x1_s8
from .arm_convolve_1x1_s8_fast import arm_convolve_1x1_s8_fast
from .arm_convolve_s8 import arm_convolve_s8
from .arm_nn_types import NULL_DIMS

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

# which kernel the wrapper called
LEAF_1X1_FAST = 1
LEAF_1X1 = 2
LEAF_1_X_N = 3
LEAF_CONVOLVE = 4

# gcc's blocks for the 1xN test: from its first term (input h) or from its second half
# (entered with the 1x1 test's filter h and dilation.w already found to be 1)
_FROM_INPUT_H = 0
_FROM_SECOND_HALF = 1


@kernel(inline=True)
def _field_is(m, value, want):
    """One `field == want` term: LDR field, CMP, conditional branch out when false."""
    ldr_sp(m)
    cmp(m, value, want)
    bcc(m, value != want)
    return value == want


@kernel(inline=True)
def _tail_call(m):
    """The 11-argument tail call: the six stacked arguments stored back (three STRD, one
    LDR / STR), ADD sp, POP {r4-r11, lr}, B.W."""
    ldr_sp(m)
    str_sp(m)
    for _ in range(3):
        strd_sp(m)
    add(m, 0, 0)                                      # add sp, #52
    pop(m, 9)                                         # ldmia.w sp!, {r4-r11, lr}
    b(m)                                              # b.w <kernel>


@kernel(inline=True)
def _tail_call_1x1(m):
    """The tail calls of arm_convolve_1x1_s8 and arm_convolve_1_x_n_s8: the argument
    registers and the six stacked arguments (r0 and r2 reloaded), ADD sp, POP, B.W."""
    if m.dsp:
        for _ in range(3):
            ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        for _ in range(3):
            strd_sp(m)
    else:
        ldrd_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        for _ in range(3):
            strd_sp(m)
        str_sp(m)
    add(m, 0, 0)                                      # add sp, #52
    pop(m, 9)                                         # ldmia.w sp!, {r4-r11, lr}
    b(m)                                              # b.w <kernel>


@kernel
def arm_convolve_wrapper_s8(m, conv_params, input_dims, filter_dims, returning):
    """The wrapper's own instructions, up to its call of the kernel; returns which kernel
    it calls (LEAF_*).  `call_convolve_wrapper_s8` then runs that kernel, and after
    arm_convolve_s8 (a call, not a tail call) this again with `returning`: the epilogue."""
    if returning:
        add(m, 0, 0)                                  # add sp, #52
        pop_pc(m, 9)                                  # ldmia.w sp!, {r4-r11, pc}
        return LEAF_CONVOLVE
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
    push(m, 9)                                        # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #52
    if m.dsp:
        ldr_sp(m)                                     # conv_params->padding.w
        ldr_sp(m)                                     # input_data (stacked)
        str_sp(m)
        for _ in range(3):
            ldrd_sp(m)                                # the other stacked arguments, in pairs
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
    else:
        ldr_sp(m)                                     # input_data (stacked)
        ldr_sp(m)                                     # conv_params->padding.w
        mov(m, 0)
        for _ in range(3):
            ldrd_sp(m)
        mov(m, 0)
        for _ in range(3):
            str_sp(m)
    # (no comment on the branch lines below: `armsim why` names each condition after the
    # nearest `# arm_nn_is_...` line above it)
    # arm_nn_is_convolve_1x1(conv_params, input_dims, filter_dims)
    one_by_n = _FROM_INPUT_H
    cbnz(m, pad_x != 0)
    if pad_x == 0:
        ldr_sp(m)
        cbz(m, pad_y == 0)
        ok = pad_y == 0
        if ok:
            ok = _field_is(m, kernel_x, 1)
        if ok:
            ok = _field_is(m, kernel_y, 1)
        if ok:
            ok = _field_is(m, dilation_x, 1)
            if not ok:
                return _call_convolve_s8(m)
            ldr_sp(m)
            cmp(m, dilation_y, 1)
            bcc(m, dilation_y == 1)
            one_by_n = _FROM_SECOND_HALF
            if dilation_y == 1:
                ldr_sp(m)
                ldr_sp(m)
                cmp(m, input_ch, kernel_ch)
                bcc(m, input_ch != kernel_ch)
                if input_ch == kernel_ch:
                    # arm_nn_is_convolve_1x1_fast(conv_params)
                    ldr_sp(m)
                    cmp(m, stride_x, 1)
                    bcc(m, stride_x == 1)
                    fast = False
                    if stride_x == 1:
                        fast = _field_is(m, stride_y, 1)
                    if fast:
                        _tail_call(m)
                        return LEAF_1X1_FAST
                    _tail_call_1x1(m)
                    return LEAF_1X1
    # arm_nn_is_convolve_1_x_n(conv_params, input_dims, filter_dims)
    if one_by_n == _FROM_INPUT_H:
        ldr_sp(m)
        cmp(m, input_y, 1)
        bcc(m, input_y == 1)
        if input_y != 1:
            return _call_convolve_s8(m)
        ok = _field_is(m, dilation_x, 1)
        if not ok:
            return _call_convolve_s8(m)
        ok = _field_is(m, kernel_y, 1)
        if not ok:
            return _call_convolve_s8(m)
        b(m)
    else:
        ok = _field_is(m, input_y, 1)
        if not ok:
            return _call_convolve_s8(m)
    ldr_sp(m)
    ldr_sp(m)
    t = mul(m, stride_x, input_ch)
    lsl(m, t, 30)
    bcc(m, (t & 3) != 0)
    if (t & 3) != 0:
        return _call_convolve_s8(m)
    ldr_sp(m)
    cmp(m, input_ch, kernel_ch)
    bcc(m, input_ch != kernel_ch)
    if input_ch != kernel_ch:
        return _call_convolve_s8(m)
    _tail_call_1x1(m)                                 # (the same stores for arm_convolve_1_x_n_s8)
    return LEAF_1_X_N


@kernel(inline=True)
def _call_convolve_s8(m):
    """return arm_convolve_s8(ctx, ..., bias_data, NULL, output_dims, output_data): eight
    stacked arguments stored, upscale_dims = NULL, BL."""
    if m.dsp:
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)                                     # movs r4, #0 (NULL)
        for _ in range(3):
            strd_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
    else:
        ldrd_sp(m)
        str_sp(m)
        mov(m, 0)                                     # movs r4, #0 (NULL)
        mov(m, 0)
        mov(m, 0)
        for _ in range(3):
            strd_sp(m)
        ldr_sp(m)
        str_sp(m)
    bl(m)
    return LEAF_CONVOLVE


def call_convolve_wrapper_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data,
                             tracer=None):
    """Run arm_convolve_wrapper_s8 as the C does: its dispatch, then the kernel it calls
    (each compiled on its own, so a model compiles only the kernels it reaches).  The
    arguments are the C's (structs from `arm_nn_types`).  Returns (status, leaf, detail):
    leaf LEAF_*, detail the leaf's own path code."""
    leaf = run(arm_convolve_wrapper_s8, m, conv_params, input_dims, filter_dims, False,
               tracer=tracer)
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
    status, gemm = run(arm_convolve_s8, m, ctx, conv_params, quant_params, input_dims,
                       input_data, filter_dims, filter_data, bias_data, NULL_DIMS, output_dims,
                       output_data, tracer=tracer)
    run(arm_convolve_wrapper_s8, m, conv_params, input_dims, filter_dims, True, tracer=tracer)
    return status, leaf, gemm
