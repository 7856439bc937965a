"""arm_max_pool_s16 (Source/PoolingFunctions/arm_max_pool_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int16_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int16_t *dst)

arm_max_pool_s8's structure on halfwords: per output position the first window tap inside
the input is copied with memcpy (channel_in * 2 bytes, newlib, kernels/libc.py), every further
tap is merged by compare_and_replace_if_larger (two halfwords per word through the
`arm_nnword` union: SXTH for half_words[0], ASR #16 for half_words[1], CMP + IT + MOV, BFI
back), then clamp_output clamps the batch's output in place.  No ARM_MATH_DSP code: the same
port runs both paths (the measured dsp_O2 and scalar_O2 totals differ by 1.4 %).  gcc -O2
inlines both static helpers (the measured call graph has only arm_max_pool_s16 -> memcpy).

Stack reloads / spills of the loop state and the register copies, per output position and
per merged tap, are fitted (not read off the C) to both measured cases, which separate the
two: ../shared/reference maxpool_s16_2x2_s2_p0_8x8x16 (16 positions, 48 merged taps; dsp_O2
10,976, scalar_O2 11,131 instructions) and maxpool_s16_3x3_s2_p1_9x9x8 (25 positions, 144
merged taps; 16,023 / 16,273).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, bfi, bic, bl, cmp, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_str_sp, fitted_strd_sp, it, ldr, ldrsh, mla, mov, mul, pop_pc,
                            push, rsb, str_, strh, sub, sxth)
from armsim.kernels.minmax import max_lt, min_gt

from ..libc import memcpy


@kernel(inline=True)
def _half(m, word, lane):
    """union arm_nnword .half_words[lane] (int16_t): SXTH / ASR #16."""
    if lane == 0:
        return sxth(m, word, 0)
    return asr(m, word, 16)


@kernel(inline=True)
def compare_and_replace_if_larger(m, base, target, length, cnt2, tail):
    """`cnt2` = length >> 1 and `tail` = length & 1 are loop-invariant in the caller (gcc
    computes them once); the word loop runs on an end pointer (CMP + BNE)."""
    dst = base                                             # int16_t *dst = base;
    src = target                                           # const int16_t *src = target;
    cnt = cnt2                                             # int32_t cnt = length >> 1;
    end = src + 4 * cnt2
    cmp(m, cnt, 0)                                         # while (cnt > 0l)
    bcc(m, cnt <= 0)
    while src != end:
        ref_max = ldr(m, dst)                              # ref_max.word = arm_nn_read_s16x2(dst);
        comp_max = ldr(m, src)                             # comp_max.word = arm_nn_read_q15x2_ia(&src);
        src += 4
        for lane in range(2):
            ref = _half(m, ref_max, lane)
            comp = _half(m, comp_max, lane)
            cmp(m, comp, ref)                              # if (comp_max.half_words[i] > ref_max.half_words[i])
            it(m, comp <= ref)                             # the MOV fails unless comp is larger
            if comp > ref:
                ref = mov(m, comp)                         #     ref_max.half_words[i] = comp_max.half_words[i];
            ref_max = bfi(m, ref_max, ref, 16 * lane, 16)
        str_(m, dst, ref_max)                              # arm_nn_write_q15x2_ia(&dst, ref_max.word);
        dst += 4
        cmp(m, src, end)                                   # cnt--;  (loop on the end pointer)
        bcc(m, src != end)
    cmp(m, tail, 0)                                        # if (length & 0x1)
    bcc(m, tail == 0)
    if tail:
        s = ldrsh(m, src)                                  # if (*src > *dst) *dst = *src;
        d = ldrsh(m, dst)
        cmp(m, s, d)
        it(m, s <= d)                                      # the STRH fails unless *src is larger
        if s > d:
            strh(m, dst, s)


@kernel(inline=True)
def _clamp(m, v, act_min, act_max):
    v = max_lt(m, v, act_min)                              # MAX(v, act_min)
    v = min_gt(m, v, act_max)                              # MIN(v, act_max)
    return v


@kernel(inline=True)
def clamp_output(m, source, length, act_min, act_max):
    cnt = asr(m, length, 1)                                # int32_t cnt = length >> 1;
    cmp(m, cnt, 0)
    bcc(m, cnt <= 0)
    while cnt > 0:
        word = ldr(m, source)                              # in.word = arm_nn_read_s16x2(source);
        for lane in range(2):                              # in.half_words[i] = MIN(MAX(.., act_min), act_max)
            v = _clamp(m, _half(m, word, lane), act_min, act_max)
            word = bfi(m, word, v, 16 * lane, 16)
        str_(m, source, word)                              # arm_nn_write_q15x2_ia(&source, in.word);
        source += 4
        cnt = sub(m, cnt, 1)                               # cnt--;
        bcc(m, cnt > 0)
    tail = and_(m, length, 1)                              # if (length & 0x1)
    bcc(m, tail == 0)
    if tail:
        comp = _clamp(m, ldrsh(m, source), act_min, act_max)
        strh(m, source, comp)                              # *source = comp;


