"""arm_avgpool_s8 (Source/PoolingFunctions/arm_avgpool_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_avgpool_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int8_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int8_t *dst)

ARM_MATH_DSP: per output position the window taps inside the input are accumulated per
channel into the int32 scratch buffer (`ctx->buf`, arm_avgpool_s8_get_buffer_size bytes):
the first tap copies, the others QADD; then the static scale_q31_to_q7_and_clamp (inlined
by gcc) divides by the tap count with SDIV, rounding half away from zero, and clamps.
Plain C (adapted from arm_avepool_q7_HWC): per output element, the window loops test
every tap against the input bounds; the rounding division compiles to UDIV when the sum
is positive and SDIV otherwise (both counted in the measured scalar_O2 histogram).

Calibration (../shared/reference, gcc -O2): avgpool2x2_s2_8x8x16.  Stack reloads and
spills of the loop state (`fitted_ldr_sp`, `fitted_str_sp`, `fitted_ldrd_sp`, `fitted_strd_sp`) are placed per loop
level where the measured counts put them.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bic, bl, cmp, fitted_add, fitted_ldr_sp,
                            fitted_ldrd_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr,
                            ldrsb, mla, mov, mul, orr, pop_pc, push, qadd, rsb,
                            sdiv, str_, strb, sub, udiv)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_avgpool_get_buffer_sizes_s8 import arm_avgpool_s8_get_buffer_size


@kernel(inline=True)
def _clamp(m, v, act_min, act_max):
    v = max_lt(m, v, act_min)                              # sum = MAX(sum, act_min);
    v = min_gt(m, v, act_max)                              # sum = MIN(sum, act_max);
    return v


@kernel(inline=True)
def scale_q31_to_q7_and_clamp(m, buffer, target, length, count, act_min, act_max):
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
        strb(m, target + i, total)                         # target[i] = (int8_t)sum;
        cmp(m, i + 1, length)
        bcc(m, i + 1 < length)


@kernel
def arm_avgpool_s8(m, stride_y, stride_x, pad_y, pad_x, act_min, act_max, batch_cnt, input_y,
                   input_x, ch_src, src, kernel_y, kernel_x, output_y, output_x, dst, buffer,
                   buffer_size):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # struct fields, stacked arguments
        fitted_ldrd_sp(m)
    for _ in range(4):
        fitted_ldr_sp(m)
    cmp(m, batch_cnt, 1)                                   # if (batch_cnt < 1) return ARM_CMSIS_NN_ARG_ERROR;
    bcc(m, batch_cnt < 1)
    if batch_cnt < 1:
        pop_pc(m, 9)
        return -1
    # if (ctx->buf == NULL && arm_avgpool_s8_get_buffer_size(output_dims->w, input_dims->c))
    cmp(m, buffer, 0)
    bcc(m, buffer != 0)
    if buffer == 0:
        bl(m)                                              # arm_avgpool_s8_get_buffer_size(output_dims->w, input_dims->c)
        size = arm_avgpool_s8_get_buffer_size(m, output_x, ch_src)
        cmp(m, size, 0)
        bcc(m, size != 0)
        if size != 0:
            pop_pc(m, 9)
            return -1
    if m.dsp:
        batch_size = mul(m, mul(m, input_x, input_y), ch_src)  # input_x * input_y * ch_src
        while batch_cnt:
            idx_y = rsb(m, pad_y, 0)                       # idx_y = -pad_y
            cmp(m, output_y, 0)
            bcc(m, output_y <= 0)
            for i_y in range(output_y):
                idx_x = rsb(m, pad_x, 0)                   # idx_x = -pad_x
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                for i_x in range(output_x):
                    for _ in range(26):                    # reloads of spilled loop state
                        fitted_ldr_sp(m)
                    for _ in range(14):
                        fitted_str_sp(m)
                    for _ in range(2):
                        fitted_ldrd_sp(m)
                    fitted_strd_sp(m)
                    for _ in range(10):                    # register shuffles around the loops
                        fitted_mov(m)
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
                        start = mla(m, add(m, k_y, idx_y), input_x * ch_src,
                                    src + ch_src * (k_x + idx_x))
                        while k_x < kernel_x_end:
                            cmp(m, count, 0)               # if (count == 0)
                            bcc(m, count != 0)
                            cmp(m, ch_src, 0)
                            bcc(m, ch_src <= 0)
                            if count == 0:
                                for i in range(ch_src):    # buffer[i] = start[i];
                                    str_(m, buffer + 4 * i, ldrsb(m, start + i))
                                    cmp(m, i + 1, ch_src)
                                    bcc(m, i + 1 < ch_src)
                            else:
                                for i in range(ch_src):    # buffer[i] = QADD(start[i], buffer[i]);
                                    v = qadd(m, ldrsb(m, start + i), ldr(m, buffer + 4 * i))
                                    str_(m, buffer + 4 * i, v)
                                    cmp(m, i + 1, ch_src)
                                    bcc(m, i + 1 < ch_src)
                            count = add(m, count, 1)       # count++;
                            start = add(m, start, ch_src)
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
                    scale_q31_to_q7_and_clamp(m, buffer, dst, ch_src, count, act_min, act_max)
                    dst = add(m, dst, ch_src)              # dst += ch_src;
                    idx_x = add(m, idx_x, stride_x)        # idx_x += stride_x, i_x++
                    cmp(m, i_x + 1, output_x)
                    bcc(m, i_x + 1 < output_x)
                idx_y = add(m, idx_y, stride_y)            # idx_y += stride_y, i_y++
                cmp(m, i_y + 1, output_y)
                bcc(m, i_y + 1 < output_y)
            src = add(m, src, batch_size)                  # src += batch_size;
            batch_cnt = sub(m, batch_cnt, 1)               # batch_cnt--;
            bcc(m, batch_cnt != 0)
    else:
        batch_input = mul(m, mul(m, input_x, input_y), ch_src)
        batch_output = mul(m, mul(m, output_x, output_y), ch_src)
        while batch_cnt:
            ky0 = rsb(m, pad_y, 0)                         # i_y * stride_y - pad_y, stepped
            for i_y in range(output_y):
                ky1 = add(m, ky0, kernel_y)                # ... + kernel_y
                kx0 = rsb(m, pad_x, 0)                     # i_x * stride_x - pad_x, stepped
                for i_x in range(output_x):
                    kx1 = add(m, kx0, kernel_x)
                    for i_ch_in in range(ch_src):
                        fitted_ldrd_sp(m)                  # spilled loop state
                        fitted_strd_sp(m)
                        for _ in range(4):
                            fitted_ldr_sp(m)
                        fitted_str_sp(m)
                        fitted_mov(m)
                        fitted_mov(m)
                        total = mov(m, 0)                  # int sum = 0;
                        count = mov(m, 0)                  # int count = 0;
                        k_y = mov(m, ky0)
                        cmp(m, k_y, ky1)
                        bcc(m, k_y >= ky1)
                        while k_y < ky1:
                            k_x = mov(m, kx0)
                            cmp(m, k_x, kx1)
                            bcc(m, k_x >= kx1)
                            # &src[i_ch_in + ch_src * (k_x + k_y * input_x)], stepped per tap
                            ptr = add(m, src + i_ch_in, ch_src * (k_x + k_y * input_x))
                            while k_x < kx1:
                                # if (k_y >= 0 && k_x >= 0 && k_y < input_y && k_x < input_x)
                                signs = orr(m, k_y, k_x)   # ORRS: both signs at once
                                bcc(m, signs < 0)
                                inside = signs >= 0
                                if inside:
                                    cmp(m, k_y, input_y)
                                    bcc(m, k_y >= input_y)
                                    inside = k_y < input_y
                                if inside:
                                    cmp(m, k_x, input_x)
                                    bcc(m, k_x >= input_x)
                                    inside = k_x < input_x
                                if inside:
                                    # sum += src[i_ch_in + ch_src * (k_x + k_y * input_x)];
                                    total = add(m, total, ldrsb(m, ptr))
                                    count = add(m, count, 1)   # count++;
                                ptr = add(m, ptr, ch_src)
                                k_x = add(m, k_x, 1)
                                cmp(m, k_x, kx1)
                                bcc(m, k_x < kx1)
                            k_y = add(m, k_y, 1)
                            cmp(m, k_y, ky1)
                            bcc(m, k_y < ky1)
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
                        strb(m, dst + i_ch_in + ch_src * (i_x + i_y * output_x), total)
                        fitted_add(m)
                        cmp(m, i_ch_in + 1, ch_src)
                        bcc(m, i_ch_in + 1 < ch_src)
                    kx0 = add(m, kx0, stride_x)
                    cmp(m, i_x + 1, output_x)
                    bcc(m, i_x + 1 < output_x)
                ky0 = add(m, ky0, stride_y)
                cmp(m, i_y + 1, output_y)
                bcc(m, i_y + 1 < output_y)
            src = add(m, src, batch_input)                 # src += batch_input;
            dst = add(m, dst, batch_output)                # dst += batch_output;
            batch_cnt = sub(m, batch_cnt, 1)
            bcc(m, batch_cnt != 0)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
