"""arm_nn_mat_mult_nt_t_s4 (Source/NNSupportFunctions/arm_nn_mat_mult_nt_t_s4.c), non-MVE.

    arm_cmsis_nn_status arm_nn_mat_mult_nt_t_s4(const int8_t *lhs, const int8_t *packed_rhs,
        const int32_t *bias, int8_t *dst, const int32_t *dst_multipliers,
        const int32_t *dst_shifts, int32_t lhs_rows, int32_t rhs_rows, int32_t rhs_cols,
        int32_t lhs_offset, int32_t dst_offset, int32_t activation_min,
        int32_t activation_max, int32_t lhs_cols_offset)

The GEMM of arm_convolve_1x1_s4(_fast): int8 lhs rows (at lhs + r * lhs_cols_offset) times
packed int4 rhs rows (two weights per byte, row after row, so with rhs_cols odd a row starts
mid-byte).  Blocks of four rhs rows, evaluated as the pairs (0, 2) and (1, 3) so that a pair
reads whole bytes at packed_rhs_ptr and packed_rhs_ptr + rhs_cols; with rhs_cols odd the
high nibble of the first pair's last byte is the second pair's first weight (the `spillover`
sums).  Two lhs rows at a time, an odd one apart; then the 0-3 left-over rhs rows one by one
(`rhs_spilled_col` carrying the shared nibble from row 0 to row 1).  ARM_MATH_DSP: 16- and
4-column steps with read_and_pad_s4, SXTAB16 (the lhs offset added to two int8 lanes) and
SMLAD, then byte steps; plain C: byte steps only (LDRSB, SBFX/ASR, MLA).

Counts: the C's operations, plus gcc 12.2 -O2's bookkeeping where the objdump of this file
shows it in the hot loops.  The DSP 16-column step of the 2x2 block is 196 instructions in
the first (rows 0, 2) and 208 in the second (rows 1, 3) pass of -mcpu=cortex-m4 (the C's 160,
plus stack reloads/spills, register copies and pointer adds read off the objdump: `fitted_*`
below, their number from the objdump, their place not transcribed); the plain-C byte step of
the 2x2 block is 26 (-mcpu=cortex-m3: the C's 22, plus the spilled loop bound, a pointer ADD,
CMP, BNE).  The per-block bookkeeping (BLOCK_*) is fitted to the measured dsp_O2 / scalar_O2
`functions` count of conv_s4_1x1_8x8x32_o16_s1_p0 (arm_nn_mat_mult_nt_t_s4: 138,755 /
145,640 measured, 138,722 / 145,632 here), the only measured case; it runs only the 2x2
blocks' 16-column steps, so the odd-row, odd-column, 4-column and left-over-row paths carry
the C's operations only (bit-exact on the CMSIS-NN vectors, not checked against counts).
The shift-only part of arm_nn_requantize, which gcc hoists out of a 2x2 block (BIC/RSB: 513
measured against 1,024 here), is not hoisted.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cbz, cmp, fitted_ldr_sp, fitted_mov, fitted_str_sp, ldr,
                            ldrsb, mla, mov, pkhbt, pop_pc, push, sbfx, smlad, strb, sub, sxtab16,
                            sxth)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .read_and_pad_s4 import read_and_pad_s4

#: DSP 16-column step, gcc -O2 -mcpu=cortex-m4 objdump, beyond the C's 160 instructions:
#: (stack reloads, spills, register copies, pointer adds) in the first and second pass
DSP_STEP16_FIRST = (16, 10, 2, 6)
DSP_STEP16_SECOND = (22, 12, 3, 8)
#: fitted per 2x2 block (two lhs rows x four rhs rows): (stack reloads, spills, copies)
BLOCK_DSP = (16, 4, 2)
BLOCK_SCALAR = (40, 11, 2)


@kernel(inline=True)
def _bookkeeping(m, reloads, spills, copies):
    for _ in range(reloads):
        fitted_ldr_sp(m)                              # fitted: values spilled to the stack
    for _ in range(spills):
        fitted_str_sp(m)                              # fitted
    for _ in range(copies):
        fitted_mov(m)                                 # fitted: register copies


@kernel(inline=True)
def _dsp_cols4(m, rhs_ptr, rhs_cols, two_rhs, lhs_ptr, lhs_cols_offset, two_lhs, offset_x2,
               r00, r01, r10, r11):
    """Four columns: read_and_pad_s4 of one or two rhs rows, SXTAB16 of one or two lhs
    words, SMLAD into res00/res01 (lhs row 0) and res10/res11 (lhs row 1)."""
    rhs_low0, rhs_high0 = read_and_pad_s4(m, rhs_ptr)
    rhs_low1 = rhs_high1 = 0
    if two_rhs:
        rhs_low1, rhs_high1 = read_and_pad_s4(m, rhs_ptr + rhs_cols)
    word = ldr(m, lhs_ptr)                            # arm_nn_read_s8x4_ia(&lhs_ptr)
    lhs_low = sxtab16(m, offset_x2, word, 0)          # SXTAB16(ui32_lhs_offset_i16x2, lhs_high)
    lhs_high = sxtab16(m, offset_x2, word, 8)         # SXTAB16_RORn(..., lhs_high, 8)
    r00 = smlad(m, rhs_low0, lhs_low, r00)
    r00 = smlad(m, rhs_high0, lhs_high, r00)
    if two_rhs:
        r01 = smlad(m, rhs_low1, lhs_low, r01)
        r01 = smlad(m, rhs_high1, lhs_high, r01)
    if two_lhs:
        word = ldr(m, lhs_ptr + lhs_cols_offset)      # arm_nn_read_s8x4(&lhs_ptr[lhs_cols_off1])
        lhs_low = sxtab16(m, offset_x2, word, 0)
        lhs_high = sxtab16(m, offset_x2, word, 8)
        r10 = smlad(m, rhs_low0, lhs_low, r10)
        if two_rhs:
            r11 = smlad(m, rhs_low1, lhs_low, r11)
        r10 = smlad(m, rhs_high0, lhs_high, r10)
        if two_rhs:
            r11 = smlad(m, rhs_high1, lhs_high, r11)
    return r00, r01, r10, r11


@kernel(inline=True)
def _byte_step(m, rhs_ptr, rhs_cols, two_rhs, lhs_ptr, lhs_cols_offset, two_lhs, lhs_offset,
               r00, r01, r10, r11):
    """Two columns from one packed byte per rhs row (low nibble, high nibble)."""
    byte0 = ldrsb(m, rhs_ptr)
    rhs_low0 = sbfx(m, byte0, 0, 4)                   # (int8_t)(packed_rhs_ptr[0] << 4) >> 4
    rhs_high0 = asr(m, byte0, 4)                      # packed_rhs_ptr[0] >> 4
    rhs_low1 = rhs_high1 = 0
    if two_rhs:
        byte1 = ldrsb(m, rhs_ptr + rhs_cols)
        rhs_low1 = sbfx(m, byte1, 0, 4)
        rhs_high1 = asr(m, byte1, 4)
    lhs_low = add(m, ldrsb(m, lhs_ptr), lhs_offset)   # (int8_t)lhs_ptr[0] + lhs_offset
    lhs_high = add(m, ldrsb(m, lhs_ptr + 1), lhs_offset)
    r00 = mla(m, lhs_low, rhs_low0, r00)
    r00 = mla(m, lhs_high, rhs_high0, r00)
    if two_rhs:
        r01 = mla(m, lhs_low, rhs_low1, r01)
        r01 = mla(m, lhs_high, rhs_high1, r01)
    if two_lhs:
        lhs_low = add(m, ldrsb(m, lhs_ptr + lhs_cols_offset), lhs_offset)
        lhs_high = add(m, ldrsb(m, lhs_ptr + lhs_cols_offset + 1), lhs_offset)
        r10 = mla(m, lhs_low, rhs_low0, r10)
        r10 = mla(m, lhs_high, rhs_high0, r10)
        if two_rhs:
            r11 = mla(m, lhs_low, rhs_low1, r11)
            r11 = mla(m, lhs_high, rhs_high1, r11)
    return r00, r01, r10, r11


@kernel(inline=True)
def _columns(m, rhs_ptr, rhs_cols, count, two_rhs, lhs_ptr, lhs_cols_offset, two_lhs,
             lhs_offset, offset_x2, second_pass, r00, r01, r10, r11):
    """`count` columns (even) from rhs_ptr / lhs_ptr: the DSP 16- and 4-column loops, then
    byte steps (all of them in plain C).  Returns the advanced pointers and the sums."""
    idx = 0
    if m.dsp:
        cmp(m, count, 16)
        bcc(m, count < 16)
        while idx + 16 <= count:                      # for (; rhs_cols_idx <= rhs_cols - 16; ...)
            for _ in range(4):
                r00, r01, r10, r11 = _dsp_cols4(m, rhs_ptr, rhs_cols, two_rhs, lhs_ptr,
                                                lhs_cols_offset, two_lhs, offset_x2,
                                                r00, r01, r10, r11)
                rhs_ptr += 2
                lhs_ptr += 4
            if two_rhs and two_lhs:
                extra = DSP_STEP16_SECOND if second_pass else DSP_STEP16_FIRST
                _bookkeeping(m, extra[0], extra[1], extra[2])
                for _ in range(extra[3]):
                    add(m, rhs_ptr, 2)                # packed_rhs_ptr += 2 / lhs_ptr += 4
            else:
                add(m, rhs_ptr, 8)
                add(m, lhs_ptr, 16)
            idx += 16
            cmp(m, idx + 16, count + 1)
            bcc(m, idx + 16 <= count)
        cmp(m, count - idx, 4)
        bcc(m, count - idx < 4)
        while idx + 4 <= count:                       # for (; rhs_cols_idx <= rhs_cols - 4; ...)
            r00, r01, r10, r11 = _dsp_cols4(m, rhs_ptr, rhs_cols, two_rhs, lhs_ptr,
                                            lhs_cols_offset, two_lhs, offset_x2,
                                            r00, r01, r10, r11)
            rhs_ptr = add(m, rhs_ptr, 2)
            lhs_ptr = add(m, lhs_ptr, 4)
            idx += 4
            cmp(m, idx + 4, count + 1)
            bcc(m, idx + 4 <= count)
    cmp(m, count - idx, 2)
    bcc(m, count - idx < 2)
    while idx + 2 <= count:                           # byte steps
        r00, r01, r10, r11 = _byte_step(m, rhs_ptr, rhs_cols, two_rhs, lhs_ptr, lhs_cols_offset,
                                        two_lhs, lhs_offset, r00, r01, r10, r11)
        rhs_ptr += 1
        lhs_ptr = add(m, lhs_ptr, 2)
        if not m.dsp and two_rhs and two_lhs:
            fitted_ldr_sp(m)                          # fitted: the loop bound (objdump, m3)
        idx += 2
        cmp(m, idx + 2, count + 1)
        bcc(m, idx + 2 <= count)
    return rhs_ptr, lhs_ptr, r00, r01, r10, r11


@kernel(inline=True)
def _out(m, acc, dst_multipliers, dst_shifts, channel, dst_offset, activation_min,
         activation_max, address):
    acc = arm_nn_requantize(m, acc, ldr(m, dst_multipliers + 4 * channel),
                            ldr(m, dst_shifts + 4 * channel))
    acc = add(m, acc, dst_offset)
    acc = max_lt(m, acc, activation_min)              # MAX(res, activation_min)
    acc = min_gt(m, acc, activation_max)              # MIN(res, activation_max)
    strb(m, address, acc)


@kernel(inline=True)
def _bias(m, bias, channel):
    value = 0
    if bias != 0:
        value = ldr(m, bias + 4 * channel)
    return value


@kernel(inline=True)
def _odd_column(m, rhs_ptr, rhs_cols, lhs_ptr, lhs_cols_offset, two_lhs, lhs_offset,
                r00, r01, r10, r11, s00, s01, s10, s11):
    """if (rhs_cols % 2) of a rhs pair: the low nibbles finish rows 0 and 2, the high nibbles
    start rows 1 and 3 (spillover) against the first lhs column."""
    byte0 = ldrsb(m, rhs_ptr)
    rhs_low0 = sbfx(m, byte0, 0, 4)
    rhs_high0 = asr(m, byte0, 4)
    byte1 = ldrsb(m, rhs_ptr + rhs_cols)
    rhs_low1 = sbfx(m, byte1, 0, 4)
    rhs_high1 = asr(m, byte1, 4)
    lhs_low = add(m, ldrsb(m, lhs_ptr), lhs_offset)
    r00 = mla(m, lhs_low, rhs_low0, r00)
    r01 = mla(m, lhs_low, rhs_low1, r01)
    if two_lhs:
        lhs_high = add(m, ldrsb(m, lhs_ptr + lhs_cols_offset), lhs_offset)
        r10 = mla(m, lhs_high, rhs_low0, r10)
        r11 = mla(m, lhs_high, rhs_low1, r11)
    lhs_ptr = sub(m, lhs_ptr, rhs_cols - 1)           # lhs_ptr -= rhs_cols - 1;
    lhs_low = add(m, ldrsb(m, lhs_ptr), lhs_offset)
    s00 = mla(m, lhs_low, rhs_high0, s00)
    s01 = mla(m, lhs_low, rhs_high1, s01)
    if two_lhs:
        lhs_high = add(m, ldrsb(m, lhs_ptr + lhs_cols_offset), lhs_offset)
        s10 = mla(m, lhs_high, rhs_high0, s10)
        s11 = mla(m, lhs_high, rhs_high1, s11)
    return lhs_ptr + 1, r00, r01, r10, r11, s00, s01, s10, s11


@kernel(inline=True)
def _rhs_quad(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers, dst_shifts, rhs_rows_idx,
              rhs_rows, rhs_cols, two_lhs, lhs_cols_offset, lhs_offset, offset_x2, dst_offset,
              activation_min, activation_max):
    """Rows rhs_rows_idx .. + 3 against one (or two) lhs rows: the pair (0, 2), the pair
    (1, 3).  Returns the lhs pointer after the rows."""
    odd = rhs_cols & 1
    b0 = _bias(m, bias, rhs_rows_idx)
    b2 = _bias(m, bias, rhs_rows_idx + 2)
    r00, r01, r10, r11 = b0, b2, b0, b2
    s00 = s01 = s10 = s11 = 0
    if m.dsp:                                         # the DSP build adds the second bias first
        b1 = _bias(m, bias, rhs_rows_idx + 1)
        b3 = _bias(m, bias, rhs_rows_idx + 3)
        s00, s01, s10, s11 = b1, b3, b1, b3
    cbz(m, bias == 0)
    rhs_ptr, lhs_ptr, r00, r01, r10, r11 = _columns(
        m, packed_rhs, rhs_cols, rhs_cols - odd, True, lhs_ptr, lhs_cols_offset, two_lhs,
        lhs_offset, offset_x2, False, r00, r01, r10, r11)
    cbz(m, odd == 0)
    if odd:
        lhs_ptr, r00, r01, r10, r11, s00, s01, s10, s11 = _odd_column(
            m, rhs_ptr, rhs_cols, lhs_ptr, lhs_cols_offset, two_lhs, lhs_offset,
            r00, r01, r10, r11, s00, s01, s10, s11)
        rhs_ptr += 1
    else:
        lhs_ptr = sub(m, lhs_ptr, rhs_cols)           # lhs_ptr -= rhs_cols;
    limits = (dst_offset, activation_min, activation_max)
    _out(m, r00, dst_multipliers, dst_shifts, rhs_rows_idx, *limits, dst_ptr)
    _out(m, r01, dst_multipliers, dst_shifts, rhs_rows_idx + 2, *limits, dst_ptr + 2)
    if two_lhs:
        _out(m, r10, dst_multipliers, dst_shifts, rhs_rows_idx, *limits, dst_ptr + rhs_rows)
        _out(m, r11, dst_multipliers, dst_shifts, rhs_rows_idx + 2, *limits,
             dst_ptr + rhs_rows + 2)
    r00, r01, r10, r11 = s00, s01, s10, s11           # res00 = spillover00; ...
    if not m.dsp:
        b1 = _bias(m, bias, rhs_rows_idx + 1)
        b3 = _bias(m, bias, rhs_rows_idx + 3)
        r00 = add(m, r00, b1)
        r01 = add(m, r01, b3)
        if two_lhs:
            r10 = add(m, r10, b1)
            r11 = add(m, r11, b3)
        cbz(m, bias == 0)
    rhs_ptr, lhs_ptr, r00, r01, r10, r11 = _columns(
        m, rhs_ptr, rhs_cols, rhs_cols - odd, True, lhs_ptr, lhs_cols_offset, two_lhs,
        lhs_offset, offset_x2, True, r00, r01, r10, r11)
    _out(m, r00, dst_multipliers, dst_shifts, rhs_rows_idx + 1, *limits, dst_ptr + 1)
    _out(m, r01, dst_multipliers, dst_shifts, rhs_rows_idx + 3, *limits, dst_ptr + 3)
    if two_lhs:
        _out(m, r10, dst_multipliers, dst_shifts, rhs_rows_idx + 1, *limits,
             dst_ptr + rhs_rows + 1)
        _out(m, r11, dst_multipliers, dst_shifts, rhs_rows_idx + 3, *limits,
             dst_ptr + rhs_rows + 3)
    return lhs_ptr


@kernel(inline=True)
def _rhs_single(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers, dst_shifts, channel,
                rhs_rows, rhs_cols, rhs_rows_idx, spilled, two_lhs, lhs_cols_offset, lhs_offset,
                offset_x2, dst_offset, activation_min, activation_max):
    """A left-over rhs row against one (or two) lhs rows; row 1 of an odd rhs_cols starts
    with the nibble row 0 left (`spilled`).  Returns the lhs pointer after the row."""
    odd = rhs_cols & 1
    r00 = _bias(m, bias, channel)
    r10 = r00
    cbz(m, bias == 0)
    cmp(m, rhs_rows_idx, 1)
    bcc(m, not (odd and rhs_rows_idx == 1))
    if odd and rhs_rows_idx == 1:
        r00 = mla(m, add(m, ldrsb(m, lhs_ptr), lhs_offset), spilled, r00)
        if two_lhs:
            r10 = mla(m, add(m, ldrsb(m, lhs_ptr + lhs_cols_offset), lhs_offset), spilled, r10)
        lhs_ptr = add(m, lhs_ptr, 1)
    _, lhs_ptr, r00, _, r10, _ = _columns(
        m, packed_rhs, rhs_cols, rhs_cols - odd, False, lhs_ptr, lhs_cols_offset, two_lhs,
        lhs_offset, offset_x2, False, r00, 0, r10, 0)
    tail = odd and (rhs_rows_idx & 1) == 0
    cmp(m, rhs_rows_idx & 1, 0)
    bcc(m, not tail)
    if tail:                                          # the low nibble of the row's last byte
        rhs_low = sbfx(m, ldrsb(m, packed_rhs + (rhs_cols >> 1)), 0, 4)
        r00 = mla(m, add(m, ldrsb(m, lhs_ptr), lhs_offset), rhs_low, r00)
        if two_lhs:
            r10 = mla(m, add(m, ldrsb(m, lhs_ptr + lhs_cols_offset), lhs_offset), rhs_low, r10)
        lhs_ptr = add(m, lhs_ptr, 1)
    limits = (dst_offset, activation_min, activation_max)
    _out(m, r00, dst_multipliers, dst_shifts, channel, *limits, dst_ptr)
    if two_lhs:
        _out(m, r10, dst_multipliers, dst_shifts, channel, *limits, dst_ptr + rhs_rows)
    return lhs_ptr


@kernel
def arm_nn_mat_mult_nt_t_s4(m, lhs, packed_rhs, bias, dst, dst_multipliers, dst_shifts,
                            lhs_rows, rhs_rows, rhs_cols, lhs_offset, dst_offset,
                            activation_min, activation_max, lhs_cols_offset):
    """Returns ARM_CMSIS_NN_SUCCESS (0)."""
    push(m, 9)
    offset_x2 = 0
    if m.dsp:                                         # PKHBT(i16_lhs_offset, i16_lhs_offset, 16)
        half = sxth(m, lhs_offset, 0)
        offset_x2 = pkhbt(m, half, half, 16)
    rhs_cols_int4 = asr(m, rhs_cols, 1)
    block = BLOCK_DSP if m.dsp else BLOCK_SCALAR
    limits = (dst_offset, activation_min, activation_max)
    rhs_rows_idx = 0
    cmp(m, rhs_rows, 3)
    bcc(m, rhs_rows <= 3)
    while rhs_rows_idx + 4 <= rhs_rows:
        lhs_ptr = lhs
        dst_ptr = dst
        for _ in range(lhs_rows >> 1):
            lhs_ptr = _rhs_quad(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers,
                                dst_shifts, rhs_rows_idx, rhs_rows, rhs_cols, True,
                                lhs_cols_offset, lhs_offset, offset_x2, *limits)
            _bookkeeping(m, block[0], block[1], block[2])
            dst_ptr = add(m, dst_ptr, 2 * rhs_rows)
            lhs_ptr = add(m, lhs_ptr, 2 * lhs_cols_offset - rhs_cols)
            cmp(m, 0, 0)
            bcc(m, True)
        cbz(m, (lhs_rows & 1) == 0)
        if lhs_rows & 1:
            _rhs_quad(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers, dst_shifts,
                      rhs_rows_idx, rhs_rows, rhs_cols, False, lhs_cols_offset, lhs_offset,
                      offset_x2, *limits)
        packed_rhs = add(m, packed_rhs, 2 * rhs_cols)
        dst = add(m, dst, 4)
        rhs_rows_idx += 4
        cmp(m, rhs_rows_idx + 4, rhs_rows + 1)
        bcc(m, rhs_rows_idx + 4 <= rhs_rows)
    spilled = 0
    finished = rhs_rows_idx
    left_over = rhs_rows & 3
    cbz(m, left_over == 0)
    for idx in range(left_over):
        lhs_ptr = lhs
        dst_ptr = dst
        for _ in range(lhs_rows >> 1):
            lhs_ptr = _rhs_single(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers,
                                  dst_shifts, finished + idx, rhs_rows, rhs_cols, idx, spilled,
                                  True, lhs_cols_offset,
                        lhs_offset, offset_x2, *limits)
            lhs_ptr = add(m, lhs_ptr, 2 * lhs_cols_offset - rhs_cols)
            dst_ptr = add(m, dst_ptr, 2 * rhs_rows)
            cmp(m, 0, 0)
            bcc(m, True)
        cbz(m, (lhs_rows & 1) == 0)
        if lhs_rows & 1:
            _rhs_single(m, lhs_ptr, packed_rhs, bias, dst_ptr, dst_multipliers, dst_shifts,
                        finished + idx, rhs_rows, rhs_cols, idx, spilled, False,
                        lhs_cols_offset, lhs_offset, offset_x2, *limits)
        if (rhs_cols & 1) and (idx & 1) == 0:
            spilled = asr(m, ldrsb(m, packed_rhs + rhs_cols_int4), 4)
            packed_rhs = add(m, packed_rhs, rhs_cols_int4 + 1)
        else:
            spilled = mov(m, 0)
            packed_rhs = add(m, packed_rhs, rhs_cols_int4)
        dst = add(m, dst, 1)
        cmp(m, idx + 1, left_over)
        bcc(m, idx + 1 < left_over)
    mov(m, 0)
    pop_pc(m, 9)
    return 0
