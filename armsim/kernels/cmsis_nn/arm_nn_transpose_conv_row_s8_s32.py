"""arm_nn_transpose_conv_row_s8_s32 (Source/NNSupportFunctions/arm_nn_transpose_conv_row_s8_s32.c), non-MVE.

    arm_cmsis_nn_status arm_nn_transpose_conv_row_s8_s32(const int8_t *lhs, const int8_t *rhs,
        int32_t *output_start, const int32_t output_index, const int32_t output_max,
        const int32_t rhs_rows, const int32_t rhs_cols, const int32_t input_channels,
        const int32_t output_channels, const int32_t lhs_offset, const int32_t row_offset,
        const int32_t input_x, const int32_t stride_x, const int32_t skip_rows_top,
        const int32_t skip_rows_bottom)

One input row of arm_transpose_conv_s8 scattered into the int32 rolling buffer: input
pixels four at a time (then a pair, then a single one); for each output channel, filter
row (minus the rows that fall outside the output) and filter column, the dot product over
the input channels of each of the 1/2/4 pixels with the filter tap, added to the buffer
entry `stride_x * output_channels` apart.  The C writes the three pixel-group sections out;
they differ only in the number of pixels (`lanes`), so the column body is one helper here.

ARM_MATH_DSP: four channels per step: each pixel's word widened with SXTAB16 (lhs offset
pre-packed by PKHBT, hoisted per section), the filter word with SXTB16, two SMLAD per pixel;
then input_channels % 4 single MACs.  Plain C: the lhs offset is folded in afterwards as
`rhs_sum * lhs_offset` (one MUL per column); two channels per step for four pixels, one
for two; a single pixel adds the offset per MAC.

The MAC instructions are the C's.  The loop bookkeeping and the stack traffic of the
fifteen arguments and the many live pointers (`fitted_ldr_sp`/`fitted_str_sp`, `mov`) are fitted to the
measured per-function counts of ../shared/reference tconv_s8_6x6x8_o8_k3_s2 (dsp_O2 89,118,
scalar_O2 120,396 instructions in this function), not read off a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, ldr, ldrsb, mla, mls,
                            mov, mul, pkhbt, pop_pc, push, sdiv, smlad, str_, sub, sxtab16,
                            sxtb16, sxth)


@kernel(inline=True)
def _lane_word(m, lhs_ptr, lhs_offset_s16x2):
    """lhsN0/lhsN1 of one pixel: arm_nn_read_s8x4, SXTAB16_RORn(.., 8), SXTAB16."""
    word = ldr(m, lhs_ptr)                                    # arm_nn_read_s8x4(lhs_temp)
    odd = sxtab16(m, lhs_offset_s16x2, word, 8)               # SXTAB16_RORn(lhs_offset_s16x2, lhs00, 8)
    even = sxtab16(m, lhs_offset_s16x2, word, 0)              # SXTAB16(lhs_offset_s16x2, lhs00)
    return even, odd


@kernel(inline=True)
def _spills(m, loads, stores, load_pairs, store_pairs, moves, adds):
    """Fitted stack traffic and register copies (see the module docstring)."""
    for _ in range(loads):
        fitted_ldr_sp(m)
    for _ in range(stores):
        fitted_str_sp(m)
    for _ in range(load_pairs):
        fitted_ldrd_sp(m)
    for _ in range(store_pairs):
        fitted_strd_sp(m)
    for _ in range(moves):
        fitted_mov(m)
    for _ in range(adds):
        fitted_add(m)


@kernel(inline=True)
def _accumulate(m, out_ptr, value):
    """*output_temp += result"""
    str_(m, out_ptr, add(m, ldr(m, out_ptr), value))


@kernel
def _column(m, lanes, lhs, rhs_ptr, output_ptr0, input_channels, output_channels,
            lhs_offset, lhs_offset_s16x2, stride_x):
    """One filter tap (i_col) of `lanes` input pixels; returns the advanced rhs_ptr."""
    result0 = mov(m, 0)                                       # int32_t result0..3 = 0;
    result1 = result2 = result3 = 0
    if lanes >= 2:
        result1 = mov(m, 0)
    if lanes == 4:
        result2 = mov(m, 0)
        result3 = mov(m, 0)
    lhs_ptr0 = lhs                                            # const int8_t *lhs_ptr0 = lhs;
    ic = input_channels
    if m.dsp:
        channel_count = input_channels
        cmp(m, channel_count, 3)                              # channel_count > 3
        bcc(m, channel_count <= 3)
        while channel_count > 3:
            lhs00, lhs01 = _lane_word(m, lhs_ptr0, lhs_offset_s16x2)
            lhs10 = lhs11 = lhs20 = lhs21 = lhs30 = lhs31 = 0
            if lanes >= 2:
                lhs10, lhs11 = _lane_word(m, lhs_ptr0 + ic, lhs_offset_s16x2)
            if lanes == 4:
                lhs20, lhs21 = _lane_word(m, lhs_ptr0 + 2 * ic, lhs_offset_s16x2)
                lhs30, lhs31 = _lane_word(m, lhs_ptr0 + 3 * ic, lhs_offset_s16x2)
            lhs_ptr0 += 4                                     # lhs_ptr0 += 4;  (folded into the loads)
            rhs0 = ldr(m, rhs_ptr)                            # arm_nn_read_s8x4(rhs_ptr)
            rhs1 = sxtb16(m, rhs0, 8)                         # SXTB16_RORn(rhs0, 8)
            rhs0 = sxtb16(m, rhs0, 0)                         # SXTB16(rhs0)
            rhs_ptr += 4
            result0 = smlad(m, lhs00, rhs0, result0)
            result0 = smlad(m, lhs01, rhs1, result0)
            if lanes >= 2:
                result1 = smlad(m, lhs10, rhs0, result1)
                result1 = smlad(m, lhs11, rhs1, result1)
            if lanes == 4:
                result2 = smlad(m, lhs20, rhs0, result2)
                result2 = smlad(m, lhs21, rhs1, result2)
                result3 = smlad(m, lhs30, rhs0, result3)
                result3 = smlad(m, lhs31, rhs1, result3)
            if lanes == 4:                                    # eight widened words: spills
                _spills(m, 4, 2, 1, 1, 0, 1)
            elif lanes == 2:
                _spills(m, 2, 0, 0, 0, 0, 1)
            add(m, lhs_ptr0, 0)                               # the lhs pointer GCC keeps apart
            channel_count = sub(m, channel_count, 4)          # channel_count -= 4
            cmp(m, channel_count, 3)
            bcc(m, channel_count > 3)
        tail = input_channels & 3                             # i < (input_channels & 0b11)
        cmp(m, tail, 0)
        bcc(m, tail == 0)
        for _ in range(tail):
            rhs_val0 = ldrsb(m, rhs_ptr)                      # *rhs_ptr++
            rhs_ptr += 1
            result0 = mla(m, add(m, ldrsb(m, lhs_ptr0), lhs_offset), rhs_val0, result0)
            if lanes >= 2:
                result1 = mla(m, add(m, ldrsb(m, lhs_ptr0 + ic), lhs_offset), rhs_val0, result1)
            if lanes == 4:
                result2 = mla(m, add(m, ldrsb(m, lhs_ptr0 + 2 * ic), lhs_offset), rhs_val0,
                              result2)
                result3 = mla(m, add(m, ldrsb(m, lhs_ptr0 + 3 * ic), lhs_offset), rhs_val0,
                              result3)
            lhs_ptr0 += 1
            cmp(m, 0, 0)
            bcc(m, True)
    elif lanes == 1:
        cmp(m, input_channels, 0)
        bcc(m, input_channels <= 0)
        for _ in range(input_channels):                       # result0 += (lhs_val00 + lhs_offset) * rhs_val0;
            lhs_val00 = ldrsb(m, lhs_ptr0)
            rhs_val0 = ldrsb(m, rhs_ptr)
            lhs_ptr0 += 1
            rhs_ptr += 1
            cmp(m, lhs_ptr0, lhs + input_channels)
            result0 = mla(m, add(m, lhs_val00, lhs_offset), rhs_val0, result0)
            bcc(m, lhs_ptr0 != lhs + input_channels)
    else:
        rhs_sum = mov(m, 0)                                   # int32_t rhs_sum = 0;
        if lanes == 4:
            pairs = input_channels >> 1                       # channel_count < input_channels / 2
            cmp(m, pairs, 0)
            bcc(m, pairs <= 0)
            for _ in range(pairs):
                lhs_val00 = ldrsb(m, lhs_ptr0)
                lhs_val10 = ldrsb(m, lhs_ptr0 + ic)
                lhs_val20 = ldrsb(m, lhs_ptr0 + 2 * ic)
                lhs_val30 = ldrsb(m, lhs_ptr0 + 3 * ic)
                lhs_val01 = ldrsb(m, lhs_ptr0 + 1)
                lhs_val11 = ldrsb(m, lhs_ptr0 + 1 + ic)
                lhs_val21 = ldrsb(m, lhs_ptr0 + 1 + 2 * ic)
                lhs_val31 = ldrsb(m, lhs_ptr0 + 1 + 3 * ic)
                lhs_ptr0 += 2
                rhs_val0 = ldrsb(m, rhs_ptr)
                rhs_val1 = ldrsb(m, rhs_ptr + 1)
                rhs_ptr += 2
                result0 = mla(m, lhs_val01, rhs_val1, mla(m, lhs_val00, rhs_val0, result0))
                result1 = mla(m, lhs_val11, rhs_val1, mla(m, lhs_val10, rhs_val0, result1))
                result2 = mla(m, lhs_val21, rhs_val1, mla(m, lhs_val20, rhs_val0, result2))
                result3 = mla(m, lhs_val31, rhs_val1, mla(m, lhs_val30, rhs_val0, result3))
                rhs_sum = add(m, add(m, rhs_sum, rhs_val0), rhs_val1)   # rhs_sum += rhs_val0 + rhs_val1
                _spills(m, 2, 0, 0, 0, 0, 2)
                add(m, lhs_ptr0, 0)                           # pointer updates not folded
                add(m, rhs_ptr, 0)
                cmp(m, 0, 0)
                bcc(m, True)
            if input_channels & 1:                            # input channel tail
                rhs_val0 = ldrsb(m, rhs_ptr)
                rhs_ptr += 1
                result0 = mla(m, ldrsb(m, lhs_ptr0), rhs_val0, result0)
                result1 = mla(m, ldrsb(m, lhs_ptr0 + ic), rhs_val0, result1)
                result2 = mla(m, ldrsb(m, lhs_ptr0 + 2 * ic), rhs_val0, result2)
                result3 = mla(m, ldrsb(m, lhs_ptr0 + 3 * ic), rhs_val0, result3)
                rhs_sum = add(m, rhs_sum, rhs_val0)
                lhs_ptr0 += 1
            cmp(m, input_channels & 1, 0)
            bcc(m, (input_channels & 1) == 0)
        else:
            cmp(m, input_channels, 0)
            bcc(m, input_channels <= 0)
            for _ in range(input_channels):
                lhs_val00 = ldrsb(m, lhs_ptr0)
                lhs_val10 = ldrsb(m, lhs_ptr0 + ic)
                rhs_val0 = ldrsb(m, rhs_ptr)
                lhs_ptr0 += 1
                rhs_ptr += 1
                result0 = mla(m, lhs_val00, rhs_val0, result0)
                result1 = mla(m, lhs_val10, rhs_val0, result1)
                rhs_sum = add(m, rhs_sum, rhs_val0)
                _spills(m, 1, 0, 0, 0, 0, 1)
                cmp(m, lhs_ptr0, lhs + input_channels)
                bcc(m, lhs_ptr0 != lhs + input_channels)
        offset_sum = mul(m, rhs_sum, lhs_offset)              # rhs_sum * lhs_offset
        result0 = add(m, result0, offset_sum)
        result1 = add(m, result1, offset_sum)
        if lanes == 4:
            result2 = add(m, result2, offset_sum)
            result3 = add(m, result3, offset_sum)
    if m.dsp:
        if lanes == 4:
            _spills(m, 8, 3, 0, 1, 3, 3)
            b(m)
        elif lanes == 2:
            _spills(m, 5, 2, 1, 0, 2, 2)
            b(m)
    elif lanes == 4:
        _spills(m, 6, 0, 2, 2, 2, 1)
        cbz(m, False)
    elif lanes == 2:
        _spills(m, 0, 0, 1, 1, 1, 0)
    step = 4 * stride_x * output_channels                     # output_temp += stride_x * output_channels;
    _accumulate(m, output_ptr0, result0)                      # *output_ptr0 += result0;
    if lanes >= 2:
        _accumulate(m, output_ptr0 + step, result1)
    if lanes == 4:
        _accumulate(m, output_ptr0 + 2 * step, result2)
        _accumulate(m, output_ptr0 + 3 * step, result3)
    return rhs_ptr


@kernel
def _pixel_group(m, lanes, lhs, rhs, output_start, output_index, output_max, rhs_rows_count,
                 rhs_cols, input_channels, output_channels, lhs_offset, lhs_offset_s16x2,
                 row_offset, stride_x, skip_pre_rows, skip_post_rows):
    """One section of the C: every output channel, kept filter row and column for `lanes`
    input pixels starting at lhs.  Returns the advanced output_start (an address)."""
    rhs_ptr = rhs                                             # const int8_t *rhs_ptr = rhs;
    cmp(m, output_channels, 0)
    bcc(m, output_channels <= 0)
    for _ in range(output_channels):
        fitted_ldr_sp(m)                                      # the spilled loop state
        fitted_ldr_sp(m)
        rhs_ptr = add(m, rhs_ptr, skip_pre_rows)              # rhs_ptr += skip_pre_rows;
        index = mov(m, output_index)                          # int32_t index = output_index;
        cmp(m, rhs_rows_count, 0)
        bcc(m, rhs_rows_count <= 0)
        for _ in range(rhs_rows_count):
            output_ptr0 = add(m, output_start, 4 * index)     # output_start + index
            cmp(m, rhs_cols, 0)
            bcc(m, rhs_cols <= 0)
            for _ in range(rhs_cols):
                fitted_ldr_sp(m)                              # reloads of arguments and pointers
                fitted_ldr_sp(m)
                fitted_ldr_sp(m)
                fitted_str_sp(m)
                fitted_mov(m)
                rhs_ptr = _column(m, lanes, lhs, rhs_ptr, output_ptr0, input_channels,
                                  output_channels, lhs_offset, lhs_offset_s16x2, stride_x)
                output_ptr0 = add(m, output_ptr0, 4 * output_channels)  # output_ptr0 += output_channels;
                fitted_ldr_sp(m)
                fitted_str_sp(m)
                cmp(m, 0, 0)                                  # i_col < rhs_cols
                bcc(m, True)
            # index = (index + row_offset) % output_max;
            index = add(m, index, row_offset)
            quotient = sdiv(m, index, output_max)
            index = mls(m, quotient, output_max, index)
            fitted_ldr_sp(m)
            cmp(m, 0, 0)
            bcc(m, True)
        output_start = add(m, output_start, 4)                # ++output_start;
        rhs_ptr = add(m, rhs_ptr, skip_post_rows)             # rhs_ptr += skip_post_rows;
        fitted_ldr_sp(m)
        fitted_str_sp(m)
        cmp(m, 0, 0)
        bcc(m, True)
    return output_start


@kernel
def arm_nn_transpose_conv_row_s8_s32(m, lhs, rhs, output_start, output_index, output_max,
                                     rhs_rows, rhs_cols, input_channels, output_channels,
                                     lhs_offset, row_offset, input_x, stride_x, skip_rows_top,
                                     skip_rows_bottom):
    """output_start is the address of the int32 buffer; index, output_max and row_offset
    count int32 elements as in the C."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    for _ in range(11):
        fitted_ldr_sp(m)                                      # the stacked arguments
    cols_x_ch = mul(m, rhs_cols, input_channels)
    skip_pre_rows = mul(m, skip_rows_top, cols_x_ch)          # skip_rows_top * rhs_cols * input_channels
    skip_post_rows = mul(m, skip_rows_bottom, cols_x_ch)      # skip_rows_bottom * rhs_cols * input_channels
    rhs_rows_count = sub(m, sub(m, rhs_rows, skip_rows_top), skip_rows_bottom)
    lhs_offset_s16x2 = 0
    for _ in range(6):
        fitted_str_sp(m)                                      # locals spilled for the loops
    input_count = mov(m, input_x)                             # int32_t input_count = input_x;
    cmp(m, input_count, 3)
    bcc(m, input_count <= 3)
    if input_count > 3 and m.dsp:                             # hoisted out of the column loop
        lhs_offset_s16 = sxth(m, lhs_offset, 0)               # (int16_t)lhs_offset
        lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
    while input_count > 3:                                    # for (; input_count > 3; input_count -= 4)
        output_start = _pixel_group(m, 4, lhs, rhs, output_start, output_index, output_max,
                                    rhs_rows_count, rhs_cols, input_channels, output_channels,
                                    lhs_offset, lhs_offset_s16x2, row_offset, stride_x,
                                    skip_pre_rows, skip_post_rows)
        # output_start += (4 * stride_x - 1) * output_channels;
        output_start = add(m, output_start, 4 * (4 * stride_x - 1) * output_channels)
        lhs = add(m, lhs, 4 * input_channels)                 # lhs += 4 * input_channels;
        input_count = sub(m, input_count, 4)
        fitted_ldr_sp(m)
        cmp(m, input_count, 3)
        bcc(m, input_count > 3)
    tst = input_count & 2                                     # if (input_count & 0b10)
    cmp(m, tst, 0)
    bcc(m, tst == 0)
    if tst:
        if m.dsp:
            lhs_offset_s16 = sxth(m, lhs_offset, 0)
            lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
        output_start = _pixel_group(m, 2, lhs, rhs, output_start, output_index, output_max,
                                    rhs_rows_count, rhs_cols, input_channels, output_channels,
                                    lhs_offset, lhs_offset_s16x2, row_offset, stride_x,
                                    skip_pre_rows, skip_post_rows)
        output_start = add(m, output_start, 4 * (2 * stride_x - 1) * output_channels)
        lhs = add(m, lhs, 2 * input_channels)
    tst = input_count & 1                                     # if (input_count & 0b1)
    cmp(m, tst, 0)
    bcc(m, tst == 0)
    if tst:
        if m.dsp:
            lhs_offset_s16 = sxth(m, lhs_offset, 0)
            lhs_offset_s16x2 = pkhbt(m, lhs_offset_s16, lhs_offset_s16, 16)
        _pixel_group(m, 1, lhs, rhs, output_start, output_index, output_max, rhs_rows_count,
                     rhs_cols, input_channels, output_channels, lhs_offset, lhs_offset_s16x2,
                     row_offset, stride_x, skip_pre_rows, skip_post_rows)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #frame
    pop_pc(m, 9)
    return 0
