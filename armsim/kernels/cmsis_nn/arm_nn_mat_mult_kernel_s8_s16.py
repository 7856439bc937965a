"""arm_nn_mat_mult_kernel_s8_s16 (Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s8_s16.c), non-MVE.

    int8_t *arm_nn_mat_mult_kernel_s8_s16(const int8_t *input_a, const int16_t *input_b,
        const uint16_t output_ch, const int32_t *out_shift, const int32_t *out_mult,
        const int32_t out_offset, const int16_t activation_min, const int16_t activation_max,
        const int32_t num_col_a, const int32_t aligned_num_col_a,
        const int32_t *const output_bias, int8_t *out_0)

The GEMM of arm_convolve_s8: int8 weights (input_a, one row of num_col_a per output channel)
times two int16 im2col columns (input_b, the second at + aligned_num_col_a), two output
channels x two columns per step.  ARM_MATH_DSP: four columns per step, the weights widened
by read_and_pad_reordered (gcc keeps its ROR), eight SMLAD; then num_col_a % 4 single MACs.
Plain C: one column per step (LDRSB/LDRSH + four MLA).  Each result: arm_nn_requantize, +
out_offset, clamp, store; column 0 to out_0, column 1 to out_1 = out_0 + output_ch.  An odd
last channel is done alone.

Transcribed from gcc 12.2 -O2's disassembly of this file (-mcpu=cortex-m4 with ARM_MATH_DSP,
-mcpu=cortex-m3 without), both builds in their own order: the prologue that computes and
spills the loop invariants (row pairs, the four-column count and the end of out_1, on whose
address the row loop's test is made), the row loop with its bias and empty-loop branches,
the 26 instructions of a four-column step (M4) and the 10 of a column (both), the four
requantizations and clamps interleaved with the reloads of the stacked arguments, and the
odd channel (in the M4 build its left-over columns use LDRH + SMLABB, and its second clamp
compares the other way round).  Struct-free: every argument is the C's.

`mat_mult_kernel_body` is shared with arm_nn_mat_mult_kernel_row_offset_s8_s16 (grouped
convolution), whose loops are these and whose set-up differs (`row_offset`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, cbz, cmp, it, ldr, ldr_sp, ldrd, ldrd_sp, ldrh,
                            ldrsb, ldrsh, ldrsh_sp, lsl, lsr, mla, mov, pop_pc, push, ror, rsb,
                            smlabb, smlad, str_sp, strb, strd_sp, sub, sxtb16, tst, uxth)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_requantize import requantize_inlined

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _max_reversed(m, lo, x):
    """MAX(x, lo) compiled as CMP lo, x; IT LT; MOVLT lo, x (the result in lo's register):
    the MOV runs when x > lo."""
    cmp(m, lo, x)
    keep = lo < x
    it(m, not keep)
    if keep:
        lo = mov(m, x)
    return lo


@kernel(inline=True)
def _min_reversed(m, hi, x):
    """MIN(x, hi) compiled as CMP hi, x; IT GE; MOVGE hi, x: the MOV runs when x <= hi."""
    cmp(m, hi, x)
    keep = hi >= x
    it(m, not keep)
    if keep:
        hi = mov(m, x)
    return hi


@kernel(inline=True)
def _clamp_store(m, acc, out_offset, activation_min, activation_max, out, reload_out):
    """ch += out_offset; MAX; MIN; *out = (int8_t)ch: each argument reloaded from the
    stack (LDR, ADD; LDR, CMP, IT LT, MOVLT; LDR, CMP, IT GE, MOVGE), then the output
    pointer (`reload_out`) and STRB."""
    ldr_sp(m)                                         # out_offset
    acc = add(m, acc, out_offset)                     # ch += out_offset;
    ldr_sp(m)                                         # activation_min
    acc = max_lt(m, acc, activation_min)              # ch = MAX(ch, activation_min);
    ldr_sp(m)                                         # activation_max
    acc = min_ge(m, acc, activation_max)              # ch = MIN(ch, activation_max);
    if reload_out:
        ldr_sp(m)
    strb(m, out, acc)                                 # *out++ = (int8_t)ch;


@kernel(inline=True)
def _dsp_columns(m, ip_a0, ip_a1, ip_b0, ip_b1, col_count, c00, c01, c10, c11):
    """while (col_count): gcc -O2 (M4), 26 instructions a step; ip_a1 lives on the stack."""
    for j in range(col_count, 0, -1):
        ldr_sp(m)                                     # ip_a1
        a0 = ldr(m, ip_a0)                            # read_and_pad_reordered(ip_a0, ...)
        ip_a0 += 4
        a1 = ldr(m, ip_a1)                            # read_and_pad_reordered(ip_a1, ...)
        ip_a1 += 4
        str_sp(m)
        a0r = ror(m, a0, 8)
        a1r = ror(m, a1, 8)
        b0 = ldr(m, ip_b0)                            # b0 = arm_nn_read_q15x2_ia(&ip_b0);
        b1 = ldr(m, ip_b1)                            # b1 = arm_nn_read_q15x2_ia(&ip_b1);
        a01 = sxtb16(m, a0, 0)
        a02 = sxtb16(m, a0r, 0)
        a11 = sxtb16(m, a1, 0)
        a12 = sxtb16(m, a1r, 0)
        c00 = smlad(m, a01, b0, c00)                  # ch_0_out_0 = SMLAD(a01, b0, ch_0_out_0);
        c01 = smlad(m, a01, b1, c01)                  # ch_0_out_1 = SMLAD(a01, b1, ch_0_out_1);
        c10 = smlad(m, a11, b0, c10)                  # ch_1_out_0 = SMLAD(a11, b0, ch_1_out_0);
        c11 = smlad(m, a11, b1, c11)                  # ch_1_out_1 = SMLAD(a11, b1, ch_1_out_1);
        b0 = ldr(m, ip_b0 + 4)                        # b0 = arm_nn_read_q15x2_ia(&ip_b0);
        b1 = ldr(m, ip_b1 + 4)                        # b1 = arm_nn_read_q15x2_ia(&ip_b1);
        ip_b0 = add(m, ip_b0, 8)
        ip_b1 = add(m, ip_b1, 8)
        c00 = smlad(m, a02, b0, c00)                  # ch_0_out_0 = SMLAD(a02, b0, ch_0_out_0);
        c01 = smlad(m, a02, b1, c01)                  # ch_0_out_1 = SMLAD(a02, b1, ch_0_out_1);
        c10 = smlad(m, a12, b0, c10)                  # ch_1_out_0 = SMLAD(a12, b0, ch_1_out_0);
        c11 = smlad(m, a12, b1, c11)                  # ch_1_out_1 = SMLAD(a12, b1, ch_1_out_1);
        sub(m, j, 1)                                  # col_count--;  (subs.w ip, ip, #1)
        bcc(m, j != 1)                                # bne
    return ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11


@kernel(inline=True)
def _single_columns(m, ip_a0, ip_a1, ip_b0, ip_b1, col_count, c00, c01, c10, c11):
    """while (col_count): one column of both channels and both columns, 10 instructions
    (M4: a0, b0, a1, two MLA, b1, CMP, two MLA; M3: a0, b0, b1, two MLA, a1, CMP, two MLA)."""
    for c in range(col_count):
        a0 = ldrsb(m, ip_a0)                          # int8_t a0 = *ip_a0++;
        ip_a0 += 1
        b0 = ldrsh(m, ip_b0)                          # int16_t b0 = *ip_b0++;
        ip_b0 += 2
        if m.dsp:
            a1 = ldrsb(m, ip_a1)                      # int8_t a1 = *ip_a1++;
            c00 = mla(m, b0, a0, c00)                 # ch_0_out_0 += a0 * b0;
            c10 = mla(m, b0, a1, c10)                 # ch_1_out_0 += a1 * b0;
            b1 = ldrsh(m, ip_b1)                      # int16_t b1 = *ip_b1++;
            cmp(m, c + 1, col_count)
            c01 = mla(m, b1, a0, c01)                 # ch_0_out_1 += a0 * b1;
            c11 = mla(m, b1, a1, c11)                 # ch_1_out_1 += a1 * b1;
        else:
            b1 = ldrsh(m, ip_b1)
            c00 = mla(m, b0, a0, c00)
            c01 = mla(m, b1, a0, c01)
            a1 = ldrsb(m, ip_a1)
            cmp(m, c + 1, col_count)
            c10 = mla(m, a1, b0, c10)
            c11 = mla(m, a1, b1, c11)
        ip_a1 += 1
        ip_b1 += 2
        bcc(m, c + 1 < col_count)                     # bne
    return ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11


@kernel(inline=True)
def _dsp_rows(m, ip_a0, input_b, row_count, out_shift, out_mult, out_offset, activation_min,
              activation_max, num_col_a, aligned_num_col_a, bias, out_0, out_1):
    """The row-pair loop of the M4 build (0x92-0x2e8).  Returns the advanced pointers."""
    col_count = num_col_a // 4 if num_col_a >= 0 else -((-num_col_a) // 4)  # num_col_a / 4
    left_over = num_col_a & 3
    for row in range(row_count):
        ldr_sp(m)                                     # num_col_a
        ip_a1 = add(m, ip_a0, num_col_a)              # const int8_t *ip_a1 = ip_a0 + num_col_a;
        ldr_sp(m)                                     # bias
        cmp(m, bias, 0)                               # if (bias)
        bcc(m, bias == 0)                             # beq.w
        if bias != 0:
            ldr_sp(m)
            c00 = ldr(m, bias)                        # ch_0_out_0 = *bias;  ch_0_out_1 = *bias++;
            c10 = ldr(m, bias + 4)                    # ch_1_out_0 = *bias;  ch_1_out_1 = *bias++;
            bias = add(m, bias, 8)
            str_sp(m)
            ldr_sp(m)                                 # col_count
            cmp(m, col_count, 0)                      # while (col_count)
            bcc(m, col_count == 0)                    # beq.w
        else:
            c00 = 0
            c10 = 0
            ldr_sp(m)                                 # (the NULL bias, as the accumulators)
            ldr_sp(m)                                 # col_count
            mov(m, 0)
            cmp(m, col_count, 0)
            bcc(m, col_count != 0)                    # bne.w
        c01 = c00
        c11 = c10
        ip_b0 = input_b                               # const int16_t *ip_b0 = input_b;
        ip_b1 = input_b + 2 * aligned_num_col_a       # ip_b1 = ip_b0 + aligned_num_col_a;
        if col_count:
            ldrd_sp(m)                                # ip_b0, ip_b1
            strd_sp(m)
            strd_sp(m)
            mov(m, col_count)
            mov(m, c10)
            mov(m, c00)
            str_sp(m)                                 # ip_a1
            mov(m, ip_a0)
            ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11 = _dsp_columns(
                m, ip_a0, ip_a1, ip_b0, ip_b1, col_count, c00, c01, c10, c11)
            ldrd_sp(m)
            ldrd_sp(m)
            ldr_sp(m)
            add(m, 0, 0)                              # ip_a1, ip_a0 past the four-column steps
            add(m, 0, 0)
            ldr_sp(m)                                 # num_col_a & 0x3
            ldrd_sp(m)                                # ip_b0, ip_b1 past them
            cmp(m, left_over, 0)                      # while (col_count)
            bcc(m, left_over == 0)                    # beq.w
        else:
            ldr_sp(m)                                 # num_col_a & 0x3
            ldrd_sp(m)
            mov(m, c10)
            mov(m, c00)
            cmp(m, left_over, 0)
            bcc(m, left_over != 0)                    # bne.w
        if left_over:
            add(m, ip_a0, left_over)                  # the loop's end
            ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11 = _single_columns(
                m, ip_a0, ip_a1, ip_b0, ip_b1, left_over, c00, c01, c10, c11)
        else:
            mov(m, ip_a0)
            b(m)
        shift = ldr(m, out_shift)
        c00 = requantize_inlined(m, c00, out_mult, shift, False)  # arm_nn_requantize(ch_0_out_0, *out_mult, *out_shift)
        _clamp_store(m, c00, out_offset, activation_min, activation_max, out_0, True)
        shift = ldr(m, out_shift)
        c01 = requantize_inlined(m, c01, out_mult, shift, False)
        _clamp_store(m, c01, out_offset, activation_min, activation_max, out_1, True)
        shift = ldr(m, out_shift + 4)                 # out_mult++; out_shift++;
        c10 = requantize_inlined(m, c10, out_mult + 4, shift, False)
        _clamp_store(m, c10, out_offset, activation_min, activation_max, out_0 + 1, True)
        shift = ldr(m, out_shift + 4)
        c11 = requantize_inlined(m, c11, out_mult + 4, shift, False)
        _clamp_store(m, c11, out_offset, activation_min, activation_max, out_1 + 1, True)
        ldr_sp(m)                                     # num_col_a
        ip_a0 = add(m, ip_a0, num_col_a)              # ip_a0 += num_col_a;  (skip row)
        ldr_sp(m)
        out_0 = add(m, out_0, 2)
        str_sp(m)
        ldr_sp(m)                                     # the end of out_1
        out_1 = add(m, out_1, 2)
        cmp(m, row + 1, row_count)                    # row_count--  (out_1 against its end)
        str_sp(m)
        out_mult = add(m, out_mult, 8)
        out_shift = add(m, out_shift, 8)
        bcc(m, row + 1 < row_count)                   # bne.w
    return ip_a0, bias, out_shift, out_mult, out_0, out_1


@kernel(inline=True)
def _scalar_rows(m, ip_a0, input_b, row_count, out_shift, out_mult, out_offset,
                 activation_min, activation_max, num_col_a, aligned_num_col_a, bias, out_0,
                 out_1):
    """The row-pair loop of the M3 build (0x64-0x242).  Returns the advanced pointers."""
    for row in range(row_count):
        ldr_sp(m)                                     # num_col_a
        ip_a1 = add(m, ip_a0, num_col_a)              # const int8_t *ip_a1 = ip_a0 + num_col_a;
        cmp(m, bias, 0)                               # if (bias)
        bcc(m, bias == 0)                             # beq.w
        if bias != 0:
            c00, c10 = ldrd(m, bias)                  # ch_0_out_0 = *bias; ... ch_1_out_1 = *bias++;
            ldr_sp(m)                                 # num_col_a
            bias = add(m, bias, 8)
            cmp(m, num_col_a, 0)                      # while (col_count)
            bcc(m, num_col_a == 0)                    # beq.w
        else:
            c00 = 0
            c10 = 0
            ldr_sp(m)
            mov(m, 0)
            mov(m, 0)
            cmp(m, num_col_a, 0)
            bcc(m, num_col_a != 0)                    # bne.w
        c01 = c00
        c11 = c10
        ip_b0 = input_b
        ip_b1 = input_b + 2 * aligned_num_col_a
        if num_col_a:
            ldrd_sp(m)                                # ip_b0, ip_b1
            mov(m, c10)
            mov(m, c00)
            mov(m, ip_a1)
            strd_sp(m)
            str_sp(m)
            ip_a0, ip_a1, ip_b0, ip_b1, c00, c01, c10, c11 = _single_columns(
                m, ip_a0, ip_a1, ip_b0, ip_b1, num_col_a, c00, c01, c10, c11)
            ldrd_sp(m)                                # ip_a1 as it was, out_shift
            ldr_sp(m)
            ldr_sp(m)
            ip_a0 = add(m, ip_a0, num_col_a)          # ip_a0 += num_col_a;  (skip row)
        else:
            ip_a0 = mov(m, ip_a1)
            mov(m, c10)
            mov(m, c00)
            b(m)
        shift = ldr(m, out_shift)
        c00 = requantize_inlined(m, c00, out_mult, shift, True)
        _clamp_store(m, c00, out_offset, activation_min, activation_max, out_0, True)
        shift = ldr(m, out_shift)
        c01 = requantize_inlined(m, c01, out_mult, shift, False)
        _clamp_store(m, c01, out_offset, activation_min, activation_max, out_1, False)
        shift = ldr(m, out_shift + 4)                 # out_mult++; out_shift++;
        c10 = requantize_inlined(m, c10, out_mult + 4, shift, False)
        _clamp_store(m, c10, out_offset, activation_min, activation_max, out_0 + 1, True)
        shift = ldr(m, out_shift + 4)
        c11 = requantize_inlined(m, c11, out_mult + 4, shift, True)
        # the clamp of ch_1_out_1 with the pointers' updates (0x218-0x242)
        ldr_sp(m)                                     # out_offset
        out_1 = add(m, out_1, 2)
        c11 = add(m, c11, out_offset)
        ldr_sp(m)
        out_mult = add(m, out_mult, 8)
        c11 = max_lt(m, c11, activation_min)
        ldr_sp(m)                                     # out_0
        out_shift = add(m, out_shift, 8)
        out_0 = add(m, out_0, 2)
        str_sp(m)
        ldr_sp(m)
        c11 = min_ge(m, c11, activation_max)
        ldr_sp(m)                                     # the end of out_1
        strb(m, out_1 - 1, c11)                       # *out_1++ = (int8_t)ch_1_out_1;
        cmp(m, row + 1, row_count)                    # row_count--  (out_1 against its end)
        bcc(m, row + 1 < row_count)                   # bne.w
    return ip_a0, bias, out_shift, out_mult, out_0, out_1


@kernel(inline=True)
def _dsp_odd(m, ip_a0, input_b, out_shift, out_mult, out_offset, activation_min,
             activation_max, num_col_a, aligned_num_col_a, bias, out_0, out_1):
    """if (output_ch & 0x1), M4 build (0x318-0x45e)."""
    ldr_sp(m)                                         # input_b
    ip_b0 = input_b
    ip_b1 = add(m, input_b, 2 * aligned_num_col_a)    # ip_b1 = ip_b0 + aligned_num_col_a;
    ldr_sp(m)                                         # bias
    cmp(m, bias, 0)                                   # if (bias)
    bcc(m, bias == 0)                                 # beq.w
    if bias != 0:
        c0 = ldr(m, bias)                             # ch_0_out_0 = *bias; ch_0_out_1 = *bias++;
    else:
        c0 = 0
        ldr_sp(m)                                     # (the NULL bias, as the accumulator)
        b(m)
    ldr_sp(m)                                         # num_col_a
    col_count = asr(m, num_col_a, 2)                  # int32_t col_count = num_col_a >> 2;  (ASRS)
    bcc(m, col_count == 0)                            # beq.w
    c1 = c0
    if col_count != 0:
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, col_count)
        c1 = mov(m, c0)
        mov(m, ip_a0)
        str_sp(m)
        for j in range(col_count, 0, -1):
            a0 = ldr(m, ip_a0)                        # read_and_pad_reordered(ip_a0, &a01, &a02)
            ip_a0 += 4
            b0 = ldr(m, ip_b0)                        # b0 = arm_nn_read_q15x2_ia(&ip_b0);
            a0r = ror(m, a0, 8)
            a01 = sxtb16(m, a0, 0)
            a02 = sxtb16(m, a0r, 0)
            c0 = smlad(m, a01, b0, c0)                # ch_0_out_0 = SMLAD(a01, b0, ch_0_out_0);
            b1 = ldr(m, ip_b1)                        # b1 = arm_nn_read_q15x2_ia(&ip_b1);
            c1 = smlad(m, a01, b1, c1)                # ch_0_out_1 = SMLAD(a01, b1, ch_0_out_1);
            b0 = ldr(m, ip_b0 + 4)
            b1 = ldr(m, ip_b1 + 4)
            ip_b0 = add(m, ip_b0, 8)
            ip_b1 = add(m, ip_b1, 8)
            c0 = smlad(m, a02, b0, c0)                # ch_0_out_0 = SMLAD(a02, b0, ch_0_out_0);
            c1 = smlad(m, a02, b1, c1)                # ch_0_out_1 = SMLAD(a02, b1, ch_0_out_1);
            sub(m, j, 1)                              # col_count--;
            bcc(m, j != 1)                            # bne
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        add(m, 0, 0)
        str_sp(m)
        add(m, 0, 0)
    else:
        c1 = mov(m, c0)
        b(m)
    ldr_sp(m)                                         # num_col_a
    left_over = and_(m, num_col_a, 3)                 # col_count = num_col_a & 0x3;  (ANDS)
    bcc(m, left_over == 0)                            # beq
    if left_over:
        ldr_sp(m)
        add(m, ip_a0, left_over)                      # the loop's end
        for c in range(left_over):
            a0 = ldrsb(m, ip_a0)                      # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrh(m, ip_b0)                       # int16_t b0 = *ip_b0++;  (LDRH: SMLABB reads it signed)
            ip_b0 += 2
            c0 = smlabb(m, b0, a0, c0)                # ch_0_out_0 += a0 * b0;
            b1 = ldrh(m, ip_b1)                       # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            cmp(m, c + 1, left_over)
            c1 = smlabb(m, b1, a0, c1)                # ch_0_out_1 += a0 * b1;
            bcc(m, c + 1 < left_over)                 # bne
    shift = ldr(m, out_shift)
    ldr_sp(m)                                         # out_mult
    c0 = requantize_inlined(m, c0, out_mult, shift, False)
    ldr_sp(m)                                         # out_offset
    ldr_sp(m)                                         # activation_max
    c0 = add(m, c0, out_offset)
    ldr_sp(m)                                         # activation_min
    c0 = max_lt(m, c0, activation_min)
    cmp(m, c0, activation_max)                        # MIN(ch_0_out_0, activation_max)
    mov(m, out_0)
    clamp = c0 >= activation_max
    it(m, not clamp)
    if clamp:
        c0 = mov(m, activation_max)
    strb(m, out_0, c0)                                # *out_0++ = (int8_t)ch_0_out_0;
    ldr_sp(m)                                         # out_mult
    shift = ldr(m, out_shift)
    c1 = requantize_inlined(m, c1, out_mult, shift, False)
    ldr_sp(m)                                         # out_offset
    c1 = add(m, c1, out_offset)
    ldr_sp(m)
    c1 = _max_reversed(m, activation_min, c1)         # MAX(ch_0_out_1, activation_min)
    c1 = mov(m, c1)
    ldr_sp(m)
    c1 = _min_reversed(m, activation_max, c1)         # MIN(ch_0_out_1, activation_max)
    strb(m, out_1, c1)                                # *out_1++ = (int8_t)ch_0_out_1;
    mov(m, out_0 + 1)
    return out_0 + 1


@kernel(inline=True)
def _scalar_odd(m, ip_a0, input_b, out_shift, out_mult, out_offset, activation_min,
                activation_max, num_col_a, aligned_num_col_a, bias, out_0, out_1, row_offset):
    """if (output_ch & 0x1), M3 build (0x26e-0x360)."""
    ldr_sp(m)                                         # input_b
    ip_b0 = input_b
    ip_b1 = add(m, input_b, 2 * aligned_num_col_a)    # ip_b1 = ip_b0 + aligned_num_col_a;
    cbz(m, bias == 0)                                 # if (bias)
    c0 = 0
    if bias != 0:
        c0 = ldr(m, bias)                             # ch_0_out_0 = *bias; ch_0_out_1 = *bias++;
    ldr_sp(m)                                         # num_col_a
    cmp(m, num_col_a, 0)                              # while (col_count)
    bcc(m, num_col_a == 0)                            # beq
    c1 = mov(m, c0)
    if num_col_a:
        ldr_sp(m)
        add(m, ip_a0, num_col_a)                      # the loop's end
        for c in range(num_col_a):
            a0 = ldrsb(m, ip_a0)                      # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrsh(m, ip_b0)                      # int16_t b0 = *ip_b0++;
            ip_b0 += 2
            cmp(m, c + 1, num_col_a)
            c0 = mla(m, a0, b0, c0)                   # ch_0_out_0 += a0 * b0;
            b1 = ldrsh(m, ip_b1)                      # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            c1 = mla(m, a0, b1, c1)                   # ch_0_out_1 += a0 * b1;
            bcc(m, c + 1 < num_col_a)                 # bne
    else:
        b(m)
    # (gcc issues the next requantization's MOVS #0 / MOV #1 << 30 inside this clamp)
    shift = ldr(m, out_shift)
    if not row_offset:
        ldr_sp(m)                                     # out_mult (row_offset: in a register)
    c0 = requantize_inlined(m, c0, out_mult, shift, True)
    ldr_sp(m)                                         # out_offset
    c0 = add(m, out_offset, c0)
    ldr_sp(m)
    mov(m, out_0)
    c0 = max_lt(m, c0, activation_min)
    ldr_sp(m)
    c0 = min_ge(m, c0, activation_max)
    strb(m, out_0, c0)                                # *out_0++ = (int8_t)ch_0_out_0;
    shift = ldr(m, out_shift)
    if not row_offset:
        ldr_sp(m)                                     # out_mult
    c1 = requantize_inlined(m, c1, out_mult, shift, True)
    ldr_sp(m)                                         # out_offset
    mov(m, out_0 + 1)
    c1 = add(m, c1, out_offset)
    ldr_sp(m)
    c1 = _max_reversed(m, activation_min, c1)         # MAX(ch_0_out_1, activation_min)
    c1 = mov(m, c1)
    ldr_sp(m)
    c1 = _min_reversed(m, activation_max, c1)         # MIN(ch_0_out_1, activation_max)
    strb(m, out_1, c1)                                # *out_1++ = (int8_t)ch_0_out_1;
    return out_0 + 1


@kernel(inline=True)
def mat_mult_kernel_body(m, input_a, input_b, output_ch, out_shift, out_mult, out_offset,
                         activation_min, activation_max, num_col_a, aligned_num_col_a,
                         output_bias, row_address_offset, out_0, row_offset):
    """The C of both GEMM kernels; `row_offset` selects
    arm_nn_mat_mult_kernel_row_offset_s8_s16's set-up (out_1 = out_0 + row_address_offset)."""
    row_count = output_ch >> 1                        # uint16_t row_count = output_ch / 2;
    bias = output_bias
    ip_a0 = input_a
    push(m, 9)                                        # push {r4-r11, lr}
    if m.dsp:
        sub(m, 0, 0)                                  # sub sp, #92
        mov(m, 0)                                     # out_shift
        ldrsh_sp(m)                                   # activation_min (int16, stacked)
        if row_offset:
            str_sp(m)
            ldrsh_sp(m)                               # activation_max
            ldr_sp(m)                                 # out_0
            str_sp(m)
            ldr_sp(m)                                 # row_address_offset
            str_sp(m)                                 # input_b
            mov(m, 0)                                 # output_ch
            out_1 = add(m, out_0, row_address_offset)  # int8_t *out_1 = out_0 + row_address_offset;
            lsr(m, output_ch, 1)                      # lsrs.w: uint16_t row_count = output_ch / 2;
            mov(m, 0)                                 # input_a
            ldr_sp(m)                                 # aligned_num_col_a
        else:
            ldr_sp(m)                                 # out_0
            str_sp(m)
            mov(m, 0)                                 # output_ch
            ldrsh_sp(m)                               # activation_max
            str_sp(m)
            lsr(m, output_ch, 1)                      # lsrs.w: uint16_t row_count = output_ch / 2;
            ldr_sp(m)                                 # aligned_num_col_a
            str_sp(m)                                 # input_b
            mov(m, 0)                                 # input_a
            out_1 = add(m, out_0, row_address_offset)  # int8_t *out_1 = out_0 + output_ch;
        bcc(m, row_count == 0)                        # beq.w: while (row_count)
        if row_count:
            _dsp_prologue(m, num_col_a, row_count, row_offset)
            ip_a0, bias, out_shift, out_mult, out_0, out_1 = _dsp_rows(
                m, ip_a0, input_b, row_count, out_shift, out_mult, out_offset,
                activation_min, activation_max, num_col_a, aligned_num_col_a, bias, out_0,
                out_1)
            ldrd_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            ldrd_sp(m)
            mov(m, ip_a0)
            add(m, 0, 0)                              # out_mult, out_0, out_1, out_shift advanced
            ldr_sp(m)
            str_sp(m)
            add(m, 0, 0)
            add(m, 0, 0)
            add(m, 0, 0)
        odd = output_ch & 1
        tst(m, output_ch, 1)                          # if (output_ch & 0x1)
        bcc(m, odd == 0)                              # beq.w
        if odd:
            out_0 = _dsp_odd(m, ip_a0, input_b, out_shift, out_mult, out_offset,
                             activation_min, activation_max, num_col_a, aligned_num_col_a,
                             bias, out_0, out_1)
        if row_offset:                                # out_0 += 2 * row_address_offset - output_ch;
            ldr_sp(m)
            out_0 = add(m, out_0, rsb(m, output_ch, 2 * row_address_offset))
        else:
            out_0 = add(m, out_0, output_ch)          # out_0 += output_ch;
    else:
        mov(m, 0)                                     # input_b
        sub(m, 0, 0)                                  # sub sp, #60
        ldrsh_sp(m)                                   # activation_min
        if row_offset:
            mov(m, 0)                                 # out_shift
            ldr_sp(m)                                 # out_0
            ldr_sp(m)                                 # row_address_offset
            str_sp(m)
            ldrsh_sp(m)                               # activation_max
            mov(m, 0)
            str_sp(m)
            out_1 = add(m, out_0, row_address_offset)  # int8_t *out_1 = out_0 + row_address_offset;
            lsr(m, output_ch, 1)                      # lsrs: uint16_t row_count = output_ch / 2;
            str_sp(m)
            ldr_sp(m)                                 # out_mult
            str_sp(m)                                 # output_ch
        else:
            ldr_sp(m)                                 # out_0
            str_sp(m)
            ldrsh_sp(m)                               # activation_max
            mov(m, 0)                                 # out_shift
            lsr(m, output_ch, 1)                      # lsrs: uint16_t row_count = output_ch / 2;
            mov(m, 0)
            str_sp(m)
            str_sp(m)
            mov(m, 0)                                 # output_ch
        ldrd_sp(m)                                    # aligned_num_col_a, output_bias
        if not row_offset:
            out_1 = add(m, out_0, row_address_offset)  # int8_t *out_1 = out_0 + output_ch;
        bcc(m, row_count == 0)                        # beq.w: while (row_count)
        if row_count:
            _scalar_prologue(m, row_count, row_offset)
            ip_a0, bias, out_shift, out_mult, out_0, out_1 = _scalar_rows(
                m, ip_a0, input_b, row_count, out_shift, out_mult, out_offset,
                activation_min, activation_max, num_col_a, aligned_num_col_a, bias, out_0,
                out_1)
            if row_offset:
                ldr_sp(m)
                mov(m, bias)
                for _ in range(5):
                    ldr_sp(m)
                add(m, 0, 0)                          # out_0, out_1, out_mult, out_shift advanced
                add(m, 0, 0)
                add(m, 0, 0)
                add(m, 0, 0)
            else:
                ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                mov(m, bias)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)                          # out_mult, out_0, out_1, out_shift advanced
                ldr_sp(m)
                add(m, 0, 0)
                add(m, 0, 0)
                str_sp(m)
                add(m, 0, 0)
        odd = output_ch & 1
        if row_offset:
            ldr_sp(m)                                 # output_ch
        lsl(m, output_ch, 31)                         # lsls: if (output_ch & 0x1)
        bcc(m, odd == 0)                              # bpl
        if odd:
            out_0 = _scalar_odd(m, ip_a0, input_b, out_shift, out_mult, out_offset,
                                activation_min, activation_max, num_col_a, aligned_num_col_a,
                                bias, out_0, out_1, row_offset)
        if row_offset:                                # out_0 += 2 * row_address_offset - output_ch;
            ldr_sp(m)
            ldr_sp(m)
            out_0 = add(m, out_0, rsb(m, output_ch, 2 * row_address_offset))
        else:
            out_0 = add(m, out_0, output_ch)          # out_0 += output_ch;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return out_0


