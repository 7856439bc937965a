"""arm_nn_mat_mult_kernel_s4_s16 (Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s4_s16.c).

    int8_t *arm_nn_mat_mult_kernel_s4_s16(const int8_t *packed_input_a, const int16_t *input_b,
        const uint16_t output_ch, const int32_t *out_shift, const int32_t *out_mult,
        const int32_t out_offset, const int32_t activation_min, const int32_t activation_max,
        const int32_t num_col_a, const int32_t *const output_bias, int8_t *out_0)

The GEMM of arm_convolve_s4 (non-MVE): packed int4 weights (two per byte, row after row, so
with num_col_a odd a row starts mid-byte) times two int16 im2col columns (input_b, the second
at + num_col_a).  Four output channels per row step, as two pairs: the pair (ch, ch + 2) of
even rows reads bytes at packed_ip_a0 and packed_ip_a0 + num_col_a, the odd pair (ch + 1,
ch + 3) then continues from the middle byte (its first weight is the `spillover` high nibble
when num_col_a is odd).  ARM_MATH_DSP: four columns per step via read_and_pad_s4_ordered and
eight SMLAD, then (num_col_a & 3) / 2 byte steps; plain C: num_col_a / 2 byte steps (LDRSB,
SBFX/ASR, LDRSH, MLA).  Then the 0-3 left-over channels one by one.

Instruction order and bookkeeping: the DSP four-column loop and the byte loop of a channel
pair follow gcc 12.2 -O2 objdump (-mcpu=cortex-m4 / -mcpu=cortex-m3) of this file; the DSP
loop keeps packed_ip_a0/a1, one accumulator and col_count in stack slots (4 LDR + 4 STR per
step, `fitted_*`: read off the objdump, not a whole-function transcription).  The rest
(requantize/clamp/store, channel setup, the left-over rows) is the C's operations without
gcc's spills.  Measured on conv_s4_3x3_8x8x16_o16_s1_p1 (arm_convolve_s4 called directly,
tests/ops/test_conv_2d_int4.py): 572,625 vs 600,314 dsp_O2 (-4.6%), 494,473 vs 515,020 scalar_O2
(-4.0%); SMLAD/SXTB16/ROR/PKHBT/PKHTB/UXTB/BFI/ORR (dsp) and LDRSB/SBFX/STRH (scalar) equal
the measured histograms.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cbz, cmp, fitted_ldr_sp, fitted_str_sp, ldr, ldrsb,
                            ldrsh, mla, mov, pop_pc, push, sbfx, smlad, strb, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .read_and_pad_s4 import read_and_pad_s4_ordered


@kernel(inline=True)
def _requantize_clamp_store(m, acc, mult_ptr, shift_ptr, out_offset, activation_min,
                            activation_max, out):
    acc = arm_nn_requantize(m, acc, ldr(m, mult_ptr), ldr(m, shift_ptr))
    acc = add(m, acc, out_offset)                     # ch_x_out_y += out_offset;
    acc = max_lt(m, acc, activation_min)              # MAX(ch_x_out_y, activation_min)
    acc = min_gt(m, acc, activation_max)              # MIN(ch_x_out_y, activation_max)
    strb(m, out, acc)                                 # *out_y = (int8_t)ch_x_out_y;


@kernel(inline=True)
def _pair_of_channels(m, packed_ip_a0, packed_ip_a1, ip_b0, ip_b1, num_col_a,
                      c00, c01, c10, c11):
    """The DSP four-column loop and the byte loop of one channel pair (ch on a0, ch + 2 on
    a1) over both columns.  Returns the advanced pointers and the four sums."""
    if m.dsp:
        col_count = asr(m, num_col_a, 2)              # int32_t col_count = num_col_a / 4;
        cbz(m, col_count == 0)
        while col_count:                              # gcc -O2 -mcpu=cortex-m4 objdump order
            fitted_ldr_sp(m)                          # packed_ip_a0 lives on the stack
            b0 = ldr(m, ip_b0)                        # b0 = arm_nn_read_q15x2_ia(&ip_b0);
            fitted_str_sp(m)                          # packed_ip_a0 += 2 (LDRH post-index)
            fitted_ldr_sp(m)                          # packed_ip_a1 lives on the stack
            b1 = ldr(m, ip_b1)
            fitted_str_sp(m)                          # packed_ip_a1 += 2
            a01, a02 = read_and_pad_s4_ordered(m, packed_ip_a0)
            a11, a12 = read_and_pad_s4_ordered(m, packed_ip_a1)
            packed_ip_a0 += 2
            packed_ip_a1 += 2
            fitted_ldr_sp(m)                          # ch_0_out_0 reloaded ...
            c00 = smlad(m, a01, b0, c00)
            c01 = smlad(m, a01, b1, c01)
            c10 = smlad(m, a11, b0, c10)
            c11 = smlad(m, a11, b1, c11)
            b0 = ldr(m, ip_b0 + 4)
            b1 = ldr(m, ip_b1 + 4)
            ip_b0 = add(m, ip_b0, 8)
            ip_b1 = add(m, ip_b1, 8)
            c00 = smlad(m, a02, b0, c00)
            fitted_str_sp(m)                          # ... and spilled again
            c01 = smlad(m, a02, b1, c01)
            c10 = smlad(m, a12, b0, c10)
            c11 = smlad(m, a12, b1, c11)
            fitted_ldr_sp(m)                          # col_count lives on the stack
            col_count = sub(m, col_count, 1)          # col_count--;
            fitted_str_sp(m)
            bcc(m, col_count != 0)
        col_count = (num_col_a & 3) >> 1              # col_count = (num_col_a & 0x3) >> 1;
        sbfx(m, num_col_a, 1, 1)
    else:
        col_count = asr(m, num_col_a, 1)              # int32_t col_count = num_col_a >> 1;
    cbz(m, col_count == 0)
    while col_count:                                  # gcc -O2 -mcpu=cortex-m3 objdump order
        byte0 = ldrsb(m, packed_ip_a0)                # packed_ip_a0[0] (LDRSB pre-index)
        b0 = ldrsh(m, ip_b0)                          # int16_t b0 = *ip_b0++;
        b1 = ldrsh(m, ip_b1)                          # int16_t b1 = *ip_b1++;
        byte1 = ldrsb(m, packed_ip_a1)
        lower_a0 = sbfx(m, byte0, 0, 4)               # (int8_t)(packed_ip_a0[0] << 4) >> 4
        c00 = mla(m, b0, lower_a0, c00)
        c01 = mla(m, b1, lower_a0, c01)
        lower_a1 = sbfx(m, byte1, 0, 4)
        c10 = mla(m, lower_a1, b0, c10)
        c11 = mla(m, lower_a1, b1, c11)
        b0 = ldrsh(m, ip_b0 + 2)
        higher_a0 = asr(m, byte0, 4)                  # packed_ip_a0[0] >> 4
        higher_a1 = asr(m, byte1, 4)
        c00 = mla(m, b0, higher_a0, c00)
        c10 = mla(m, higher_a1, b0, c10)
        ip_b0 = add(m, ip_b0, 4)
        b1 = ldrsh(m, ip_b1 + 2)
        packed_ip_a0 += 1
        packed_ip_a1 += 1
        col_count -= 1
        cmp(m, col_count, 0)                          # (gcc compares ip_b0 with its end)
        c01 = mla(m, b1, higher_a0, c01)
        ip_b1 = add(m, ip_b1, 4)
        c11 = mla(m, higher_a1, b1, c11)
        bcc(m, col_count != 0)
    return packed_ip_a0, packed_ip_a1, ip_b0, ip_b1, c00, c01, c10, c11


@kernel(inline=True)
def _bias_pair(m, bias, offset):
    """(bias[offset], bias[offset + 2]) or zeros for a NULL bias (`if (bias)`)."""
    cbz(m, bias == 0)
    if bias == 0:
        return mov(m, 0), mov(m, 0)
    return ldr(m, bias + 4 * offset), ldr(m, bias + 4 * offset + 8)


@kernel
def arm_nn_mat_mult_kernel_s4_s16(m, packed_input_a, input_b, output_ch, out_shift, out_mult,
                                  out_offset, activation_min, activation_max, num_col_a,
                                  output_bias, out_0):
    """Returns out_0 advanced past both columns (out_0 + 2 * output_ch)."""
    push(m, 9)
    out_1 = add(m, out_0, output_ch)                  # int8_t *out_1 = out_0 + output_ch;
    bias = output_bias
    row_count = asr(m, output_ch, 2)                  # uint16_t row_count = output_ch / 4;
    packed_ip_a0 = packed_input_a
    odd = num_col_a & 1
    cbz(m, row_count == 0)
    while row_count:
        # channels ch (a0) and ch + 2 (a1)
        ip_b0 = input_b
        ip_b1 = add(m, input_b, 2 * num_col_a)        # ip_b1 = ip_b0 + num_col_a;
        packed_ip_a1 = add(m, packed_ip_a0, num_col_a)  # skip a row: + num_col_a bytes
        c0, c1 = _bias_pair(m, bias, 0)
        (packed_ip_a0, packed_ip_a1, ip_b0, ip_b1,
         c00, c01, c10, c11) = _pair_of_channels(m, packed_ip_a0, packed_ip_a1, ip_b0, ip_b1,
                                                 num_col_a, c0, c0, c1, c1)
        spillover0 = 0
        spillover1 = 0
        cmp(m, odd, 0)
        bcc(m, odd == 0)                              # if (num_col_a % 2)
        if odd:
            byte0 = ldrsb(m, packed_ip_a0)
            lower_a0 = sbfx(m, byte0, 0, 4)
            spillover0 = asr(m, byte0, 4)
            b0 = ldrsh(m, ip_b0)
            byte1 = ldrsb(m, packed_ip_a1)
            lower_a1 = sbfx(m, byte1, 0, 4)
            spillover1 = asr(m, byte1, 4)
            b1 = ldrsh(m, ip_b1)
            packed_ip_a0 += 1
            packed_ip_a1 += 1
            c00 = mla(m, lower_a0, b0, c00)
            c01 = mla(m, lower_a0, b1, c01)
            c10 = mla(m, lower_a1, b0, c10)
            c11 = mla(m, lower_a1, b1, c11)
        _requantize_clamp_store(m, c00, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_0)
        _requantize_clamp_store(m, c01, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_1)
        _requantize_clamp_store(m, c10, out_mult + 8, out_shift + 8, out_offset,
                                activation_min, activation_max, out_0 + 2)
        _requantize_clamp_store(m, c11, out_mult + 8, out_shift + 8, out_offset,
                                activation_min, activation_max, out_1 + 2)
        # channels ch + 1 (a0, from the middle byte) and ch + 3 (a1)
        ip_b0 = input_b
        ip_b1 = add(m, input_b, 2 * num_col_a)
        packed_ip_a1 = add(m, packed_ip_a0, num_col_a)
        c0, c1 = _bias_pair(m, bias, 1)
        if bias != 0:
            bias += 16                                # bias += 2; *bias++ (four channels)
        c00, c01, c10, c11 = c0, c0, c1, c1
        cmp(m, odd, 0)
        bcc(m, odd == 0)                              # if (num_col_a % 2): the spilled nibbles
        if odd:
            b0 = ldrsh(m, ip_b0)
            b1 = ldrsh(m, ip_b1)
            ip_b0 += 2
            ip_b1 += 2
            c00 = mla(m, spillover0, b0, c00)
            c01 = mla(m, spillover0, b1, c01)
            c10 = mla(m, spillover1, b0, c10)
            c11 = mla(m, spillover1, b1, c11)
        (packed_ip_a0, packed_ip_a1, ip_b0, ip_b1,
         c00, c01, c10, c11) = _pair_of_channels(m, packed_ip_a0, packed_ip_a1, ip_b0, ip_b1,
                                                 num_col_a, c00, c01, c10, c11)
        _requantize_clamp_store(m, c00, out_mult + 4, out_shift + 4, out_offset,
                                activation_min, activation_max, out_0 + 1)
        _requantize_clamp_store(m, c01, out_mult + 4, out_shift + 4, out_offset,
                                activation_min, activation_max, out_1 + 1)
        _requantize_clamp_store(m, c10, out_mult + 12, out_shift + 12, out_offset,
                                activation_min, activation_max, out_0 + 3)
        _requantize_clamp_store(m, c11, out_mult + 12, out_shift + 12, out_offset,
                                activation_min, activation_max, out_1 + 3)
        out_0 += 4
        out_1 += 4
        out_mult = add(m, out_mult, 16)
        out_shift = add(m, out_shift, 16)
        packed_ip_a0 = add(m, packed_ip_a0, num_col_a)  # skip 2 rows (the a1 rows)
        row_count = sub(m, row_count, 1)
        bcc(m, row_count != 0)

    left_over_rows = 0                                # compute the 0 - 3 rows if any
    rest = output_ch & 3
    cmp(m, rest, 0)
    bcc(m, rest == 0)
    while left_over_rows < rest:
        ip_b0 = input_b
        ip_b1 = add(m, input_b, 2 * num_col_a)
        cbz(m, bias == 0)
        c0 = 0
        if bias != 0:
            c0 = ldr(m, bias)                         # ch_0_out_0 = *bias; ch_0_out_1 = *bias++;
            bias += 4
        c1 = c0
        spilled = left_over_rows == 1 and odd == 1
        cmp(m, left_over_rows, 1)
        bcc(m, not spilled)                           # if (left_over_rows == 1 && num_col_a % 2)
        if spilled:
            b0 = ldrsh(m, ip_b0)
            b1 = ldrsh(m, ip_b1)
            spilled_column = asr(m, ldrsb(m, packed_ip_a0), 4)
            packed_ip_a0 += 1
            ip_b0 += 2
            ip_b1 += 2
            c0 = mla(m, spilled_column, b0, c0)
            c1 = mla(m, spilled_column, b1, c1)
        if m.dsp:
            col_count = asr(m, num_col_a, 2)
            cbz(m, col_count == 0)
            while col_count:
                b0 = ldr(m, ip_b0)
                b1 = ldr(m, ip_b1)
                a01, a02 = read_and_pad_s4_ordered(m, packed_ip_a0)
                packed_ip_a0 += 2
                c0 = smlad(m, a01, b0, c0)
                c1 = smlad(m, a01, b1, c1)
                b0 = ldr(m, ip_b0 + 4)
                b1 = ldr(m, ip_b1 + 4)
                ip_b0 += 8
                ip_b1 += 8
                c0 = smlad(m, a02, b0, c0)
                c1 = smlad(m, a02, b1, c1)
                col_count = sub(m, col_count, 1)
                bcc(m, col_count != 0)
            col_count = (num_col_a & 3) >> 1
            sbfx(m, num_col_a, 1, 1)
        else:
            col_count = asr(m, num_col_a, 1)
        cbz(m, col_count == 0)
        while col_count:
            byte = ldrsb(m, packed_ip_a0)
            a0 = sbfx(m, byte, 0, 4)
            a1 = asr(m, byte, 4)
            b0 = ldrsh(m, ip_b0)
            b1 = ldrsh(m, ip_b1)
            packed_ip_a0 += 1
            c0 = mla(m, a0, b0, c0)
            c1 = mla(m, a0, b1, c1)
            b0 = ldrsh(m, ip_b0 + 2)
            b1 = ldrsh(m, ip_b1 + 2)
            ip_b0 += 4
            ip_b1 += 4
            c0 = mla(m, a1, b0, c0)
            c1 = mla(m, a1, b1, c1)
            col_count = sub(m, col_count, 1)
            bcc(m, col_count != 0)
        # the last (even-numbered) left-over row ends mid-byte when num_col_a is odd
        last_even = odd == 1 and left_over_rows != 1
        cmp(m, odd, 0)
        bcc(m, not last_even)
        if last_even:
            b0 = ldrsh(m, ip_b0)
            b1 = ldrsh(m, ip_b1)
            a0 = sbfx(m, ldrsb(m, packed_ip_a0), 0, 4)
            c0 = mla(m, a0, b0, c0)
            c1 = mla(m, a0, b1, c1)
        _requantize_clamp_store(m, c0, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_0)
        _requantize_clamp_store(m, c1, out_mult, out_shift, out_offset, activation_min,
                                activation_max, out_1)
        out_0 += 1
        out_1 += 1
        out_mult += 4
        out_shift += 4
        left_over_rows += 1
        cmp(m, left_over_rows, rest)
        bcc(m, left_over_rows < rest)
    out_0 = add(m, out_0, output_ch)                  # out_0 += output_ch;
    pop_pc(m, 9)
    return out_0
