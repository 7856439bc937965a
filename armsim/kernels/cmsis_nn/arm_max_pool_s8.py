"""arm_max_pool_s8 (Source/PoolingFunctions/arm_max_pool_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_max_pool_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int8_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int8_t *dst)

Per output position: the first window tap inside the input is copied with arm_memcpy_s8
(newlib memcpy, kernels/libc.py), every further tap is merged by
compare_and_replace_if_larger_q7 (four bytes per word through the `arm_nnword` union, then
the channel_in % 4 bytes); at the end of a batch clamp_output clamps the whole output in
place.  There is no ARM_MATH_DSP code, but the two builds schedule it differently.  Both
static helpers are inlined (the only call is memcpy).

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3); the
hexadecimal numbers in the comments are the M4 object's offsets (the M3 code has the same
blocks, its own order inside them).  The union's byte accesses compile to SXTB / SBFX /
ASR #24 and a BFI per byte; MAX / MIN to CMP + IT + a conditional MOV, whose operands gcc
orders per lane (the MOV executes when the register it writes loses the comparison).
Struct field loads (`LDR [rN, #imm]` of the caller's structs) are issued as stack-slot loads.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, bfi, bic, bl, cbz, cmp, it, ldr, ldr_sp,
                            ldrd_sp, ldrsb, mla, mov, mul, pop_pc, push, rsb, sbfx, str_, str_sp,
                            strb, strd_sp, sub, sxtb)
from armsim.kernels.minmax import max_lt, min_ge

from ..libc import memcpy

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel(inline=True)
def _larger(m, keep, other):
    """CMP keep, other; IT LT; MOVLT keep, other -- the larger of the two (when equal the
    MOV's condition fails)."""
    cmp(m, keep, other)
    it(m, keep >= other)
    if keep < other:
        keep = mov(m, other)
    return keep


@kernel(inline=True)
def _compare_words(m, dst, src, cnt4):
    """compare_and_replace_if_larger_q7's word loop, `cnt4` > 0 words (0x184-0x1e0)."""
    if m.dsp:
        strd_sp(m)                                 # 184
        mov(m, 0)
        mov(m, 0)
    else:
        mov(m, 0)
        mov(m, 0)
        strd_sp(m)
    for w in range(cnt4):
        ref_max = ldr(m, dst + 4 * w)              # 18c: ref_max.word = arm_nn_read_s8x4(dst);
        comp_max = ldr(m, src + 4 * w)             # comp_max.word = arm_nn_read_s8x4_ia(&src);
        # if (comp_max.bytes[i] > ref_max.bytes[i]) ref_max.bytes[i] = comp_max.bytes[i];
        ref0 = sxtb(m, ref_max, 0)
        comp0 = sxtb(m, comp_max, 0)
        lane0 = _larger(m, ref0, comp0)
        word = mov(m, 0)
        ref1 = sbfx(m, ref_max, 8, 8)
        word = bfi(m, word, lane0, 0, 8)
        comp1 = sbfx(m, comp_max, 8, 8)
        lane1 = _larger(m, comp1, ref1)
        if m.dsp:
            word = bfi(m, word, lane1, 8, 8)
            ref2 = sbfx(m, ref_max, 16, 8)
        else:
            ref2 = sbfx(m, ref_max, 16, 8)
            word = bfi(m, word, lane1, 8, 8)
        comp2 = sbfx(m, comp_max, 16, 8)
        if m.dsp:                                  # M4: cmp comp, ref; M3: cmp ref, comp
            cmp(m, comp2, ref2)
        else:
            cmp(m, ref2, comp2)
        comp3 = asr(m, comp_max, 24)
        ref3 = asr(m, ref_max, 24)
        if m.dsp:
            it(m, comp2 >= ref2)
            lane2 = comp2
            if comp2 < ref2:
                lane2 = mov(m, ref2)
        else:
            it(m, ref2 >= comp2)
            lane2 = ref2
            if ref2 < comp2:
                lane2 = mov(m, comp2)
        lane3 = _larger(m, comp3, ref3)
        word = bfi(m, word, lane2, 16, 8)
        word = bfi(m, word, lane3, 24, 8)
        str_(m, dst + 4 * w, word)                 # arm_nn_write_s8x4_ia(&dst, ref_max.word);
        cmp(m, w + 1, cnt4)
        bcc(m, w + 1 < cnt4)
    if m.dsp:
        ldr_sp(m)                                  # 1e2
        ldrd_sp(m)
    else:
        ldrd_sp(m)
        ldr_sp(m)
    add(m, 0, 0)                                   # src after the words


@kernel(inline=True)
def _compare_bytes(m, dst, src, cnt1):
    """The loop over the channel_in % 4 bytes left (0x1f0-0x204), `cnt1` > 0."""
    sub(m, 0, 0)                                   # 1f0
    add(m, 0, 0)
    for i in range(cnt1):
        s = ldrsb(m, src + i)                      # if (*src > *dst) *dst = *src;
        d = ldrsb(m, dst + i)
        cmp(m, d, s)
        it(m, d >= s)                              # the STRB's condition fails unless *src is larger
        if d < s:
            strb(m, dst + i, s)
        cmp(m, i + 1, cnt1)
        bcc(m, i + 1 < cnt1)


@kernel(inline=True)
def _tap_step(m, k_x, kernel_x_end, loop_back):
    """k_x++ and the row's loop test: 0x170 (BEQ to the row's end) or 0x206 (BNE back);
    returns the new k_x."""
    k_x = add(m, k_x, 1)
    cmp(m, kernel_x_end, k_x)
    add(m, 0, 0)                                   # the tap pointer
    if loop_back:
        bcc(m, k_x != kernel_x_end)
    else:
        bcc(m, k_x == kernel_x_end)
    return k_x


@kernel(inline=True)
def _window_row(m, dst, start, channel_in, kernel_x_start, kernel_x_end, count):
    """One window row of taps (0x152-0x210): the first tap of the window is copied, every
    other one merged.  Returns the count (1 after a non-empty row)."""
    ldr_sp(m)                                      # 152: for (k_x = ker_x_start; k_x < kernel_x_end; k_x++)
    cmp(m, kernel_x_start, kernel_x_end)
    bcc(m, kernel_x_start >= kernel_x_end)
    if kernel_x_start >= kernel_x_end:
        return count
    mov(m, 0)                                      # 158: start
    cmp(m, count, 0)                               # 15a: if (count == 0)
    bcc(m, count != 0)
    k_x = kernel_x_start
    more = True
    if count == 0:
        mov(m, channel_in)                         # 160: arm_memcpy_s8(dst, start, channel_in);
        mov(m, start)
        mov(m, dst)
        bl(m)
        memcpy(m, dst, start, channel_in)
        if m.dsp:
            ldr_sp(m)                              # 16a
            mov(m, 0)
        else:
            mov(m, 0)
            ldr_sp(m)
        k_x = _tap_step(m, k_x, kernel_x_end, False)    # 170
        more = k_x != kernel_x_end
        entered = True
    else:
        if m.dsp:
            ldr_sp(m)                              # 328
            mov(m, 0)
        else:
            mov(m, 0)
            ldr_sp(m)
        b(m)                                       # b.n 17c
        entered = False
    cnt4 = channel_in >> 2
    cnt1 = channel_in & 3
    while more:
        if entered:
            mov(m, 0)                              # 17a: start
        entered = True
        src = start + channel_in * (k_x - kernel_x_start)
        # compare_and_replace_if_larger_q7(dst, start, channel_in)
        ldr_sp(m)                                  # 17c: int32_t cnt = length >> 2;
        cmp(m, cnt4, 0)                            # while (cnt > 0l)
        bcc(m, cnt4 <= 0)
        if cnt4 > 0:
            _compare_words(m, dst, src, cnt4)
        else:
            mov(m, 0)                              # 324
            b(m)
        cmp(m, cnt1, 0)                            # 1ec: cnt = length & 0x3; while (cnt > 0l)
        bcc(m, cnt1 == 0)
        if cnt1 == 0:
            k_x = _tap_step(m, k_x, kernel_x_end, False)    # 170
        else:
            _compare_bytes(m, dst + 4 * cnt4, src + 4 * cnt4, cnt1)
            k_x = _tap_step(m, k_x, kernel_x_end, True)     # 206
        more = k_x != kernel_x_end
    return mov(m, 1)                               # 210: count = 1 (the C's count++ is folded)


@kernel(inline=True)
def _mov_if_lt(m, v, lo):
    """IT LT; MOVLT v, lo after a CMP v, lo issued by the caller (MAX(v, lo))."""
    it(m, v >= lo)
    if v < lo:
        v = mov(m, lo)
    return v


@kernel(inline=True)
def _mov_if_ge(m, v, hi):
    """IT GE; MOVGE v, hi after a CMP v, hi issued by the caller (MIN(v, hi))."""
    it(m, v < hi)
    if v >= hi:
        v = mov(m, hi)
    return v


@kernel(inline=True)
def _clamp_word(m, word, act_min, act_max):
    """clamp_output's word: in.bytes[i] = MIN(MAX(in.bytes[i], act_min), act_max) for the
    four bytes, each re-sign-extended between MAX and MIN (0x2c2-0x316)."""
    if m.dsp:
        v0 = sxtb(m, word, 0)                      # 2c2
        v0 = max_lt(m, v0, act_min)
        v0 = sxtb(m, v0, 0)
        v0 = min_ge(m, v0, act_max)
        out = mov(m, 0)
        out = bfi(m, out, v0, 0, 8)
        v1 = sbfx(m, word, 8, 8)                   # 2d8
        v1 = max_lt(m, v1, act_min)
        v1 = sxtb(m, v1, 0)
        v1 = min_ge(m, v1, act_max)
        out = bfi(m, out, v1, 8, 8)
        v2 = sbfx(m, word, 16, 8)                  # 2ee: bytes 2 and 3 interleaved
        cmp(m, v2, act_min)
        v3 = asr(m, word, 24)
        v2 = _mov_if_lt(m, v2, act_min)
        cmp(m, v3, act_min)
        v2 = sxtb(m, v2, 0)
        v3 = _mov_if_lt(m, v3, act_min)
        v3 = sxtb(m, v3, 0)
        v2 = min_ge(m, v2, act_max)
        v3 = min_ge(m, v3, act_max)
    else:
        out = mov(m, 0)                            # the four MAX, then the four MIN
        v0 = sxtb(m, word, 0)
        v1 = sbfx(m, word, 8, 8)
        cmp(m, v0, act_min)
        v2 = sbfx(m, word, 16, 8)
        v0 = _mov_if_lt(m, v0, act_min)
        cmp(m, v1, act_min)
        v3 = asr(m, word, 24)
        v1 = _mov_if_lt(m, v1, act_min)
        v2 = max_lt(m, v2, act_min)
        v3 = max_lt(m, v3, act_min)
        v0 = sxtb(m, v0, 0)
        v1 = sxtb(m, v1, 0)
        cmp(m, v0, act_max)
        v2 = sxtb(m, v2, 0)
        v0 = _mov_if_ge(m, v0, act_max)
        cmp(m, v1, act_max)
        v3 = sxtb(m, v3, 0)
        v1 = _mov_if_ge(m, v1, act_max)
        v2 = min_ge(m, v2, act_max)
        v3 = min_ge(m, v3, act_max)
        out = bfi(m, out, v0, 0, 8)
        out = bfi(m, out, v1, 8, 8)
    out = bfi(m, out, v2, 16, 8)
    return bfi(m, out, v3, 24, 8)


@kernel(inline=True)
def _clamp_output(m, source, length, act_min, act_max):
    """clamp_output(dst_base, output_x * output_y * channel_in, act_min, act_max), inlined,
    after the test of the word count (the caller's BGT / BLE), to the end of the byte loop."""
    cnt = length >> 2                              # int32_t cnt = length >> 2;
    if cnt > 0:
        ldr_sp(m)                                  # 2bc
        add(m, 0, 0)
        for w in range(cnt):
            word = ldr(m, source + 4 * w)          # in.word = arm_nn_read_s8x4(source);
            str_(m, source + 4 * w, _clamp_word(m, word, act_min, act_max))
            cmp(m, w + 1, cnt)                     # arm_nn_write_s8x4_ia(&source, in.word);
            bcc(m, w + 1 < cnt)
        b(m)                                       # 322: b.n 280
    else:
        mov(m, 0)                                  # 27e
    source += 4 * cnt
    cnt = length & 3                               # cnt = length & 0x3;
    cbz(m, cnt == 0)                               # 280
    if cnt:
        add(m, 0, 0)
        for i in range(cnt):
            comp = ldrsb(m, source + i)            # int32_t comp = *source;
            comp = max_lt(m, comp, act_min)        # comp = MAX(comp, act_min);
            comp = min_ge(m, comp, act_max)        # comp = MIN(comp, act_max);
            strb(m, source + i, comp)              # *source++ = (int8_t)comp;
            cmp(m, i + 1, cnt)
            bcc(m, i + 1 < cnt)


@kernel(inline=True)
def _return(m, status):
    mov(m, status)                                 # 330: mov r0, fp / 338: mov.w r0, #-1
    if status != 0:
        b(m)                                       # b.n 332
    add(m, 0, 0)                                   # add sp, #frame
    pop_pc(m, 9)                                   # ldmia.w sp!, {r4-r11, pc}
    return status


@kernel(inline=True)
def _prologue(m, batch_cnt):
    """The struct fields into registers and stack slots, up to `if (batch_cnt < 1)`."""
    push(m, 9)                                     # stmdb sp!, {r4-r11, lr}
    if m.dsp:
        mov(m, 0)
        sub(m, 0, 0)                               # sub sp, #164
        ldrd_sp(m)                                 # 8: input_x, channel_in
        str_sp(m)
        ldr_sp(m)                                  # input_y
        str_sp(m)
        mov(m, 0)
        mul(m, 0, 0)                               # 14: batch_size = input_x * input_y * channel_in;
        ldrd_sp(m)                                 # filter_dims, output_dims (stacked)
        mul(m, 0, 0)
        str_sp(m)
        ldr_sp(m)                                  # 22: stride_y
        str_sp(m)
        ldr_sp(m)                                  # kernel_y
        str_sp(m)
        ldr_sp(m)                                  # kernel_x
        ldr_sp(m)                                  # 2c: batch_cnt = input_dims->n
        str_sp(m)
        ldr_sp(m)                                  # pad_y
        ldr_sp(m)                                  # output_y
        str_sp(m)
        ldr_sp(m)                                  # output_x
        ldr_sp(m)                                  # dst (stacked)
        ldr_sp(m)                                  # 3c: stride_x
        str_sp(m)
        mov(m, 0)
        cmp(m, batch_cnt, 0)                       # 44: if (batch_cnt < 1)
        ldr_sp(m)                                  # pad_x
        str_sp(m)
        ldrd_sp(m)                                 # 4c: act_min, act_max
        str_sp(m)
    else:
        sub(m, 0, 0)                               # sub sp, #172
        ldrd_sp(m)                                 # filter_dims, output_dims (stacked)
        ldr_sp(m)                                  # kernel_y
        ldr_sp(m)                                  # kernel_x
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldrd_sp(m)                                 # 16: input_x, channel_in
        ldr_sp(m)                                  # input_y
        ldr_sp(m)                                  # batch_cnt = input_dims->n
        str_sp(m)
        mul(m, 0, 0)                               # batch_size = input_x * input_y * channel_in;
        ldrd_sp(m)                                 # 24: act_min, act_max
        mul(m, 0, 0)
        str_sp(m)
        ldr_sp(m)                                  # 2e: stride_y
        ldr_sp(m)                                  # output_y
        str_sp(m)
        ldr_sp(m)                                  # stride_x
        ldr_sp(m)                                  # output_x
        str_sp(m)
        ldr_sp(m)                                  # 3a: pad_y
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)                                  # pad_x
        cmp(m, batch_cnt, 0)                       # 44: if (batch_cnt < 1)
        ldr_sp(m)                                  # dst (stacked)
        str_sp(m)
        str_sp(m)
        str_sp(m)
        str_sp(m)
    bcc(m, batch_cnt < 1)                          # ble.w 338