@kernel(inline=True)
def _dsp_prologue(m, num_col_a, row_count, row_offset):
    """The M4 build's loop invariants (0x2c-0x90): ip_b1's offset, num_col_a / 4 (with the
    sign fix-up, IT LT), num_col_a & 3, the end of out_1 (uint16_t(row_count - 1)), the
    pointers +8 / +2 the row loop addresses from; all spilled."""
    if row_offset:
        _dsp_prologue_row_offset(m, num_col_a, row_count)
        return
    add(m, 0, 0)
    str_sp(m)
    ldr_sp(m)                                         # num_col_a
    str_sp(m)
    cmp(m, num_col_a, 0)
    it(m, num_col_a >= 0)                             # addlt: num_col_a / 4 rounds to zero
    if num_col_a < 0:
        add(m, num_col_a, 3)
    asr(m, num_col_a, 2)                              # int32_t col_count = num_col_a / 4;
    sub(m, row_count, 1)
    add(m, 0, 4)
    uxth(m, row_count - 1, 0)
    add(m, 0, 0)                                      # the end of out_1
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    add(m, 0, 0)
    and_(m, num_col_a, 3)                             # col_count = num_col_a & 0x3;
    str_sp(m)
    str_sp(m)
    add(m, 0, 2)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)                                         # out_mult
    str_sp(m)
    add(m, 0, 0)
    strd_sp(m)
    strd_sp(m)
    add(m, 0, 2)
    add(m, 0, 8)
    add(m, 0, 8)
    str_sp(m)
    lsl(m, 0, 2)
    str_sp(m)
    mov(m, 0)
    mov(m, 0)
    str_sp(m)
    mov(m, 0)


