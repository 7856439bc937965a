"""arm_depthwise_conv_s4_opt (Source/ConvolutionFunctions/arm_depthwise_conv_s4_opt.c), the
non-MVE path.

ch_mult 1 only.  Per output pixel the kernel window is widened into the int16 column buffer
(ctx->buf) with arm_q7_to_q15_with_offset (taps outside the input: memset 0), then output
channels are computed four at a time over the packed int4 weights, then the leftovers:
  even output_ch: ARM_MATH_DSP reads two taps per step (read_and_pad_s4 twice, PKHBT/PKHTB,
    four SMLAD), plain C one tap per step (two LDRSB, SBFX/ASR per nibble, four MLA); a last
    pair of channels (output_ch & 2) one tap at a time;
  odd output_ch: the second tap's weights start mid-byte (read_and_pad_s4_uneven under DSP,
    shifted nibbles in plain C); the last output_ch & 3 channels one at a time with the
    get_low_nibble walk.
Bias 0 = NULL.  Returns 0, or -1 (ARM_CMSIS_NN_ARG_ERROR: input_ch != output_ch, no buffer).

Counts: the C's operations, gcc's LDRH + SMLABB for the DSP one-tap loop (as the measured
histogram), plus fitted stack traffic / moves / compares per two-tap DSP step, per scalar tap
and per four-channel group (`_fitted_*`), fitted to dw_s4_3x3_8x8x16_m1_p1 (even channels,
ch_mult 1, 3x3, pad 1) on dsp_O2 and scalar_O2; not read off a disassembly.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, bl, cbz, cmp, eor, fitted_add, fitted_bcc, fitted_cmp,
                            fitted_ldr_sp, fitted_ldrd_sp, fitted_mov, fitted_str_sp,
                            fitted_strd_sp, ldr, ldrh, ldrsb, ldrsh, lsl, lsr, mla, mov, mul,
                            pkhbt, pkhtb, pop_pc, push, sbfx, smlabb, smlad, sub, uxth)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s4 import requantize_clamp_store
from armsim.kernels.cmsis_nn.arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from armsim.kernels.cmsis_nn.read_and_pad_s4 import read_and_pad_s4
from armsim.kernels.cmsis_nn.read_and_pad_s4_uneven import read_and_pad_s4_uneven
from armsim.kernels.libc import memset
from armsim.kernels.minmax import min_gt


@kernel(inline=True)
def _memset_zero(m, dst, nbytes):
    mov(m, 0)
    bl(m)                                                     # memset(dst, 0, nbytes)
    memset(m, dst, 0, nbytes)


@kernel(inline=True)
def _low(m, byte):
    return sbfx(m, byte, 0, 4)                                # (int8_t)(k << 4) >> 4


@kernel(inline=True)
def _high(m, byte):
    return asr(m, byte, 4)                                    # k >> 4


@kernel(inline=True)
def _im2col(m, input, input_x, input_y, input_ch, kernel_x, kernel_y, base_idx_x, base_idx_y,
            input_offset, col_buffer_start):
    """The window of one output pixel into the int16 column buffer."""
    ker_y_start = 0                                           # MAX(0, -base_idx_y)
    cmp(m, base_idx_y, 0)
    bcc(m, base_idx_y >= 0)
    if base_idx_y < 0:
        ker_y_start = sub(m, 0, base_idx_y)
    ker_y_end = min_gt(m, sub(m, input_y, base_idx_y), kernel_y)  # MIN(kernel_y, input_y - base_idx_y)
    row_len = mul(m, kernel_x, input_ch)
    index = 0
    cbz(m, ker_y_start == 0)                                  # if (ker_y_start != 0)
    if ker_y_start != 0:
        index = mul(m, row_len, ker_y_start)
        _memset_zero(m, col_buffer_start, lsl(m, index, 1))
    i_ker_y = ker_y_start
    cmp(m, i_ker_y, ker_y_end)
    bcc(m, i_ker_y >= ker_y_end)
    while i_ker_y < ker_y_end:
        idx_y = add(m, base_idx_y, i_ker_y)
        i_ker_x = 0
        while i_ker_x < kernel_x:
            idx_x = add(m, base_idx_x, i_ker_x)
            cmp(m, idx_x, 0)                                  # if (idx_x < 0 || idx_x >= input_x)
            bcc(m, idx_x < 0)
            outside = idx_x < 0
            if not outside:
                cmp(m, idx_x, input_x)
                bcc(m, idx_x >= input_x)
                outside = idx_x >= input_x
            dst = add(m, col_buffer_start, index << 1)        # &col_buffer[index]
            if outside:
                _memset_zero(m, dst, lsl(m, input_ch, 1))
            else:
                src = mla(m, mla(m, idx_y, input_x, idx_x), input_ch, input)
                bl(m)
                arm_q7_to_q15_with_offset(m, src, dst, input_ch, input_offset)
            index = add(m, index, input_ch)
            i_ker_x = add(m, i_ker_x, 1)
            cmp(m, i_ker_x, kernel_x)
            bcc(m, i_ker_x < kernel_x)
        i_ker_y = add(m, i_ker_y, 1)
        cmp(m, i_ker_y, ker_y_end)
        bcc(m, i_ker_y < ker_y_end)
    diff = sub(m, kernel_y, ker_y_end)
    cbz(m, diff == 0)                                         # if (diff != 0)
    if diff != 0:
        _memset_zero(m, add(m, col_buffer_start, lsl(m, index, 1)),
                     lsl(m, mul(m, row_len, diff), 1))


@kernel(inline=True)
def _fitted_dsp_step(m):
    """Fitted: gcc's stack reloads/spills, moves and uint16_t counter work per two-tap DSP
    step (dw_s4_3x3_8x8x16_m1_p1, 1,024 steps)."""
    for _ in range(16):
        fitted_ldr_sp(m)                                      # fitted
    for _ in range(5):
        fitted_str_sp(m)                                      # fitted
    fitted_mov(m)                                             # fitted
    fitted_mov(m)                                             # fitted
    fitted_add(m)                                             # fitted
    fitted_add(m)                                             # fitted
    fitted_cmp(m)                                             # fitted
    fitted_bcc(m)                                             # fitted
    uxth(m, 0, 0)                                             # fitted: (uint16_t) col_count


@kernel(inline=True)
def _fitted_group(m):
    """Fitted: per group of four output channels, the stack traffic, moves, compares and
    uint16_t conversions the C's operations above do not count (dw_s4_3x3_8x8x16_m1_p1, 256
    groups: the measured histogram minus the port's, after the per-step share)."""
    if m.dsp:
        n_ldr, n_str, n_mov, n_add, n_cmp, n_bcc, n_uxth, n_ldrd, n_strd = \
            14, 5, 3, 0, 3, 2, 2, 2, 2
    else:
        n_ldr, n_str, n_mov, n_add, n_cmp, n_bcc, n_uxth, n_ldrd, n_strd = \
            9, 7, 6, 5, 5, 4, 4, 4, 1
    for _ in range(n_ldr):
        fitted_ldr_sp(m)                                      # fitted
    for _ in range(n_str):
        fitted_str_sp(m)                                      # fitted
    for _ in range(n_ldrd):
        fitted_ldrd_sp(m)                                     # fitted
    for _ in range(n_strd):
        fitted_strd_sp(m)                                     # fitted
    for _ in range(n_mov):
        fitted_mov(m)                                         # fitted
    for _ in range(n_add):
        fitted_add(m)                                         # fitted
    for _ in range(n_cmp):
        fitted_cmp(m)                                         # fitted
    for _ in range(n_bcc):
        fitted_bcc(m)                                         # fitted
    for _ in range(n_uxth):
        uxth(m, 0, 0)                                         # fitted


