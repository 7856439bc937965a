"""arm_convolve_wrapper_s4 (Source/ConvolutionFunctions/arm_convolve_wrapper_s4.c), non-MVE:

    arm_nn_is_convolve_1x1 (padding 0, 1x1 filter, dilation 1, filter c == input c)
        -> arm_nn_is_convolve_1x1_fast (stride 1x1) ? arm_convolve_1x1_s4_fast
                                                    : arm_convolve_1x1_s4
    else arm_nn_is_convolve_1_x_n (input h 1, dilation.w 1, filter h 1,
                                   stride.w * input c % 4 == 0, filter c == input c)
        -> arm_convolve_1_x_n_s4
    else -> arm_convolve_s4     (arm_convolve_even_s4 is MVE only)

Transcribed from gcc 12.2 -O2 objdump (-mcpu=cortex-m4; -mcpu=cortex-m3 differs only in
the argument reload before a tail call: LDRD + LDR instead of three LDR): every call is a tail call (the
stacked arguments reloaded and stored back, LDMIA, B.W).  The struct field loads are
LDR [rN, #imm] from the caller's structs, counted here as stack-slot loads (`ldr_sp`: the
structs are not placed in simulated memory).  Measured (../shared/reference): 28 instructions
to arm_convolve_s4, 45 to arm_convolve_1x1_s4_fast on dsp_O2; 27 and 45 on scalar_O2 (this
transcription: the same).

The kernel returns which kernel it tail-calls (LEAF_*); the caller runs that kernel.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cbnz, cbz, cmp, ldr_sp, ldrd_sp, lsl, mov, mul, pop,
                            push, str_sp, strd_sp, sub)

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

LEAF_1X1_FAST = 1
LEAF_1X1 = 2
LEAF_1_X_N = 3
LEAF_CONVOLVE = 4


@kernel(inline=True)
def _tail_call(m, reload_args):
    """Stacked arguments passed on, frame dropped, LDMIA, B.W (the 1x1-fast path reloads
    one argument instead of three and moves none)."""
    if reload_args and m.dsp:
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
    elif reload_args:                                 # -mcpu=cortex-m3: LDRD + LDR
        ldrd_sp(m)
        ldr_sp(m)
    else:
        ldr_sp(m)
    str_sp(m)
    if reload_args:
        mov(m, 0)
        mov(m, 0)
    strd_sp(m)
    strd_sp(m)
    strd_sp(m)
    add(m, 0, 20)                                     # add sp, #20
    pop(m, 9)                                         # ldmia.w sp!, {r4-fp, lr}
    b(m)                                              # b.w <leaf>


@kernel(inline=True)
def _field_is(m, value, want):
    """LDR field; CMP; branch: returns value == want."""
    ldr_sp(m)
    cmp(m, value, want)
    bcc(m, value != want)
    return value == want


@kernel(inline=True)
def _field_is_beq(m, value, want):
    """As `_field_is`, with the branch (BEQ) taken when equal."""
    ldr_sp(m)
    cmp(m, value, want)
    bcc(m, value == want)
    return value == want


@kernel
def arm_convolve_wrapper_s4(m, conv_params, input_dims, filter_dims):
    push(m, 9)                                        # stmdb sp!, {r4-fp, lr}
    sub(m, 0, 20)
    pad_w = conv_params.padding.w
    ldr_sp(m)                                         # ldr r5, [r1, #16]  (padding.w)
    ldr_sp(m)
    str_sp(m)
    ldrd_sp(m)
    ldrd_sp(m)
    ldrd_sp(m)
    mov(m, 0)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    cbnz(m, pad_w != 0)
    pad_zero = pad_w == 0
    if pad_zero:
        ldr_sp(m)                                     # padding.h
        cbz(m, conv_params.padding.h == 0)
        pad_zero = conv_params.padding.h == 0
    if pad_zero:                                      # arm_nn_is_convolve_1x1
        shape_1x1 = _field_is(m, filter_dims.w, 1)
        if shape_1x1:
            shape_1x1 = _field_is(m, filter_dims.h, 1)
        if shape_1x1:
            if not _field_is(m, conv_params.dilation.w, 1):
                return _generic(m)                    # (dilation.w != 1 rules out 1 x n)
            if _field_is_beq(m, conv_params.dilation.h, 1):   # the 1x1 channel test
                ldr_sp(m)
                ldr_sp(m)
                cmp(m, input_dims.c, filter_dims.c)
                bcc(m, input_dims.c != filter_dims.c)
                if input_dims.c == filter_dims.c:
                    if _field_is_beq(m, conv_params.stride.w, 1) and \
                            _field_is(m, conv_params.stride.h, 1):
                        _tail_call(m, False)
                        return LEAF_1X1_FAST
                    _tail_call(m, True)
                    return LEAF_1X1
            # arm_nn_is_convolve_1_x_n, from its input h test
            if not _field_is(m, input_dims.h, 1):
                return _generic(m)
            # dilation.w and filter h are known to be 1: straight to the stride * c test
            return _one_x_n_tail(m, conv_params, input_dims, filter_dims)
    ldr_sp(m)                                         # input_dims->h
    cmp(m, input_dims.h, 1)
    bcc(m, input_dims.h == 1)                         # beq
    if input_dims.h == 1:
        if not _field_is(m, conv_params.dilation.w, 1):
            return _generic(m)
        if not _field_is(m, filter_dims.h, 1):
            return _generic(m)
        b(m)                                          # b.n to the stride * c test
        return _one_x_n_tail(m, conv_params, input_dims, filter_dims)
    return _generic(m)


@kernel(inline=True)
def _generic(m):
    _tail_call(m, True)
    return LEAF_CONVOLVE


@kernel(inline=True)
def _one_x_n_tail(m, conv_params, input_dims, filter_dims):
    """(stride.w * input c) % 4 == 0 (MUL, LSLS #30) and filter c == input c."""
    ldr_sp(m)
    ldr_sp(m)
    product = mul(m, input_dims.c, conv_params.stride.w)
    lsl(m, product, 30)
    bcc(m, (product & 3) != 0)
    if (product & 3) != 0:
        return _generic(m)
    ldr_sp(m)
    cmp(m, input_dims.c, filter_dims.c)
    bcc(m, input_dims.c != filter_dims.c)
    if input_dims.c != filter_dims.c:
        return _generic(m)
    _tail_call(m, True)
    return LEAF_1_X_N
