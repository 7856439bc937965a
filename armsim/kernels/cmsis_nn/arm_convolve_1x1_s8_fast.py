"""arm_convolve_1x1_s8_fast (Source/ConvolutionFunctions/arm_convolve_1x1_s8_fast.c), non-MVE.

1x1 convolution, stride 1, no padding: the input is the lhs matrix as it is.
* gcc (and any build without DSP): one arm_nn_mat_mult_nt_t_s8 over all
  input_w * input_h * input_n pixels.  Transcribed from gcc 12.2 -O2's disassembly
  (-mcpu=cortex-m4 / cortex-m3): the padding.w test before the PUSH, the padding.h and
  stride tests, the eleven stacked arguments stored for the call (the M3 build tests with
  CMP + BNE where the M4 build has CBNZ, and orders the stores differently).  Struct field
  loads (LDR [rN, #imm] of the caller's structs, not placed in simulated memory) are
  issued as `ldr_sp`.
* Arm Compiler 6 (`_armclang`, a model: no armclang build was disassembled or measured)
  with ARM_MATH_DSP and a buffer (`__ARMCC_VERSION >= 6010050`): each pixel is widened to
  int16 by arm_s8_to_s16_unordered_with_offset, two at a time multiplied by
  arm_nn_mat_mult_kernel_s8_s16, an odd last pixel inline (read_and_pad_reordered +
  SMLAD).  Without a buffer, or without DSP, the arm_nn_mat_mult_nt_t_s8 call.  Its own
  stack traffic and bookkeeping are fitted ops.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bl, bx, cbnz, cbz, cmp, fitted_add, fitted_ldr_sp,
                            fitted_mov, fitted_str_sp, ldr, ldr_sp, ldrd_sp, ldrsb, ldrsh, mla,
                            mov, mul, pop_pc, push, smlad, str_sp, strb, strd_sp, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_mat_mult_kernel_s8_s16 import arm_nn_mat_mult_kernel_s8_s16
from .arm_nn_mat_mult_nt_t_s8 import arm_nn_mat_mult_nt_t_s8
from .arm_nn_requantize import arm_nn_requantize
from .arm_s8_to_s16_unordered_with_offset import arm_s8_to_s16_unordered_with_offset
from .read_and_pad_reordered import read_and_pad_reordered

# the gcc builds' instructions read off gcc 12.2 -O2's disassembly (the armclang model keeps
# its fitted ops; tests/kernels/test_fitted.py exempts a module with this mark)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1
# which kernels ran (for the kernel chain)
VIA_MAT_MULT_NT_T = 1
VIA_MAT_MULT_KERNEL = 2


@kernel
def arm_convolve_1x1_s8_fast(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns (status, path): path VIA_MAT_MULT_NT_T or VIA_MAT_MULT_KERNEL."""
    if m.armclang:
        return _armclang(m, ctx, conv_params, quant_params, input_dims, input_data,
                         filter_dims, filter_data, bias_data, output_dims, output_data)
    # if (padding.w != 0 || padding.h != 0 || stride.w != 1 || stride.h != 1)
    ldr_sp(m)                                         # conv_params->padding.w
    cmp(m, conv_params.padding.w, 0)
    bcc(m, conv_params.padding.w != 0)                # bne: return before the PUSH
    if conv_params.padding.w != 0:
        mov(m, ARG_ERROR)
        bx(m)
        return ARG_ERROR, 0
    push(m, 3)                                        # push {r4, r5, lr}
    ldr_sp(m)                                         # conv_params->padding.h
    sub(m, 0, 0)                                      # sub sp, #52
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
        add(m, 0, 0)                                  # add sp, #52
        pop_pc(m, 3)
        return ARG_ERROR, 0
    rhs_cols = input_dims.c                           # const int32_t rhs_cols = input_dims->c;
    rhs_rows = output_dims.c                          # const int32_t rhs_rows = output_dims->c;
    # arm_nn_mat_mult_nt_t_s8(input_data, filter_data, bias_data, output_data,
    #     quant_params->multiplier, quant_params->shift, lhs_rows, rhs_rows, rhs_cols,
    #     conv_params->input_offset, conv_params->output_offset, conv_params->activation.min,
    #     conv_params->activation.max, rhs_rows, rhs_cols)
    ldr_sp(m)                                         # input_dims->c
    str_sp(m)
    str_sp(m)
    ldr_sp(m)                                         # activation.max
    str_sp(m)
    ldr_sp(m)                                         # activation.min
    str_sp(m)
    ldrd_sp(m)                                        # input_offset, output_offset
    str_sp(m)
    ldr_sp(m)                                         # input_dims->w
    str_sp(m)
    if m.dsp:
        ldrd_sp(m)                                    # input_dims->n, h
        lhs_rows = mul(m, input_dims.h, input_dims.w)
        ldrd_sp(m)                                    # quant_params->multiplier, shift
        lhs_rows = mul(m, input_dims.n, lhs_rows)     # input_dims->w * h * n
        strd_sp(m)
        ldr_sp(m)                                     # output_dims (stacked)
        str_sp(m)
        ldr_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # output_data, bias_data, filter_data, input
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        str_sp(m)
    else:
        ldr_sp(m)                                     # input_dims->h
        ldr_sp(m)                                     # input_dims->n
        lhs_rows = mul(m, input_dims.h, input_dims.w)
        ldrd_sp(m)                                    # quant_params->multiplier, shift
        lhs_rows = mul(m, input_dims.n, lhs_rows)     # input_dims->w * h * n
        str_sp(m)
        ldr_sp(m)                                     # output_dims (stacked)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # output_dims->c
        ldr_sp(m)                                     # output_data
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # bias_data, filter_data, input_data
        ldr_sp(m)
        ldr_sp(m)
    bl(m)
    arm_nn_mat_mult_nt_t_s8(m, input_data, filter_data, bias_data, output_data,
                            quant_params.multiplier, quant_params.shift, lhs_rows, rhs_rows,
                            rhs_cols, conv_params.input_offset, conv_params.output_offset,
                            conv_params.activation.min, conv_params.activation.max, rhs_rows,
                            rhs_cols)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;  (mov r0, r5)
    add(m, 0, 0)                                      # add sp, #52
    pop_pc(m, 3)
    return 0, VIA_MAT_MULT_NT_T