@kernel(inline=True)
def _scalar_prologue(m, row_count, row_offset):
    """The M3 build's loop invariants (0x2c-0x62)."""
    if row_offset:
        _scalar_prologue_row_offset(m, row_count)
        return
    sub(m, row_count, 1)
    add(m, 0, 4)
    uxth(m, row_count - 1, 0)
    add(m, 0, 0)                                      # the end of out_1
    mov(m, 0)
    str_sp(m)
    add(m, 0, 0)                                      # ip_b1
    ldr_sp(m)                                         # num_col_a
    add(m, 0, 8)
    strd_sp(m)
    add(m, 0, 2)
    add(m, 0, 0)
    mov(m, 0)
    mov(m, 0)
    str_sp(m)
    add(m, 0, 2)
    str_sp(m)
    strd_sp(m)
    ldr_sp(m)                                         # out_mult
    add(m, 0, 8)


@kernel(inline=True)
def _dsp_prologue_row_offset(m, num_col_a, row_count):
    """arm_nn_mat_mult_kernel_row_offset_s8_s16's M4 loop invariants (0x2e-0x90)."""
    add(m, 0, 0)                                      # ip_b1's offset
    str_sp(m)
    ldr_sp(m)                                         # num_col_a
    ldr_sp(m)
    str_sp(m)
    cmp(m, num_col_a, 0)
    it(m, num_col_a >= 0)                             # addlt: num_col_a / 4 rounds to zero
    if num_col_a < 0:
        add(m, num_col_a, 3)
    asr(m, num_col_a, 2)                              # int32_t col_count = num_col_a / 4;
    sub(m, row_count, 1)
    uxth(m, row_count - 1, 0)
    add(m, 0, 0)
    add(m, 0, 4)                                      # the end of out_1
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    and_(m, num_col_a, 3)                             # col_count = num_col_a & 0x3;
    add(m, 0, 0)
    str_sp(m)
    add(m, 0, 2)
    str_sp(m)
    str_sp(m)
    ldr_sp(m)                                         # out_mult
    ldr_sp(m)
    str_sp(m)
    strd_sp(m)
    strd_sp(m)
    add(m, 0, 0)
    add(m, 0, 2)
    lsl(m, 0, 2)
    add(m, 0, 8)
    add(m, 0, 8)
    str_sp(m)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    mov(m, 0)
    mov(m, 0)


