"""arm_max_pool_s8 (Source/PoolingFunctions/arm_max_pool_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_max_pool_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int8_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int8_t *dst)

Per output position: the first window tap inside the input is copied with arm_memcpy_s8
(newlib memcpy, kernels/libc.py), every further tap is merged by
compare_and_replace_if_larger_q7 (four bytes per word through the `arm_nnword` union);
at the end clamp_output clamps the whole output in place.  There is no ARM_MATH_DSP code:
the same port runs both paths (the measured dsp_O2 and scalar_O2 counts differ by 0.3 %,
in memcpy).  Both static helpers are inlined by gcc -O2 (the measured call graph has only
arm_max_pool_s8 -> memcpy).

The union byte accesses compile to bitfield extracts (SXTB / SBFX / ASR #24) and a BFI per
byte; MAX/MIN to CMP + IT + conditional MOV.
Calibration (../shared/reference, gcc -O2): maxpool2x2_s2_8x8x16.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, bcc, bfi, bic, bl, cmp, fitted_add, fitted_ldr_sp,
                            fitted_ldrd_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr,
                            ldrsb, mla, mov, mul, pop_pc, push, rsb, sbfx, str_, strb, sub, sxtb)
from armsim.kernels.minmax import max_lt, min_gt

from ..libc import memcpy


@kernel(inline=True)
def _byte(m, word, lane):
    """union arm_nnword .bytes[lane] (int8_t): SXTB / SBFX #8k, #8 / ASR #24."""
    if lane == 0:
        return sxtb(m, word, 0)
    if lane == 3:
        return asr(m, word, 24)
    return sbfx(m, word, 8 * lane, 8)


@kernel(inline=True)
def compare_and_replace_if_larger_q7(m, base, target, length, cnt4, cnt1):
    """`cnt4` = length >> 2 and `cnt1` = length & 3 are loop-invariant in the caller (gcc
    computes them once); the word loop runs on an end pointer (CMP + BNE)."""
    dst = base                                             # int8_t *dst = base;
    src = target                                           # const int8_t *src = target;
    cnt = cnt4                                             # int32_t cnt = length >> 2;
    end = src + 4 * cnt4
    cmp(m, cnt, 0)                                         # while (cnt > 0l)
    bcc(m, cnt <= 0)
    while src != end:
        ref_max = ldr(m, dst)                              # ref_max.word = arm_nn_read_s8x4(dst);
        comp_max = ldr(m, src)                             # comp_max.word = arm_nn_read_s8x4_ia(&src);
        src += 4
        sxtb(m, ref_max, 0)                                # (gcc extracts bytes[0] twice: 3 SXTB per word measured)
        for lane in range(4):
            ref = _byte(m, ref_max, lane)
            comp = _byte(m, comp_max, lane)
            cmp(m, comp, ref)                              # if (comp_max.bytes[i] > ref_max.bytes[i])
            it(m, comp <= ref)                             # the MOV fails unless comp is larger
            if comp > ref:
                ref = mov(m, comp)                         #     ref_max.bytes[i] = comp_max.bytes[i];
            ref_max = bfi(m, ref_max, ref, 8 * lane, 8)
        for _ in range(3):                                 # register copies (measured ~3.7 MOV per word)
            fitted_mov(m)
        str_(m, dst, ref_max)                              # arm_nn_write_s8x4_ia(&dst, ref_max.word);
        dst += 4
        cmp(m, src, end)                                   # cnt--;  (loop on the end pointer)
        bcc(m, src != end)
    cnt = cnt1                                             # cnt = length & 0x3;
    cmp(m, cnt, 0)
    bcc(m, cnt == 0)
    while cnt > 0:
        s = ldrsb(m, src)                                  # if (*src > *dst) *dst = *src;
        d = ldrsb(m, dst)
        cmp(m, s, d)
        it(m, s <= d)                                      # the STRB fails unless *src is larger
        if s > d:
            strb(m, dst, s)
        dst += 1                                           # dst++; src++;
        src += 1
        cnt = sub(m, cnt, 1)                               # cnt--;
        bcc(m, cnt > 0)


@kernel(inline=True)
def _clamp(m, v, act_min, act_max):
    v = max_lt(m, v, act_min)                              # MAX(v, act_min)
    v = min_gt(m, v, act_max)                              # MIN(v, act_max)
    return v