@kernel(inline=True)
def _invariants(m):
    """The loop invariants: clamp_output's and compare_and_replace's counts, -pad_y, the
    strides (0x56-0x92), up to the test of output_y."""
    if m.dsp:
        mul(m, 0, 0)                               # 56: output_x * output_y * channel_in
        mul(m, 0, 0)
        asr(m, 0, 2)                               # channel_in >> 2
        and_(m, 0, 3)                              # length & 3
        str_sp(m)
        asr(m, 0, 2)                               # length >> 2
        bic(m, 0, 3)
        str_sp(m)
        mov(m, 0)
        rsb(m, 0, 0)                               # 70: -pad_y
        str_sp(m)
        bic(m, 0, 3)                               # channel_in & ~3
        str_sp(m)
        mul(m, 0, 0)                               # 7a: input_x * channel_in
        str_sp(m)
        mul(m, 0, 0)                               # output_x * channel_in
        str_sp(m)
        ldr_sp(m)                                  # 86: output_y
        str_sp(m)
        # cmp output_y, #0 and two moves follow in the caller
    else:
        mov(m, 0)                                  # 54
        mul(m, 0, 0)                               # output_x * output_y * channel_in
        mul(m, 0, 0)
        mul(m, 0, 0)                               # input_x * channel_in
        str_sp(m)
        mul(m, 0, 0)                               # output_x * channel_in
        str_sp(m)
        asr(m, 0, 2)                               # 6a: channel_in >> 2
        str_sp(m)
        and_(m, 0, 3)                              # length & 3
        asr(m, 0, 2)                               # length >> 2
        bic(m, 0, 3)
        str_sp(m)
        rsb(m, 0, 0)                               # 7a: -pad_y
        str_sp(m)
        bic(m, 0, 3)                               # channel_in & ~3
        str_sp(m)
        ldr_sp(m)                                  # 84: output_y
        mov(m, 0)