@kernel(inline=True)
def _scalar_prologue_row_offset(m, row_count):
    """arm_nn_mat_mult_kernel_row_offset_s8_s16's M3 loop invariants (0x30-0x62)."""
    sub(m, row_count, 1)
    uxth(m, row_count - 1, 0)
    add(m, 0, 0)
    add(m, 0, 4)                                      # the end of out_1
    str_sp(m)
    add(m, 0, 8)
    add(m, 0, 0)                                      # ip_b1
    strd_sp(m)
    str_sp(m)
    add(m, 0, 2)
    add(m, 0, 2)
    mov(m, 0)
    mov(m, 0)
    ldr_sp(m)                                         # num_col_a
    str_sp(m)
    add(m, 0, 0)
    add(m, 0, 8)
    str_sp(m)


@kernel
def arm_nn_mat_mult_kernel_s8_s16(m, input_a, input_b, output_ch, out_shift, out_mult,
                                  out_offset, activation_min, activation_max, num_col_a,
                                  aligned_num_col_a, output_bias, out_0):
    """Returns the output pointer advanced past the two columns (out_0 += output_ch)."""
    return mat_mult_kernel_body(m, input_a, input_b, output_ch, out_shift, out_mult,
                                out_offset, activation_min, activation_max, num_col_a,
                                aligned_num_col_a, output_bias, output_ch, out_0, False)