@kernel
def arm_max_pool_s16(m, stride_y, stride_x, pad_y, pad_x, act_min, act_max, batch_cnt, input_y,
                     input_x, channel_in, src, kernel_y, kernel_x, output_y, output_x, dst):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # struct fields, stacked arguments
        fitted_ldrd_sp(m)
    for _ in range(6):
        fitted_ldr_sp(m)
    batch_size = mul(m, mul(m, input_x, input_y), channel_in)  # input_x * input_y * channel_in
    cmp(m, batch_cnt, 1)                                   # if (batch_cnt < 1) return ARM_CMSIS_NN_ARG_ERROR;
    bcc(m, batch_cnt < 1)
    if batch_cnt < 1:
        pop_pc(m, 9)
        return -1
    neg_pad_y = rsb(m, pad_y, 0)
    neg_pad_x = rsb(m, pad_x, 0)
    row_bytes = 2 * input_x * channel_in                   # strength-reduced row step (LSL folded)
    position_copies = 8 if m.dsp else 9                    # fitted (see the docstring)
    tap_copies = 2 if m.dsp else 4
    cnt2 = asr(m, channel_in, 1)                           # compare_and_replace_if_larger's
    tail = and_(m, channel_in, 1)                          # counts, hoisted
    while batch_cnt:
        dst_base = mov(m, dst)                             # int16_t *dst_base = dst;
        base_idx_y = neg_pad_y                             # base_idx_y = -pad_y
        cmp(m, output_y, 0)
        bcc(m, output_y <= 0)
        for i_y in range(output_y):
            # ker_y_start = MAX(0, -base_idx_y);  kernel_y_end = MIN(kernel_y, input_y - base_idx_y)
            ker_y_start = bic(m, rsb(m, base_idx_y, 0), (-base_idx_y) >> 31)
            kernel_y_end = sub(m, input_y, base_idx_y)
            kernel_y_end = min_gt(m, kernel_y_end, kernel_y)
            base_idx_x = neg_pad_x
            cmp(m, output_x, 0)
            bcc(m, output_x <= 0)
            for i_x in range(output_x):
                for _ in range(22):                        # fitted: reloads of spilled loop state
                    fitted_ldr_sp(m)
                for _ in range(9):
                    fitted_str_sp(m)
                for _ in range(3):
                    fitted_ldrd_sp(m)
                    fitted_strd_sp(m)
                for _ in range(position_copies):           # fitted: register copies
                    mov(m, 0)
                for _ in range(3):
                    add(m, 0, 0)
                ker_x_start = bic(m, rsb(m, base_idx_x, 0), (-base_idx_x) >> 31)
                kernel_x_end = sub(m, input_x, base_idx_x)
                kernel_x_end = min_gt(m, kernel_x_end, kernel_x)
                count = mov(m, 0)                          # int count = 0;
                k_y = ker_y_start
                cmp(m, k_y, kernel_y_end)
                bcc(m, k_y >= kernel_y_end)
                while k_y < kernel_y_end:
                    k_x = ker_x_start
                    cmp(m, k_x, kernel_x_end)
                    bcc(m, k_x >= kernel_x_end)
                    # start = src + channel_in * (k_x + base_idx_x + (k_y + base_idx_y) * input_x),
                    # strength-reduced: one MLA per output position, then pointer steps
                    if k_y == ker_y_start:
                        start_row = mla(m, add(m, k_y, base_idx_y), row_bytes,
                                        src + 2 * channel_in * (ker_x_start + base_idx_x))
                    else:
                        start_row = add(m, start_row, row_bytes)
                    start = start_row
                    while k_x < kernel_x_end:
                        cmp(m, count, 0)                   # if (count == 0)
                        bcc(m, count != 0)
                        if count == 0:
                            for _ in range(3):             # caller-saved state around the call
                                fitted_strd_sp(m)
                            mov(m, dst)
                            mov(m, start)
                            nbytes = add(m, channel_in, channel_in)  # channel_in * sizeof(int16_t)
                            bl(m)                          # memcpy(dst, start, channel_in * sizeof(int16_t));
                            memcpy(m, dst, start, nbytes)
                            for _ in range(3):
                                fitted_ldrd_sp(m)
                            count = add(m, count, 1)       # count++;
                        else:
                            for _ in range(3):             # fitted: loop state reloaded per tap
                                fitted_ldr_sp(m)
                            for _ in range(tap_copies):    # fitted: register copies
                                mov(m, 0)
                            cmp(m, 0, 0)
                            compare_and_replace_if_larger(m, dst, start, channel_in, cnt2, tail)
                        start = add(m, start, 2 * channel_in)
                        k_x = add(m, k_x, 1)
                        cmp(m, k_x, kernel_x_end)
                        bcc(m, k_x < kernel_x_end)
                    k_y = add(m, k_y, 1)
                    cmp(m, k_y, kernel_y_end)
                    bcc(m, k_y < kernel_y_end)
                dst = add(m, dst, 2 * channel_in)          # dst += channel_in;
                base_idx_x = add(m, base_idx_x, stride_x)  # base_idx_x += stride_x, i_x++
                cmp(m, i_x + 1, output_x)
                bcc(m, i_x + 1 < output_x)
            base_idx_y = add(m, base_idx_y, stride_y)      # base_idx_y += stride_y, i_y++
            cmp(m, i_y + 1, output_y)
            bcc(m, i_y + 1 < output_y)
        length = mul(m, mul(m, output_x, output_y), channel_in)
        clamp_output(m, dst_base, length, act_min, act_max)
        src = add(m, src, 2 * batch_size)                  # src += batch_size;
        batch_cnt = sub(m, batch_cnt, 1)                   # batch_cnt--;
        bcc(m, batch_cnt != 0)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
