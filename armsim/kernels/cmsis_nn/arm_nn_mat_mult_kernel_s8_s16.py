"""arm_nn_mat_mult_kernel_s8_s16 (Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s8_s16.c), non-MVE.

    int8_t *arm_nn_mat_mult_kernel_s8_s16(const int8_t *input_a, const int16_t *input_b,
        const uint16_t output_ch, const int32_t *out_shift, const int32_t *out_mult,
        const int32_t out_offset, const int16_t activation_min, const int16_t activation_max,
        const int32_t num_col_a, const int32_t aligned_num_col_a,
        const int32_t *const output_bias, int8_t *out_0)

The GEMM of arm_convolve_s8: int8 weights (input_a, one row of num_col_a per output channel)
times two int16 im2col columns (input_b, the second at + aligned_num_col_a), two output
channels x two columns per step.  ARM_MATH_DSP: four columns per step, the weights widened
by read_and_pad_reordered, eight SMLAD; then num_col_a % 4 single MACs.  Plain C: one
column per step (LDRSB/LDRSH + four MLA).  Each result: arm_nn_requantize, + out_offset,
clamp, store; column 0 to out_0, column 1 to out_1 = out_0 + row_address_offset.

`mat_mult_kernel_body` is shared with arm_nn_mat_mult_kernel_row_offset_s8_s16 (grouped
convolution), which differs only in row_address_offset (output_ch here).

Calibration (../shared/reference conv1x3_1x32x8_o16_p1, conv3x3_16x16x3_o8_s1_p1,
conv3x3_8x8x16_o16_s2_p1, per-function counts): dsp_O2 ~26 instructions per four-column
step (the 22 of the C plus stack reloads/spills of the pointers GCC keeps on the stack) and
~180 per channel pair outside it; scalar_O2 10 per column and ~160 per pair.  Twelve
arguments (eight on the stack) and eight live pointers leave GCC reloading arguments from
the stack around each requantize: the `fitted_ldr_sp` below.  Those stack accesses and the
`mov`/`add` bookkeeping whose operands do not matter are calibrated against the measured
per-function counts (not read off a disassembly); the MAC instructions are exactly the C's.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, ldr, ldrsb, ldrsh,
                            mla, mov, pop_pc, push, smlad, strb, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .read_and_pad_reordered import read_and_pad_reordered


@kernel(inline=True)
def _requantize_clamp_store(m, acc, mult_ptr, shift_ptr, out_offset, activation_min,
                            activation_max, out, reloads):
    """`reloads` (1..3) stack reloads of arguments (out_offset, the activation limits, the
    pointers), each placed before an ALU op as gcc -O2 interleaves them."""
    acc = arm_nn_requantize(m, acc, ldr(m, mult_ptr), ldr(m, shift_ptr))
    fitted_ldr_sp(m)                                  # out_offset reload
    acc = add(m, acc, out_offset)                     # ch_x_out_y += out_offset;
    if reloads >= 2:
        fitted_ldr_sp(m)                              # activation_min reload
    acc = max_lt(m, acc, activation_min)              # MAX(ch_x_out_y, activation_min)
    if reloads >= 3:
        fitted_ldr_sp(m)                              # activation_max reload
    acc = min_gt(m, acc, activation_max)              # MIN(ch_x_out_y, activation_max)
    strb(m, out, acc)                                 # *out_y++ = (int8_t)ch_x_out_y;


@kernel(inline=True)
def mat_mult_kernel_body(m, input_a, input_b, output_ch, out_shift, out_mult, out_offset,
                         activation_min, activation_max, num_col_a, aligned_num_col_a,
                         output_bias, row_address_offset, out_0):
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    for _ in range(3):
        fitted_ldr_sp(m)                              # stacked arguments
    out_1 = add(m, out_0, row_address_offset)         # int8_t *out_1 = out_0 + row_address_offset;
    bias = output_bias
    row_count = asr(m, output_ch, 1)                  # uint16_t row_count = output_ch / 2;
    ip_a0 = input_a
    cbz(m, row_count == 0)                            # while (row_count)
    while row_count:
        ip_b0 = input_b                               # const int16_t *ip_b0 = input_b;
        ip_b1 = add(m, ip_b0, 2 * aligned_num_col_a)  # ip_b1 = ip_b0 + aligned_num_col_a;
        ip_a1 = add(m, ip_a0, num_col_a)              # ip_a1 = ip_a0 + num_col_a;
        ch_0_out_0 = mov(m, 0)
        ch_0_out_1 = 0
        ch_1_out_0 = mov(m, 0)
        ch_1_out_1 = 0
        cbz(m, bias == 0)                             # if (bias)
        if bias != 0:
            ch_0_out_0 = ldr(m, bias)                 # ch_0_out_0 = *bias;
            ch_0_out_1 = ch_0_out_0                   # ch_0_out_1 = *bias++;  (same register)
            ch_1_out_0 = ldr(m, bias + 4)             # ch_1_out_0 = *bias;
            ch_1_out_1 = ch_1_out_0                   # ch_1_out_1 = *bias++;
            bias += 8
        mov(m, ch_0_out_0)
        mov(m, ch_1_out_0)
        fitted_strd_sp(m)                             # spill the accumulators' pointers
        fitted_strd_sp(m)
        for _ in range(3):
            fitted_ldrd_sp(m)
        for _ in range(3):
            fitted_mov(m)
            fitted_add(m)
        if m.dsp:
            fitted_strd_sp(m)
            fitted_strd_sp(m)
            for _ in range(4):
                fitted_ldr_sp(m)                      # (reloads between the adds)
                fitted_add(m)
            fitted_add(m)
            fitted_add(m)
            b(m)
            for _ in range(2):
                cmp(m, 0, 0)
                bcc(m, False)
            col_count = asr(m, num_col_a, 2)          # int32_t col_count = num_col_a / 4;
            cbz(m, col_count == 0)
            while col_count:
                b0 = ldr(m, ip_b0)                    # b0 = arm_nn_read_q15x2_ia(&ip_b0);
                b1 = ldr(m, ip_b1)                    # b1 = arm_nn_read_q15x2_ia(&ip_b1);
                ip_a0, a01, a02 = read_and_pad_reordered(m, ip_a0)
                ip_a1, a11, a12 = read_and_pad_reordered(m, ip_a1)
                ch_0_out_0 = smlad(m, a01, b0, ch_0_out_0)
                ch_0_out_1 = smlad(m, a01, b1, ch_0_out_1)
                ch_1_out_0 = smlad(m, a11, b0, ch_1_out_0)
                ch_1_out_1 = smlad(m, a11, b1, ch_1_out_1)
                b0 = ldr(m, ip_b0 + 4)                # b0 = arm_nn_read_q15x2_ia(&ip_b0);
                b1 = ldr(m, ip_b1 + 4)                # b1 = arm_nn_read_q15x2_ia(&ip_b1);
                ip_b0 += 8
                ip_b1 += 8
                ch_0_out_0 = smlad(m, a02, b0, ch_0_out_0)
                ch_0_out_1 = smlad(m, a02, b1, ch_0_out_1)
                ch_1_out_0 = smlad(m, a12, b0, ch_1_out_0)
                ch_1_out_1 = smlad(m, a12, b1, ch_1_out_1)
                fitted_ldr_sp(m)                      # pointers GCC keeps on the stack
                fitted_str_sp(m)
                fitted_ldr_sp(m)
                add(m, ip_a1, 0)
                col_count = sub(m, col_count, 1)      # col_count--;
                bcc(m, col_count != 0)
            col_count = num_col_a & 3                 # col_count = num_col_a & 0x3;
            and_cnt = add(m, col_count, 0)
            cbz(m, and_cnt == 0)
        else:
            col_count = num_col_a                     # int32_t col_count = num_col_a;
            cmp(m, col_count, 0)
            bcc(m, col_count == 0)
        while col_count:                              # loads and MLAs in gcc -O2 order:
            a0 = ldrsb(m, ip_a0)                      # int8_t a0 = *ip_a0++;
            b0 = ldrsh(m, ip_b0)                      # int16_t b0 = *ip_b0++;
            if m.dsp:                                 # (-mcpu=cortex-m4: a0, b0, a1, 2 MLA, b1, 2 MLA)
                a1 = ldrsb(m, ip_a1)                  # int8_t a1 = *ip_a1++;
                ch_0_out_0 = mla(m, a0, b0, ch_0_out_0)   # ch_0_out_0 += a0 * b0;
                ch_1_out_0 = mla(m, a1, b0, ch_1_out_0)   # ch_1_out_0 += a1 * b0;
                b1 = ldrsh(m, ip_b1)                  # int16_t b1 = *ip_b1++;
                add(m, ip_b0, 0)                      # pointer updates not folded into the loads
                add(m, ip_b1, 0)
                cmp(m, ip_a0, ip_a0 + col_count - 1)
                ch_0_out_1 = mla(m, a0, b1, ch_0_out_1)   # ch_0_out_1 += a0 * b1;
                ch_1_out_1 = mla(m, a1, b1, ch_1_out_1)   # ch_1_out_1 += a1 * b1;
            else:                                     # (-mcpu=cortex-m3: a0, b0, b1, 2 MLA, a1, 2 MLA)
                b1 = ldrsh(m, ip_b1)                  # int16_t b1 = *ip_b1++;
                ch_0_out_0 = mla(m, a0, b0, ch_0_out_0)   # ch_0_out_0 += a0 * b0;
                ch_0_out_1 = mla(m, a0, b1, ch_0_out_1)   # ch_0_out_1 += a0 * b1;
                a1 = ldrsb(m, ip_a1)                  # int8_t a1 = *ip_a1++;
                cmp(m, ip_a0, ip_a0 + col_count - 1)
                ch_1_out_0 = mla(m, a1, b0, ch_1_out_0)   # ch_1_out_0 += a1 * b0;
                ch_1_out_1 = mla(m, a1, b1, ch_1_out_1)   # ch_1_out_1 += a1 * b1;
            ip_a0 += 1
            ip_b0 += 2
            ip_a1 += 1
            ip_b1 += 2
            col_count -= 1                            # col_count--;
            bcc(m, col_count != 0)
        # 10 stack reloads (out_mult, out_shift, out_0/out_1, out_offset, the activation
        # limits, ...) spread over the four results
        _requantize_clamp_store(m, ch_0_out_0, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_0, 3)
        _requantize_clamp_store(m, ch_0_out_1, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_1, 3)
        out_mult += 4                                 # out_mult++; out_shift++;
        out_shift += 4
        _requantize_clamp_store(m, ch_1_out_0, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_0 + 1, 2)
        _requantize_clamp_store(m, ch_1_out_1, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_1 + 1, 2)
        out_0 += 2
        out_1 += 2
        out_mult = add(m, out_mult, 4)
        out_shift = add(m, out_shift, 4)
        for _ in range(4):
            fitted_str_sp(m)                          # spill out_mult, out_shift, out_0, out_1
        ip_a0 = add(m, ip_a0, num_col_a)              # ip_a0 += num_col_a;  (skip row)
        row_count = sub(m, row_count, 1)              # row_count--;
        bcc(m, row_count != 0)

    odd = output_ch & 1
    cmp(m, odd, 0)                                    # if (output_ch & 0x1)
    bcc(m, odd == 0)
    if odd:
        ip_b0 = input_b
        ip_b1 = add(m, ip_b0, 2 * aligned_num_col_a)
        ch_0_out_0 = mov(m, 0)
        cbz(m, bias == 0)
        if bias != 0:
            ch_0_out_0 = ldr(m, bias)                 # ch_0_out_0 = *bias; ch_0_out_1 = *bias++;
            bias += 4
        ch_0_out_1 = mov(m, ch_0_out_0)
        if m.dsp:
            col_count = asr(m, num_col_a, 2)          # int32_t col_count = num_col_a >> 2;
            cbz(m, col_count == 0)
            while col_count:
                b0 = ldr(m, ip_b0)
                b1 = ldr(m, ip_b1)
                ip_a0, a01, a02 = read_and_pad_reordered(m, ip_a0)
                ch_0_out_0 = smlad(m, a01, b0, ch_0_out_0)
                ch_0_out_1 = smlad(m, a01, b1, ch_0_out_1)
                b0 = ldr(m, ip_b0 + 4)
                b1 = ldr(m, ip_b1 + 4)
                ip_b0 += 8
                ip_b1 += 8
                ch_0_out_0 = smlad(m, a02, b0, ch_0_out_0)
                ch_0_out_1 = smlad(m, a02, b1, ch_0_out_1)
                col_count = sub(m, col_count, 1)
                bcc(m, col_count != 0)
            col_count = num_col_a & 3
            and_cnt = add(m, col_count, 0)
            cbz(m, and_cnt == 0)
        else:
            col_count = num_col_a
            cmp(m, col_count, 0)
            bcc(m, col_count == 0)
        while col_count:                              # gcc -O2 order: a0, b0, MLA, b1, MLA
            a0 = ldrsb(m, ip_a0)                      # int8_t a0 = *ip_a0++;
            b0 = ldrsh(m, ip_b0)                      # int16_t b0 = *ip_b0++;
            cmp(m, col_count - 1, 0)
            ch_0_out_0 = mla(m, a0, b0, ch_0_out_0)
            b1 = ldrsh(m, ip_b1)                      # int16_t b1 = *ip_b1++;
            ch_0_out_1 = mla(m, a0, b1, ch_0_out_1)
            ip_a0 += 1
            ip_b0 += 2
            ip_b1 += 2
            col_count -= 1
            bcc(m, col_count != 0)
        _requantize_clamp_store(m, ch_0_out_0, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_0, 3)     # 6 stack reloads over both
        _requantize_clamp_store(m, ch_0_out_1, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_1, 3)
        out_0 += 1
        out_1 += 1
        out_mult += 4
        out_shift += 4
    out_0 = add(m, out_0, 2 * row_address_offset - output_ch)  # out_0 += 2 * row_address_offset - output_ch;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return out_0


@kernel
def arm_nn_mat_mult_kernel_s8_s16(m, input_a, input_b, output_ch, out_shift, out_mult,
                                  out_offset, activation_min, activation_max, num_col_a,
                                  aligned_num_col_a, output_bias, out_0):
    """Returns the output pointer advanced past the two columns (out_0 += output_ch)."""
    return mat_mult_kernel_body(m, input_a, input_b, output_ch, out_shift, out_mult,
                                out_offset, activation_min, activation_max, num_col_a,
                                aligned_num_col_a, output_bias, output_ch, out_0)