@kernel
def arm_max_pool_s8(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    """`ctx` a Context (unused), `pool_params` a PoolParams, the dims Dims (arm_nn_types);
    returns ARM_CMSIS_NN_SUCCESS (0) or ARM_CMSIS_NN_ARG_ERROR (-1)."""
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, channel_in = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    batch_size = input_x * input_y * channel_in
    length = output_x * output_y * channel_in      # clamp_output's length
    _prologue(m, batch_cnt)
    if batch_cnt < 1:
        return _return(m, ARG_ERROR)
    _invariants(m)
    cmp(m, output_y, 0)                            # for (i_y = 0, base_idx_y = -pad_y; i_y < output_y; ...)
    if m.dsp:
        str_sp(m)                                  # 8c
        mov(m, 0)
        mov(m, 0)
    else:
        mov(m, 0)                                  # 8a
        str_sp(m)
    bcc(m, output_y <= 0)
    while True:                                    # while (batch_cnt)
        dst_base = dst                             # int8_t *dst_base = dst;
        if output_y > 0:
            if m.dsp:
                ldr_sp(m)                          # 96
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                rsb(m, pad_x, 0)                   # -pad_x
                str_sp(m)
                mov(m, 0)
                mov(m, 0)                          # i_y = 0
                mov(m, 0)
                for _ in range(6):
                    str_sp(m)
            else:
                mov(m, 0)                          # 92: i_y = 0
                str_sp(m)
                mov(m, 0)
                mov(m, 0)
                str_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                rsb(m, pad_x, 0)                   # -pad_x
                ldr_sp(m)
                strd_sp(m)
                mov(m, 0)
                ldr_sp(m)
                for _ in range(4):
                    str_sp(m)
            base_idx_y = -pad_y
            for i_y in range(output_y):
                ldr_sp(m)                          # bc: for (i_x = 0, base_idx_x = -pad_x; i_x < output_x; ...)
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                if output_x > 0:
                    # ker_y_start = MAX(0, -base_idx_y);  kernel_y_end = MIN(kernel_y, input_y - base_idx_y);
                    ldr_sp(m)                      # c4
                    ldr_sp(m)
                    ldr_sp(m)
                    if m.dsp:
                        ldr_sp(m)
                        str_sp(m)
                    add(m, input_y, -base_idx_y)
                    cmp(m, base_idx_y, 0)
                    it(m, 1)                       # ite le
                    if base_idx_y <= 0:
                        ker_y_start = mov(m, -base_idx_y)
                    else:
                        ker_y_start = mov(m, 0)
                    kernel_y_end = min_ge(m, input_y - base_idx_y, kernel_y)
                    str_sp(m)
                    if m.dsp:
                        add(m, 0, 0)               # e4
                        mul(m, 0, 0)               # input_x * (ker_y_start + base_idx_y)
                        ldr_sp(m)
                        str_sp(m)
                        strd_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                        ldr_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                        mov(m, 0)
                        mov(m, 0)                  # i_x = 0
                        mov(m, 0)
                    else:
                        ldr_sp(m)                  # e0
                        ldr_sp(m)
                        mov(m, 0)
                        str_sp(m)
                        mov(m, 0)                  # i_x = 0
                        mov(m, 0)
                        mov(m, 0)
                        add(m, 0, 0)
                        ldr_sp(m)
                        str_sp(m)
                        add(m, 0, 0)
                        add(m, 0, 0)
                        mul(m, 0, 0)               # input_x * (ker_y_start + base_idx_y)
                        mov(m, 0)
                        ldr_sp(m)
                        str_sp(m)
                        str_sp(m)
                        str_sp(m)
                    base_idx_x = -pad_x
                    for i_x in range(output_x):
                        # ker_x_start = MAX(0, -base_idx_x);  kernel_x_end = MIN(kernel_x, input_x - base_idx_x);
                        ldr_sp(m)                  # 10c
                        ldr_sp(m)
                        cmp(m, base_idx_x, 0)
                        if m.dsp:
                            sub(m, 0, 0)           # dst
                            ldr_sp(m)
                        else:
                            ldr_sp(m)
                            sub(m, 0, 0)           # dst
                            ldr_sp(m)
                        it(m, 1)                   # ite le
                        if base_idx_x <= 0:
                            ker_x_start = mov(m, -base_idx_x)
                        else:
                            ker_x_start = mov(m, 0)
                        kernel_x_end = min_ge(m, kernel_x, input_x - base_idx_x)
                        cmp(m, ker_y_start, kernel_y_end)   # for (k_y = ker_y_start; k_y < kernel_y_end; k_y++)
                        bcc(m, ker_y_start >= kernel_y_end)
                        if ker_y_start < kernel_y_end:
                            if m.dsp:
                                ldr_sp(m)          # 12c
                                str_sp(m)
                                add(m, 0, 0)
                                strd_sp(m)
                                ldr_sp(m)          # src
                                str_sp(m)
                                strd_sp(m)
                                strd_sp(m)
                                add(m, 0, 0)
                                mla(m, 0, 0, 0)    # the window's first row
                                and_(m, 0, 3)      # channel_in & 3
                                count = mov(m, 0)  # int count = 0;
                            else:
                                str_sp(m)          # 132
                                count = mov(m, 0)  # int count = 0;
                                ldr_sp(m)
                                strd_sp(m)
                                add(m, 0, 0)
                                strd_sp(m)
                                ldr_sp(m)          # src
                                add(m, 0, 0)
                                mla(m, 0, 0, 0)    # the window's first row
                                str_sp(m)
                                and_(m, 0, 3)      # channel_in & 3
                                str_sp(m)
                            for k_y in range(ker_y_start, kernel_y_end):
                                # start = src + channel_in * (k_x + base_idx_x + (k_y + base_idx_y) * input_x)
                                start = src + channel_in * (ker_x_start + base_idx_x
                                                            + (k_y + base_idx_y) * input_x)
                                count = _window_row(m, dst, start, channel_in, ker_x_start,
                                                    kernel_x_end, count)
                                ldr_sp(m)          # 212: the input row
                                ldr_sp(m)
                                add(m, 0, 0)
                                ldr_sp(m)
                                add(m, k_y, 1)
                                cmp(m, k_y + 1, kernel_y_end)
                                str_sp(m)
                                bcc(m, k_y + 1 != kernel_y_end)
                            if m.dsp:
                                ldrd_sp(m)         # 222
                                ldrd_sp(m)
                                ldrd_sp(m)
                            else:
                                ldrd_sp(m)
                                ldrd_sp(m)
                                ldr_sp(m)
                        # dst += channel_in;
                        ldr_sp(m)                  # 22e
                        add(m, i_x, 1)
                        cmp(m, output_x, i_x + 1)
                        add(m, 0, 0)
                        sub(m, 0, 0)
                        sub(m, 0, 0)
                        dst = add(m, dst, channel_in)
                        base_idx_x += stride_x
                        bcc(m, i_x + 1 != output_x)
                    if m.dsp:
                        ldrd_sp(m)                 # 246
                        ldr_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                    else:
                        ldrd_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        add(m, 0, 0)
                if m.dsp:
                    ldr_sp(m)                      # 254: base_idx_y += stride_y, i_y++
                    ldr_sp(m)
                    base_idx_y = add(m, base_idx_y, stride_y)
                    str_sp(m)
                    ldr_sp(m)
                    add(m, i_y, 1)
                    cmp(m, output_y, i_y + 1)
                    sub(m, 0, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    base_idx_y = add(m, base_idx_y, stride_y)
                    sub(m, 0, 0)
                    ldr_sp(m)
                    add(m, i_y, 1)
                    cmp(m, output_y, i_y + 1)
                    str_sp(m)
                    str_sp(m)
                bcc(m, i_y + 1 != output_y)
            if m.dsp:
                ldr_sp(m)                          # 26a
                ldr_sp(m)
                ldr_sp(m)
                cmp(m, 0, 0)
                mov(m, 0)
                ldrd_sp(m)
                ldrd_sp(m)
            else:
                ldrd_sp(m)
                ldr_sp(m)
                mov(m, 0)
                cmp(m, 0, 0)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
            bcc(m, length > 3)                     # bgt 2bc: while (cnt > 0l)
        else:
            ldr_sp(m)                              # 2b4
            if m.dsp:
                cmp(m, 0, 0)
                mov(m, 0)
            else:
                mov(m, 0)
                cmp(m, 0, 0)
            bcc(m, length <= 3)                    # ble 27e
        _clamp_output(m, dst_base, length, act_min, act_max)
        ldr_sp(m)                                  # 29c: src += batch_size;
        ldr_sp(m)
        batch_cnt = sub(m, batch_cnt, 1)           # batch_cnt--;
        src = add(m, src, batch_size)
        str_sp(m)
        bcc(m, batch_cnt == 0)                     # beq 330
        if batch_cnt == 0:
            break
        ldr_sp(m)                                  # 2aa
        if m.dsp:
            cmp(m, output_y, 0)
            mov(m, 0)
        else:
            mov(m, 0)
            cmp(m, output_y, 0)
        bcc(m, output_y > 0)                       # bgt.w 96
    return _return(m, 0)