@kernel(inline=True)
def _four_channels(m, kernel, row_pos, col_pos, input_ch, num_cols, uneven, s1, s2, s3, s4):
    """One group of four output channels over the whole window (sum..sum_4 accumulated)."""
    half = input_ch >> 1
    col_count = num_cols
    if m.dsp:
        col_count = lsr(m, num_cols, 1)                       # num_cols / 2
        cbz(m, col_count == 0)
        while col_count:
            ip_a2, ip_b1 = read_and_pad_s4(m, row_pos)        # read_and_pad_s4(row_pos, &ip_a2, &ip_b1);
            if uneven:
                ip_a1, ip_b2 = read_and_pad_s4_uneven(m, row_pos + half)
            else:
                ip_b2, ip_a1 = read_and_pad_s4(m, row_pos + half)
            op_a = ldr(m, col_pos)                            # arm_nn_read_s16x2(col_pos)
            op_b = ldr(m, col_pos + 2 * input_ch)             # arm_nn_read_s16x2(col_pos + input_ch)
            op_c = pkhbt(m, op_b, op_a, 16)
            op_a = pkhtb(m, op_b, op_a, 16)
            op_b = pkhbt(m, ip_b2, ip_a2, 16)
            s1 = smlad(m, op_c, op_b, s1)
            op_b = pkhbt(m, ip_b1, ip_a1, 16)
            s2 = smlad(m, op_a, op_b, s2)
            op_a = ldr(m, col_pos + 4)
            op_b = ldr(m, col_pos + 2 * input_ch + 4)
            op_c = pkhbt(m, op_b, op_a, 16)
            op_a = pkhtb(m, op_b, op_a, 16)
            op_b = pkhtb(m, ip_a2, ip_b2, 16)
            s3 = smlad(m, op_c, op_b, s3)
            op_b = pkhtb(m, ip_a1, ip_b1, 16)
            s4 = smlad(m, op_a, op_b, s4)
            row_pos = add(m, row_pos, input_ch)               # row_pos += input_ch;
            col_pos = add(m, col_pos, 4 * input_ch)           # col_pos += input_ch << 1;
            _fitted_dsp_step(m)
            col_count = sub(m, col_count, 1)
            bcc(m, col_count != 0)
        col_count = num_cols & 1
    elif uneven:                                              # plain C, odd channels: two taps a step
        col_count = lsr(m, num_cols, 1)
        cbz(m, col_count == 0)
        while col_count:
            ker00 = ldrsb(m, row_pos)
            ker11 = ldrsb(m, row_pos + 1)
            s1 = mla(m, _low(m, ker00), ldrsh(m, col_pos), s1)
            s2 = mla(m, _high(m, ker00), ldrsh(m, col_pos + 2), s2)
            s3 = mla(m, _low(m, ker11), ldrsh(m, col_pos + 4), s3)
            s4 = mla(m, _high(m, ker11), ldrsh(m, col_pos + 6), s4)
            ker11 = ldrsb(m, row_pos + 1 + half)
            ker0 = _high(m, ldrsb(m, row_pos + half))
            ker3 = _low(m, ldrsb(m, row_pos + 2 + half))
            s1 = mla(m, ker0, ldrsh(m, col_pos + 2 * input_ch), s1)
            s2 = mla(m, _low(m, ker11), ldrsh(m, col_pos + 2 * input_ch + 2), s2)
            s3 = mla(m, _high(m, ker11), ldrsh(m, col_pos + 2 * input_ch + 4), s3)
            s4 = mla(m, ker3, ldrsh(m, col_pos + 2 * input_ch + 6), s4)
            row_pos = add(m, row_pos, input_ch)
            col_pos = add(m, col_pos, 4 * input_ch)
            col_count = sub(m, col_count, 1)
            bcc(m, col_count != 0)
        col_count = num_cols & 1
    cbz(m, col_count == 0)
    while col_count:                                          # one tap at a time
        ker00 = ldrsb(m, row_pos)
        ker11 = ldrsb(m, row_pos + 1)
        if m.dsp:                                             # gcc: LDRH + SMLABB (int16 x int8)
            s1 = smlabb(m, _low(m, ker00), ldrh(m, col_pos), s1)
            s2 = smlabb(m, _high(m, ker00), ldrh(m, col_pos + 2), s2)
            s3 = smlabb(m, _low(m, ker11), ldrh(m, col_pos + 4), s3)
            s4 = smlabb(m, _high(m, ker11), ldrh(m, col_pos + 6), s4)
        else:
            s1 = mla(m, _low(m, ker00), ldrsh(m, col_pos), s1)
            s2 = mla(m, _high(m, ker00), ldrsh(m, col_pos + 2), s2)
            s3 = mla(m, _low(m, ker11), ldrsh(m, col_pos + 4), s3)
            s4 = mla(m, _high(m, ker11), ldrsh(m, col_pos + 6), s4)
        row_pos = add(m, row_pos, half)                       # row_pos += input_ch >> 1;
        col_pos = add(m, col_pos, 2 * input_ch)               # col_pos += input_ch;
        if not m.dsp:
            for _ in range(4):
                fitted_ldr_sp(m)                              # fitted (scalar tap)
            uxth(m, col_count, 0)                             # fitted: (uint16_t) col_count
        col_count = sub(m, col_count, 1)
        bcc(m, col_count != 0)
    return s1, s2, s3, s4