@kernel
def _armclang(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
              filter_data, bias_data, output_dims, output_data):
    """Arm Compiler 6's build (a model: no armclang disassembly or measurement exists, so
    its stack traffic and bookkeeping are fitted ops, calibrated on the gcc build's counts)."""
    buf = ctx.buf
    input_n = input_dims.n
    input_w = input_dims.w
    input_h = input_dims.h
    input_c = input_dims.c
    output_w = output_dims.w
    output_h = output_dims.h
    output_c = output_dims.c
    input_offset = conv_params.input_offset
    output_offset = conv_params.output_offset
    activation_min = conv_params.activation.min
    activation_max = conv_params.activation.max
    output_mult = quant_params.multiplier
    output_shift = quant_params.shift
    push(m, 5)                                        # push {r4-r7, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    for _ in range(4):
        fitted_ldr_sp(m)                              # conv_params->padding, stride
    # if (padding.w != 0 || padding.h != 0 || stride.w != 1 || stride.h != 1)
    bad = False
    for v, want in ((conv_params.padding.w, 0), (conv_params.padding.h, 0),
                    (conv_params.stride.w, 1), (conv_params.stride.h, 1)):
        if not bad:
            cmp(m, v, want)
            bcc(m, v != want)
            bad = v != want
    if bad:
        mov(m, ARG_ERROR)
        fitted_add(m)
        pop_pc(m, 5)
        return ARG_ERROR, 0
    for _ in range(3):
        fitted_ldr_sp(m)                              # input_dims fields
    rhs_cols = input_c                                # const int32_t rhs_cols = input_dims->c;
    rhs_rows = output_c                               # const int32_t rhs_rows = output_dims->c;
    lhs_rows = mul(m, mul(m, input_w, input_h), input_n)  # input_dims->w * h * n

    if m.dsp:
        cbz(m, buf == 0)                              # if (ctx->buf != NULL)
        if buf != 0:
            output_ch = output_c
            input_inc = mul(m, input_w, rhs_cols)     # const int32_t input_inc = input_dims->w * rhs_cols;
            i_batch = 0
            while i_batch < input_n:
                ip = input_data                       # const int8_t *ip = input_data;
                buffer_a = buf
                im2col_buf = buf
                out = output_data
                lhs_rows = mov(m, 0)
                i_out_y = 0
                while i_out_y < output_h:
                    k_x = 0
                    i_out_x = 0
                    while i_out_x < output_w:
                        mov(m, ip + k_x)
                        mov(m, im2col_buf)
                        mov(m, rhs_cols)
                        mov(m, input_offset)
                        bl(m)
                        arm_s8_to_s16_unordered_with_offset(m, ip + k_x, im2col_buf, rhs_cols,
                                                            input_offset)
                        im2col_buf = add(m, im2col_buf, 2 * rhs_cols)  # im2col_buf += rhs_cols;
                        lhs_rows = add(m, lhs_rows, 1)  # lhs_rows++;
                        cmp(m, lhs_rows, 2)           # if (lhs_rows == 2)
                        bcc(m, lhs_rows != 2)
                        if lhs_rows == 2:
                            for _ in range(8):
                                fitted_str_sp(m)      # stacked arguments
                            bl(m)
                            out = arm_nn_mat_mult_kernel_s8_s16(
                                m, filter_data, buffer_a, output_ch, output_shift, output_mult,
                                output_offset, activation_min, activation_max, rhs_cols,
                                rhs_cols, bias_data, out)
                            im2col_buf = mov(m, buffer_a)
                            lhs_rows = mov(m, 0)
                        i_out_x = add(m, i_out_x, 1)
                        k_x = add(m, k_x, rhs_cols)
                        cmp(m, i_out_x, output_w)
                        bcc(m, i_out_x < output_w)
                    cbz(m, out == 0)                  # if (out == NULL)
                    ip = add(m, ip, input_inc)
                    i_out_y = add(m, i_out_y, 1)
                    cmp(m, i_out_y, output_h)
                    bcc(m, i_out_y < output_h)
                # Handle left over columns
                cmp(m, lhs_rows, 0)
                bcc(m, lhs_rows == 0)
                if lhs_rows != 0:
                    ker_a = filter_data
                    i = 0
                    while i < output_ch:
                        total = mov(m, 0)
                        cbz(m, bias_data == 0)
                        if bias_data != 0:
                            total = ldr(m, bias_data + 4 * i)
                        ip_as_col = buffer_a
                        col_count = asr(m, rhs_cols, 2)   # uint16_t col_count = rhs_cols >> 2;
                        cbz(m, col_count == 0)
                        while col_count:
                            ker_a, ker_a1, ker_a2 = read_and_pad_reordered(m, ker_a)
                            ip_b1 = ldr(m, ip_as_col)
                            total = smlad(m, ker_a1, ip_b1, total)
                            ip_b2 = ldr(m, ip_as_col + 4)
                            total = smlad(m, ker_a2, ip_b2, total)
                            ip_as_col += 8
                            col_count = sub(m, col_count, 1)
                            bcc(m, col_count != 0)
                        col_count = rhs_cols & 3
                        add(m, col_count, 0)
                        cbz(m, col_count == 0)
                        while col_count:
                            ker_a1 = ldrsb(m, ker_a)
                            ip_b1 = ldrsh(m, ip_as_col)
                            ker_a += 1
                            ip_as_col += 2
                            total = mla(m, ker_a1, ip_b1, total)
                            col_count = sub(m, col_count, 1)
                            bcc(m, col_count != 0)
                        total = arm_nn_requantize(m, total, ldr(m, output_mult + 4 * i),
                                                  ldr(m, output_shift + 4 * i))
                        total = add(m, total, output_offset)
                        total = max_lt(m, total, activation_min)
                        total = min_gt(m, total, activation_max)
                        strb(m, out, total)           # *out++ = (int8_t)sum;
                        out += 1
                        i += 1
                        cmp(m, i, output_ch)
                        bcc(m, i < output_ch)
                input_data = add(m, input_data, input_w * input_h * rhs_cols)
                output_data = add(m, output_data, output_w * output_h * output_ch)
                i_batch += 1
                cmp(m, i_batch, input_n)
                bcc(m, i_batch < input_n)
            fitted_mov(m)
            fitted_add(m)
            pop_pc(m, 5)
            return 0, VIA_MAT_MULT_KERNEL

    for _ in range(11):
        fitted_str_sp(m)                              # the 11 stacked arguments
    for _ in range(6):
        fitted_ldr_sp(m)                              # quant_params, conv_params fields
    mov(m, input_data)
    mov(m, filter_data)
    mov(m, bias_data)
    bl(m)
    arm_nn_mat_mult_nt_t_s8(m, input_data, filter_data, bias_data, output_data, output_mult,
                            output_shift, lhs_rows, rhs_rows, rhs_cols, input_offset,
                            output_offset, activation_min, activation_max, rhs_rows, rhs_cols)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 5)
    return 0, VIA_MAT_MULT_NT_T