@kernel(inline=True)
def clamp_output(m, source, length, act_min, act_max):
    cnt = asr(m, length, 2)                                # int32_t cnt = length >> 2;
    bcc(m, cnt <= 0)
    while cnt > 0:
        word = ldr(m, source)                              # in.word = arm_nn_read_s8x4(source);
        sxtb(m, word, 0)                                   # (bytes[0] extracted twice, as measured)
        fitted_mov(m)
        fitted_mov(m)
        for lane in range(4):                              # in.bytes[i] = MIN(MAX(in.bytes[i], act_min), act_max)
            v = _clamp(m, _byte(m, word, lane), act_min, act_max)
            word = bfi(m, word, v, 8 * lane, 8)
        str_(m, source, word)                              # arm_nn_write_s8x4_ia(&source, in.word);
        source += 4
        cnt = sub(m, cnt, 1)                               # cnt--;
        bcc(m, cnt > 0)
    cnt = and_(m, length, 3)                               # cnt = length & 0x3;
    bcc(m, cnt == 0)
    while cnt > 0:
        comp = _clamp(m, ldrsb(m, source), act_min, act_max)
        strb(m, source, comp)                              # *source++ = (int8_t)comp;
        source += 1
        cnt = sub(m, cnt, 1)
        bcc(m, cnt > 0)


@kernel
def arm_max_pool_s8(m, stride_y, stride_x, pad_y, pad_x, act_min, act_max, batch_cnt, input_y,
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
    cnt4 = asr(m, channel_in, 2)                           # compare_and_replace_if_larger_q7's
    cnt1 = and_(m, channel_in, 3)                          # counts, hoisted
    while batch_cnt:
        dst_base = mov(m, dst)                             # int8_t *dst_base = dst;
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
                for _ in range(12):                        # reloads of spilled loop state
                    fitted_ldr_sp(m)
                for _ in range(6):
                    fitted_str_sp(m)
                for _ in range(3):
                    fitted_ldrd_sp(m)
                    fitted_strd_sp(m)
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
                        start_row = mla(m, add(m, k_y, base_idx_y), input_x * channel_in,
                                        src + channel_in * (ker_x_start + base_idx_x))
                    else:
                        start_row = add(m, start_row, input_x * channel_in)
                    start = start_row
                    while k_x < kernel_x_end:
                        cmp(m, count, 0)                   # if (count == 0)
                        bcc(m, count != 0)
                        if count == 0:
                            for _ in range(3):             # caller-saved state around the call
                                fitted_strd_sp(m)
                            mov(m, dst)
                            mov(m, start)
                            mov(m, channel_in)
                            bl(m)                          # arm_memcpy_s8(dst, start, channel_in);
                            memcpy(m, dst, start, channel_in)
                            for _ in range(3):
                                fitted_ldrd_sp(m)
                            count = add(m, count, 1)       # count++;
                        else:
                            compare_and_replace_if_larger_q7(m, dst, start, channel_in, cnt4,
                                                             cnt1)
                        start = add(m, start, channel_in)
                        k_x = add(m, k_x, 1)
                        cmp(m, k_x, kernel_x_end)
                        bcc(m, k_x < kernel_x_end)
                    k_y = add(m, k_y, 1)
                    cmp(m, k_y, kernel_y_end)
                    bcc(m, k_y < kernel_y_end)
                dst = add(m, dst, channel_in)              # dst += channel_in;
                base_idx_x = add(m, base_idx_x, stride_x)  # base_idx_x += stride_x, i_x++
                cmp(m, i_x + 1, output_x)
                bcc(m, i_x + 1 < output_x)
            base_idx_y = add(m, base_idx_y, stride_y)      # base_idx_y += stride_y, i_y++
            cmp(m, i_y + 1, output_y)
            bcc(m, i_y + 1 < output_y)
        length = mul(m, mul(m, output_x, output_y), channel_in)
        clamp_output(m, dst_base, length, act_min, act_max)
        src = add(m, src, batch_size)                      # src += batch_size;
        batch_cnt = sub(m, batch_cnt, 1)                   # batch_cnt--;
        bcc(m, batch_cnt != 0)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
