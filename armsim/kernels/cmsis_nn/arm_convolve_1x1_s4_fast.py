"""arm_convolve_1x1_s4_fast (Source/ConvolutionFunctions/arm_convolve_1x1_s4_fast.c), non-MVE.

1x1 convolution, stride 1, no padding: one arm_nn_mat_mult_nt_t_s4 over all
input_w * input_h * input_n pixels (lhs_cols_offset = rhs_cols = input c).

Transcribed from gcc 12.2 -O2 objdump (-mcpu=cortex-m4; -mcpu=cortex-m3: the CBNZ is CMP +
BNE and the argument stores come in a different order, LDM instead of LDRD): the padding
test before the PUSH, the padding.h / stride tests, eight of the fourteen arguments stored
for the call.  Struct field loads are LDR [rN, #imm] from the caller's structs, counted as
stack-slot loads (`ldr_sp`: the structs are not placed in simulated memory); LDRD / LDM of
the quant_params and input_dims fields as `ldrd_sp`.  Measured (../shared/reference
conv_s4_1x1_8x8x32_o16_s1_p0): 43 dsp_O2, 45 scalar_O2 (this transcription: the same).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, bx, cbnz, cmp, ldr_sp, ldrd_sp, mov, mul, pop_pc,
                            push, str_sp, strd_sp, sub)

from .arm_nn_mat_mult_nt_t_s4 import arm_nn_mat_mult_nt_t_s4

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"
ARG_ERROR = -1


@kernel
def arm_convolve_1x1_s4_fast(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns the status (0 or ARG_ERROR)."""
    mov(m, 0)                                         # mov ip, r1
    ldr_sp(m)                                         # ldr r1, [r1, #16]  (padding.w)
    cmp(m, conv_params.padding.w, 0)
    bcc(m, conv_params.padding.w != 0)
    if conv_params.padding.w != 0:
        mov(m, ARG_ERROR)
        bx(m)
        return ARG_ERROR
    push(m, 2)                                        # push {r4, lr}
    ldr_sp(m)                                         # ldr.w r4, [ip, #20]  (padding.h)
    sub(m, 0, 40)                                     # sub sp, #40
    bad = conv_params.padding.h != 0
    if m.dsp:
        cbnz(m, bad)
    else:
        cmp(m, conv_params.padding.h, 0)
        bcc(m, bad)
    for stride in (conv_params.stride.w, conv_params.stride.h):
        if not bad:
            ldr_sp(m)
            cmp(m, stride, 1)
            bcc(m, stride != 1)
            bad = stride != 1
    if bad:
        mov(m, ARG_ERROR)
        b(m)
        add(m, 0, 40)
        pop_pc(m, 2)
        return ARG_ERROR
    rhs_cols = input_dims.c
    ldr_sp(m)                                         # input_dims->c
    str_sp(m)
    str_sp(m)
    ldr_sp(m)                                         # output_dims (stacked argument)
    ldr_sp(m)                                         # output_dims->c
    str_sp(m)
    ldrd_sp(m)                                        # input_dims->h, w
    lhs_rows = mul(m, input_dims.h, input_dims.w)
    ldr_sp(m)                                         # input_dims->n
    lhs_rows = mul(m, input_dims.n, lhs_rows)
    ldrd_sp(m)                                        # quant_params->multiplier, shift
    if m.dsp:
        strd_sp(m)
        str_sp(m)
    else:
        str_sp(m)
        str_sp(m)
        str_sp(m)
    for _ in range(4):                                # activation.max/min, output/input offset
        ldr_sp(m)
        str_sp(m)
    for _ in range(4):                                # output_data, bias_data, filter_data, input
        ldr_sp(m)
    bl(m)
    arm_nn_mat_mult_nt_t_s4(m, input_data, filter_data, bias_data, output_data,
                            quant_params.multiplier, quant_params.shift, lhs_rows,
                            output_dims.c, rhs_cols, conv_params.input_offset,
                            conv_params.output_offset, conv_params.activation.min,
                            conv_params.activation.max, rhs_cols)
    mov(m, 0)                                         # mov r0, r4
    add(m, 0, 40)
    pop_pc(m, 2)
    return 0