@kernel
def arm_depthwise_conv_s4_opt(m, buf, input_x, input_y, input_ch, input, kernel_x, kernel_y,
                              kernel, bias, output_ch, output_x, output_y, output, output_mult,
                              output_shift, pad_x, pad_y, stride_x, stride_y, input_offset,
                              output_offset, act_min, act_max):
    push(m, 9)
    cmp(m, input_ch, output_ch)                               # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    if input_ch != output_ch:
        mov(m, -1)
        pop_pc(m, 9)
        return -1
    cbz(m, buf == 0)                                          # if (ctx->buf == NULL)
    if buf == 0:
        mov(m, -1)
        pop_pc(m, 9)
        return -1
    num_cols = uxth(m, mul(m, kernel_x, kernel_y), 0)         # (uint16_t)(kernel_x * kernel_y)
    half = input_ch >> 1
    out = output
    i_out_y = 0
    while i_out_y < output_y:
        base_idx_y = sub(m, mul(m, i_out_y, stride_y), pad_y)
        i_out_x = 0
        while i_out_x < output_x:
            base_idx_x = sub(m, mul(m, i_out_x, stride_x), pad_x)
            _im2col(m, input, input_x, input_y, input_ch, kernel_x, kernel_y, base_idx_x,
                    base_idx_y, input_offset, buf)
            row_count = lsr(m, output_ch, 2)                  # output_ch / 4
            row_shift = mov(m, 0)
            col_shift = mov(m, 0)
            ch = 0                                            # bias / output_mult / output_shift index
            uneven = (output_ch & 1) != 0
            cmp(m, output_ch & 1, 0)                          # if (output_ch % 2)
            bcc(m, not uneven)
            get_low_nibble = 1
            if uneven:
                get_low_nibble = mov(m, 1)
            cmp(m, row_count, 0)
            bcc(m, row_count == 0)
            while row_count:
                s1 = mov(m, 0)
                s2 = mov(m, 0)
                s3 = mov(m, 0)
                s4 = mov(m, 0)
                cbz(m, bias == 0)                             # if (bias)
                if bias != 0:
                    s1 = ldr(m, bias + 4 * ch)
                    s2 = ldr(m, bias + 4 * ch + 4)
                    s3 = ldr(m, bias + 4 * ch + 8)
                    s4 = ldr(m, bias + 4 * ch + 12)
                col_pos = add(m, buf, 2 * col_shift)
                row_pos = add(m, kernel, row_shift)
                row_shift = add(m, row_shift, 2)
                col_shift = add(m, col_shift, 4)
                _fitted_group(m)
                s1, s2, s3, s4 = _four_channels(m, kernel, row_pos, col_pos, input_ch, num_cols,
                                                uneven, s1, s2, s3, s4)
                for k in range(4):
                    acc = s1 if k == 0 else s2 if k == 1 else s3 if k == 2 else s4
                    requantize_clamp_store(m, acc, output_mult + 4 * (ch + k),
                                           output_shift + 4 * (ch + k), output_offset, act_min,
                                           act_max, out + k)
                ch += 4
                out += 4
                row_count = sub(m, row_count, 1)
                bcc(m, row_count != 0)
            if uneven:
                row_count = output_ch & 3
                while row_count:                              # the last channels, one at a time
                    col_pos = add(m, buf, 2 * col_shift)
                    row_pos = add(m, kernel, row_shift)
                    acc = mov(m, 0)
                    cbz(m, bias == 0)
                    if bias != 0:
                        acc = ldr(m, bias + 4 * ch)
                    col_shift = add(m, col_shift, 1)
                    col_index = 0
                    i = 0
                    while i < num_cols:
                        rhs = ldrsb(m, row_pos + i * half + col_index)  # row_pos[i * (input_ch >> 1) + col_index]
                        lhs0 = ldrsh(m, col_pos + 2 * i * input_ch)     # col_pos[i * input_ch]
                        cbz(m, get_low_nibble == 0)   # if (get_low_nibble)
                        if get_low_nibble:
                            rhs0 = _low(m, rhs)
                            get_low_nibble = mov(m, 0)
                        else:
                            rhs0 = _high(m, rhs)
                            get_low_nibble = mov(m, 1)
                            col_index = add(m, col_index, 1)
                        acc = mla(m, rhs0, lhs0, acc)
                        i = add(m, i, 1)
                        cmp(m, i, num_cols)
                        bcc(m, i < num_cols)
                    if num_cols % 2 == 0:
                        get_low_nibble = eor(m, get_low_nibble, 1)  # !get_low_nibble
                    requantize_clamp_store(m, acc, output_mult + 4 * ch, output_shift + 4 * ch,
                                           output_offset, act_min, act_max, out)
                    ch += 1
                    out += 1
                    row_count = sub(m, row_count, 1)
                    cmp(m, row_count, 1)                      # if (row_count == 1) row_shift += 1;
                    if row_count == 1:
                        row_shift = add(m, row_shift, 1)
                    bcc(m, row_count != 0)
            else:
                cmp(m, output_ch & 2, 0)                      # if (output_ch & 0x2)
                bcc(m, (output_ch & 2) == 0)
                if output_ch & 2:
                    col_pos = add(m, buf, 2 * col_shift)
                    row_pos = add(m, kernel, row_shift)
                    acc = mov(m, 0)
                    acc2 = mov(m, 0)
                    cbz(m, bias == 0)
                    if bias != 0:
                        acc = ldr(m, bias + 4 * ch)
                        acc2 = ldr(m, bias + 4 * ch + 4)
                    i = 0
                    while i < num_cols:
                        rhs = ldrsb(m, row_pos + i * half)
                        acc = mla(m, _low(m, rhs), ldrsh(m, col_pos + 2 * i * input_ch), acc)
                        acc2 = mla(m, _high(m, rhs), ldrsh(m, col_pos + 2 * i * input_ch + 2),
                                   acc2)
                        i = add(m, i, 1)
                        cmp(m, i, num_cols)
                        bcc(m, i < num_cols)
                    requantize_clamp_store(m, acc, output_mult + 4 * ch, output_shift + 4 * ch,
                                           output_offset, act_min, act_max, out)
                    requantize_clamp_store(m, acc2, output_mult + 4 * ch + 4,
                                           output_shift + 4 * ch + 4, output_offset, act_min,
                                           act_max, out + 1)
                    out += 2
            i_out_x = add(m, i_out_x, 1)
            cmp(m, i_out_x, output_x)
            bcc(m, i_out_x < output_x)
        i_out_y = add(m, i_out_y, 1)
        cmp(m, i_out_y, output_y)
        bcc(m, i_out_y < output_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    pop_pc(m, 9)
    return 0
