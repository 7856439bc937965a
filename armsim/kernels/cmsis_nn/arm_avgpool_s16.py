"""arm_avgpool_s16 (Source/PoolingFunctions/arm_avgpool_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_avgpool_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int16_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int16_t *dst)

ARM_MATH_DSP: arm_avgpool_s8's DSP structure on halfwords: a NULL `ctx->buf` is an argument
error (arm_avgpool_s16_get_buffer_size: ch_src * 4 bytes); per output position the window
taps inside the input are accumulated per channel into that int32 buffer (the first tap
copies, the others QADD), then the static scale_q31_to_q15_and_clamp (inlined) divides by
the tap count with SDIV, rounding half away from zero, and clamps.
Plain C ("adapted from arm_avgpool_s8.c"): per output element the window, already clipped
to the input (MAX(0, -base_idx), MIN(kernel, input - base_idx)), is summed tap by tap; the
rounding division compiles to UDIV when the sum is positive and SDIV otherwise (both in the
measured scalar_O2 histogram).

Stack reloads / spills of the loop state and register copies per loop level are fitted
(not read off the C) to ../shared/reference avgpool_s16_2x2_s2_p0_8x8x16 (dsp_O2 10,915,
scalar_O2 19,156 instructions), the only measured case.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bic, cmp, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_str_sp, fitted_strd_sp, it, ldr, ldrsh, mla, mov, mul, pop_pc,
                            push, qadd, rsb, sdiv, str_, strh, sub, udiv)
from armsim.kernels.minmax import max_lt, min_gt


@kernel(inline=True)
def _clamp(m, v, act_min, act_max):
    v = max_lt(m, v, act_min)                              # sum = MAX(sum, act_min);
    v = min_gt(m, v, act_max)                              # sum = MIN(sum, act_max);
    return v


@kernel(inline=True)
def scale_q31_to_q15_and_clamp(m, buffer, target, length, count, act_min, act_max):
    half_count = asr(m, count, 1)                          # const int half_count = count / 2;  (count > 0)
    cmp(m, length, 0)                                      # for (int i = 0; i < length; i++)
    bcc(m, length <= 0)
    for i in range(length):
        v = ldr(m, buffer + 4 * i)                         # buffer[i]
        cmp(m, v, 0)                                       # buffer[i] > 0 ? (buffer[i] + half_count)
        it(m, 1)                                           #              : (buffer[i] - half_count)  (ITE: one arm fails)
        if v > 0:
            total = add(m, v, half_count)
        else:
            total = sub(m, v, half_count)
        total = sdiv(m, total, count)                      # sum = sum / count;
        total = _clamp(m, total, act_min, act_max)
        strh(m, target + 2 * i, total)                     # target[i] = (int16_t)sum;
        cmp(m, i + 1, length)
        bcc(m, i + 1 < length)


@kernel
def arm_avgpool_s16(m, stride_y, stride_x, pad_y, pad_x, act_min, act_max, batch_cnt, input_y,
                    input_x, ch_src, src, kernel_y, kernel_x, output_y, output_x, dst, buffer,
                    buffer_size):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # struct fields, stacked arguments
        fitted_ldrd_sp(m)
    for _ in range(4):
        fitted_ldr_sp(m)
    batch_input = mul(m, mul(m, input_x, input_y), ch_src)  # input_x * input_y * ch_src
    cmp(m, batch_cnt, 1)                                   # if (batch_cnt < 1) return ARM_CMSIS_NN_ARG_ERROR;
    bcc(m, batch_cnt < 1)
    if batch_cnt < 1:
        pop_pc(m, 9)
        return -1
    if m.dsp:
        cmp(m, buffer, 0)                                  # if (buffer == NULL) return ARM_CMSIS_NN_ARG_ERROR;
        bcc(m, buffer == 0)
        if buffer == 0:
            pop_pc(m, 9)
            return -1
        while batch_cnt:
            idx_y = rsb(m, pad_y, 0)                       # idx_y = -pad_y
            cmp(m, output_y, 0)
            bcc(m, output_y <= 0)
            for i_y in range(output_y):
                idx_x = rsb(m, pad_x, 0)                   # idx_x = -pad_x
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                for i_x in range(output_x):
                    for _ in range(26):                    # fitted: reloads of spilled loop state
                        fitted_ldr_sp(m)
                    for _ in range(14):
                        fitted_str_sp(m)
                    for _ in range(2):
                        fitted_ldrd_sp(m)
                    fitted_strd_sp(m)
                    for _ in range(10):                    # fitted: register shuffles around the loops
                        mov(m, 0)
                    b(m)
                    # kernel_y_start = MAX(0, -idx_y);  kernel_x_start = MAX(0, -idx_x);
                    kernel_y_start = bic(m, rsb(m, idx_y, 0), (-idx_y) >> 31)
                    kernel_x_start = bic(m, rsb(m, idx_x, 0), (-idx_x) >> 31)
                    # kernel_y_end = MIN(kernel_y, input_y - idx_y);  (x alike)
                    kernel_y_end = sub(m, input_y, idx_y)
                    kernel_y_end = min_gt(m, kernel_y_end, kernel_y)
                    kernel_x_end = sub(m, input_x, idx_x)
                    kernel_x_end = min_gt(m, kernel_x_end, kernel_x)
                    count = mov(m, 0)                      # int count = 0;
                    k_y = kernel_y_start
                    cmp(m, k_y, kernel_y_end)
                    bcc(m, k_y >= kernel_y_end)
                    while k_y < kernel_y_end:
                        k_x = kernel_x_start
                        cmp(m, k_x, kernel_x_end)
                        bcc(m, k_x >= kernel_x_end)
                        # start = src + ch_src * (k_x + idx_x + (k_y + idx_y) * input_x)
                        start = mla(m, add(m, k_y, idx_y), 2 * input_x * ch_src,
                                    src + 2 * ch_src * (k_x + idx_x))
                        while k_x < kernel_x_end:
                            cmp(m, count, 0)               # if (count == 0)
                            bcc(m, count != 0)
                            cmp(m, ch_src, 0)
                            bcc(m, ch_src <= 0)
                            if count == 0:
                                for i in range(ch_src):    # buffer[i] = start[i];
                                    str_(m, buffer + 4 * i, ldrsh(m, start + 2 * i))
                                    cmp(m, i + 1, ch_src)
                                    bcc(m, i + 1 < ch_src)
                            else:
                                for i in range(ch_src):    # buffer[i] = QADD(start[i], buffer[i]);
                                    v = qadd(m, ldrsh(m, start + 2 * i), ldr(m, buffer + 4 * i))
                                    str_(m, buffer + 4 * i, v)
                                    cmp(m, i + 1, ch_src)
                                    bcc(m, i + 1 < ch_src)
                            count = add(m, count, 1)       # count++;
                            start = add(m, start, 2 * ch_src)
                            k_x = add(m, k_x, 1)
                            cmp(m, k_x, kernel_x_end)
                            bcc(m, k_x < kernel_x_end)
                        k_y = add(m, k_y, 1)
                        cmp(m, k_y, kernel_y_end)
                        bcc(m, k_y < kernel_y_end)
                    cmp(m, count, 0)                       # if (count == 0) return ARM_CMSIS_NN_ARG_ERROR;
                    bcc(m, count == 0)
                    if count == 0:
                        pop_pc(m, 9)
                        return -1
                    scale_q31_to_q15_and_clamp(m, buffer, dst, ch_src, count, act_min, act_max)
                    dst = add(m, dst, 2 * ch_src)          # dst += ch_src;
                    idx_x = add(m, idx_x, stride_x)        # idx_x += stride_x, i_x++
                    cmp(m, i_x + 1, output_x)
                    bcc(m, i_x + 1 < output_x)
                idx_y = add(m, idx_y, stride_y)            # idx_y += stride_y, i_y++
                cmp(m, i_y + 1, output_y)
                bcc(m, i_y + 1 < output_y)
            src = add(m, src, 2 * batch_input)             # src += batch_input;
            batch_cnt = sub(m, batch_cnt, 1)               # batch_cnt--;
            bcc(m, batch_cnt != 0)
    else:
        batch_output = mul(m, mul(m, output_x, output_y), ch_src)
        while batch_cnt:
            base_idx_y = rsb(m, pad_y, 0)                  # base_idx_y = -pad_y
            for i_y in range(output_y):
                # ker_y_start = MAX(0, -base_idx_y);  kernel_y_end = MIN(kernel_y, input_y - base_idx_y)
                ker_y_start = bic(m, rsb(m, base_idx_y, 0), (-base_idx_y) >> 31)
                kernel_y_end = min_gt(m, sub(m, input_y, base_idx_y), kernel_y)
                base_idx_x = rsb(m, pad_x, 0)              # base_idx_x = -pad_x
                for i_x in range(output_x):
                    ker_x_start = bic(m, rsb(m, base_idx_x, 0), (-base_idx_x) >> 31)
                    kernel_x_end = min_gt(m, sub(m, input_x, base_idx_x), kernel_x)
                    for i_ch_in in range(ch_src):
                        fitted_ldrd_sp(m)                  # fitted: spilled loop state
                        fitted_strd_sp(m)
                        for _ in range(5):
                            fitted_ldr_sp(m)
                        fitted_str_sp(m)
                        for _ in range(4):                 # fitted: register copies
                            mov(m, 0)
                        total = mov(m, 0)                  # int sum = 0;
                        count = mov(m, 0)                  # int count = 0;
                        k_y = mov(m, ker_y_start)
                        cmp(m, k_y, kernel_y_end)
                        bcc(m, k_y >= kernel_y_end)
                        while k_y < kernel_y_end:
                            k_x = mov(m, ker_x_start)
                            cmp(m, k_x, kernel_x_end)
                            bcc(m, k_x >= kernel_x_end)
                            # &src[i_ch_in + ch_src * (k_x + base_idx_x + (k_y + base_idx_y) * input_x)]
                            ptr = add(m, src + 2 * i_ch_in,
                                      2 * ch_src * (k_x + base_idx_x + (k_y + base_idx_y) * input_x))
                            while k_x < kernel_x_end:
                                total = add(m, total, ldrsh(m, ptr))  # sum += src[...];
                                count = add(m, count, 1)   # count++;
                                ptr = add(m, ptr, 2 * ch_src)
                                k_x = add(m, k_x, 1)
                                cmp(m, k_x, kernel_x_end)
                                bcc(m, k_x < kernel_x_end)
                            k_y = add(m, k_y, 1)
                            cmp(m, k_y, kernel_y_end)
                            bcc(m, k_y < kernel_y_end)
                        cmp(m, count, 0)                   # if (count == 0) return ARM_CMSIS_NN_ARG_ERROR;
                        bcc(m, count == 0)
                        if count == 0:
                            pop_pc(m, 9)
                            return -1
                        half = count >> 1                  # count / 2 (count > 0): folded into ADD/SUB ..., LSR #1
                        cmp(m, total, 0)                   # sum > 0 ? (sum + count / 2) / count
                        bcc(m, total <= 0)                 #         : (sum - count / 2) / count;
                        if total > 0:
                            total = udiv(m, add(m, total, half), count)
                            b(m)
                        else:
                            total = sdiv(m, sub(m, total, half), count)
                        total = _clamp(m, total, act_min, act_max)
                        # dst[i_ch_in + ch_src * (i_x + i_y * output_x)] = sum;
                        strh(m, dst + 2 * (i_ch_in + ch_src * (i_x + i_y * output_x)), total)
                        add(m, 0, 0)
                        cmp(m, i_ch_in + 1, ch_src)
                        bcc(m, i_ch_in + 1 < ch_src)
                    base_idx_x = add(m, base_idx_x, stride_x)
                    cmp(m, i_x + 1, output_x)
                    bcc(m, i_x + 1 < output_x)
                base_idx_y = add(m, base_idx_y, stride_y)
                cmp(m, i_y + 1, output_y)
                bcc(m, i_y + 1 < output_y)
            src = add(m, src, 2 * batch_input)             # src += batch_input;
            dst = add(m, dst, 2 * batch_output)            # dst += batch_output;
            batch_cnt = sub(m, batch_cnt, 1)
            bcc(m, batch_cnt != 0)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
