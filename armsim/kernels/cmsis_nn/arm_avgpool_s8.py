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
is positive and SDIV otherwise.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 with ARM_MATH_DSP, and
-mcpu=cortex-m3), each build in its own order; the hexadecimal numbers in the comments are
the objects' offsets.  The M4 build runs the tap loop of a window row on the tap count
(the first tap of a window, `count == 0`, is peeled into the copy loop) and keeps most loop
state in stack slots; the M3 build steps k_y / k_x and the source pointer per tap.  Struct
field loads (`LDR [rN, #imm]` of the caller's structs, not placed in simulated memory) are
issued as stack-slot loads.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bl, cmp, it, ldr, ldr_sp, ldrd_sp, ldrsb, mla, mov,
                            mul, orr, pop_pc, push, qadd, rsb, sdiv, str_, str_sp, strb, strd_sp,
                            sub, udiv)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_avgpool_get_buffer_sizes_s8 import arm_avgpool_s8_get_buffer_size

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel(inline=True)
def _return(m, status, set_status):
    """The epilogue; `set_status`: `mov.w r0, #-1` first (the error exits)."""
    if set_status:
        mov(m, status)                             # return ARM_CMSIS_NN_ARG_ERROR;
    add(m, 0, 0)                                   # add sp, #frame
    pop_pc(m, 9)                                   # ldmia.w sp!, {r4-r11, pc}
    return status


@kernel(inline=True)
def _buffer_check(m, ctx, output_x, ch_src):
    """if (ctx->buf == NULL && arm_avgpool_s8_get_buffer_size(output_dims->w, input_dims->c))
    return ARM_CMSIS_NN_ARG_ERROR;  -- the call's argument moves and result test (both
    builds: ldr, mov(s), bl, cmp, bne).  Returns the size (non-zero: the error)."""
    ldr_sp(m)                                      # output_dims->w (spilled)
    mov(m, 0)
    if not m.dsp:
        mov(m, 0)
    bl(m)
    size = arm_avgpool_s8_get_buffer_size(m, output_x, ch_src)
    cmp(m, size, 0)
    bcc(m, size != 0)
    return size


# --- ARM_MATH_DSP (Cortex-M4) ----------------------------------------------------------------

@kernel(inline=True)
def _m4_scale_q31_to_q7_and_clamp(m, buffer, target, length, count, act_min, act_max):
    """The static helper, inlined (0x1ac-0x1ea)."""
    cmp(m, length, 0)                              # 1ac: for (int i = 0; i < length; i++)
    half_count = asr(m, count, 1)                  # 1ae: const int half_count = count / 2;  (count > 0)
    bcc(m, length <= 0)                            # 1b2
    if length > 0:
        ldr_sp(m)                                  # 1b4: dst
        add(m, 0, 0)                               # 1b6: add.w r8, r2, #-1
        ldr_sp(m)                                  # 1ba: the buffer's last word
        sub(m, 0, 0)                               # 1bc: sub.w ip, r3, #4
        mov(m, 0)                                  # 1c0: mov fp, r6
        for i in range(length):
            v = ldr(m, buffer + 4 * i)             # 1c2: ldr.w r6, [ip, #4]!
            cmp(m, v, 0)                           # buffer[i] > 0 ? (buffer[i] + half_count)
            it(m, 1)                               #              : (buffer[i] - half_count)  (ITE: one fails)
            if v > 0:
                total = add(m, v, half_count)
            else:
                total = sub(m, v, half_count)
            total = sdiv(m, total, count)          # 1d2: sum = sum / count;
            total = max_lt(m, total, act_min)      # 1d6: sum = MAX(sum, act_min);
            total = min_ge(m, total, act_max)      # 1dc: sum = MIN(sum, act_max);
            cmp(m, i + 1, length)                  # 1e2: cmp r2, ip
            strb(m, target + i, total)             # 1e4: target[i] = (int8_t)sum;
            bcc(m, i + 1 < length)                 # 1e8
        str_sp(m)                                  # 1ea


@kernel(inline=True)
def _m4_window(m, src, buffer, dst, idx_y, idx_x, input_y, input_x, ch_src, kernel_y_start,
               kernel_y_end, kernel_x, act_min, act_max):
    """One output position (0xee-0x1ea): the window's taps into the buffer, then scaled.
    Returns the tap count (0: the C returns ARM_CMSIS_NN_ARG_ERROR)."""
    ldr_sp(m)                                      # ee: -idx_x
    ldr_sp(m)                                      # f0: input_x - idx_x
    ldr_sp(m)                                      # f4: kernel_y_start
    # kernel_x_start = MAX(0, -idx_x);
    cmp(m, idx_x, 0)                               # f8
    it(m, idx_x > 0)                               # fa: it le
    if idx_x <= 0:
        mov(m, -idx_x)                             # fc: movle sl, r2
    ldr_sp(m)                                      # fe: kernel_x
    it(m, idx_x <= 0)                              # 100: it gt
    if idx_x > 0:
        mov(m, 0)                                  # 102: movgt.w sl, #0
    kernel_x_start = max(0, -idx_x)
    # kernel_x_end = MIN(kernel_x, input_x - idx_x);
    kernel_x_end = min_ge(m, input_x - idx_x, kernel_x)    # 106: cmp fp, r2; it ge; movge fp, r2
    cmp(m, kernel_y_start, kernel_y_end)           # 10c: for (k_y = kernel_y_start; k_y < kernel_y_end; k_y++)
    bcc(m, kernel_y_start >= kernel_y_end)         # 10e: bge.w 258 (count == 0: the error)
    if kernel_y_start >= kernel_y_end:
        return 0
    ldr_sp(m)                                      # 112
    str_sp(m)
    add(m, 0, 0)
    ldr_sp(m)                                      # 11a: src
    str_sp(m)
    add(m, 0, 0)
    strd_sp(m)                                     # 122: act_min, act_max
    mla(m, 0, 0, 0)                                # 126: the window's first tap, minus one
    taps_per_row = sub(m, kernel_x_end, kernel_x_start)    # 12a
    str_sp(m)
    add(m, 0, 0)                                   # 130: add.w r8, r8, #-1
    count = mov(m, 0)                              # 134: int count = 0;
    mov(m, 0)                                      # 136: mov r2, fp
    for k_y in range(kernel_y_start, kernel_y_end):
        cmp(m, kernel_x_start, kernel_x_end)       # 138: for (k_x = kernel_x_start; k_x < kernel_x_end; k_x++)
        bcc(m, kernel_x_start >= kernel_x_end)
        if kernel_x_start < kernel_x_end:
            # const int8_t *start = src + ch_src * (k_x + idx_x + (k_y + idx_y) * input_x);
            start = src + ch_src * (kernel_x_start + idx_x + (k_y + idx_y) * input_x)
            ldr_sp(m)                              # 13c: kernel_x_end - kernel_x_start
            add(m, 0, 0)                           # 13e: the tap's end pointer
            row_end = add(m, taps_per_row, count)  # 142: the count after this row
            remaining = taps_per_row
            cmp(m, count, 0)                       # 146: if (count == 0)
            bcc(m, count != 0)
            if count == 0:
                cmp(m, ch_src, 0)                  # 14c
                bcc(m, ch_src <= 0)
                if ch_src > 0:
                    sub(m, 0, 0)                   # 150
                    mov(m, 0)
                    for i in range(ch_src):        # buffer[i] = start[i];
                        str_(m, buffer + 4 * i, ldrsb(m, start + i))   # 154, 158
                        cmp(m, i + 1, ch_src)      # 15c
                        bcc(m, i + 1 < ch_src)
                mov(m, 0)                          # 160: mov lr, r8
                count = add(m, count, 1)           # 162: count++;
                cmp(m, count, row_end)
                add(m, 0, 0)
                add(m, 0, 0)
                start += ch_src
                remaining -= 1
                bcc(m, remaining == 0)             # 16a: beq 194
            else:
                mov(m, 0)                          # 254: mov lr, r8
                b(m)                               # 256: b.n 16c
            while remaining:
                cmp(m, ch_src, 0)                  # 16c
                bcc(m, ch_src <= 0)
                if ch_src <= 0:
                    count = add(m, count, 1)       # 162: count++;
                    cmp(m, count, row_end)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    remaining -= 1
                    bcc(m, remaining == 0)
                else:
                    sub(m, 0, 0)                   # 170
                    mov(m, 0)
                    str_sp(m)
                    for i in range(ch_src):        # buffer[i] = QADD(start[i], buffer[i]);
                        v = ldrsb(m, start + i)    # 176
                        acc = ldr(m, buffer + 4 * i)
                        cmp(m, i + 1, ch_src)
                        str_(m, buffer + 4 * i, qadd(m, v, acc))   # 180, 184
                        bcc(m, i + 1 < ch_src)
                    count = add(m, count, 1)       # 188: count++;
                    cmp(m, count, row_end)
                    ldr_sp(m)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    remaining -= 1
                    bcc(m, remaining != 0)         # 192: bne 16c
                start += ch_src
        ldr_sp(m)                                  # 194: the input row
        add(m, k_y, 1)
        cmp(m, k_y + 1, kernel_y_end)
        add(m, 0, 0)
        bcc(m, k_y + 1 < kernel_y_end)
    ldrd_sp(m)                                     # 1a0
    ldrd_sp(m)
    cmp(m, count, 0)                               # 1a8: if (count == 0) return ARM_CMSIS_NN_ARG_ERROR;
    bcc(m, count == 0)
    if count == 0:
        return 0
    _m4_scale_q31_to_q7_and_clamp(m, buffer, dst, ch_src, count, act_min, act_max)
    return count


@kernel(inline=True)
def _m4_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, ch_src = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # 4: sub sp, #140
    mov(m, 0)
    str_sp(m)                                      # 8: src
    ldr_sp(m)                                      # a: output_dims (stacked)
    ldr_sp(m)                                      # c: ch_src = input_dims->c
    ldr_sp(m)                                      # 10: output_y = output_dims->h
    ldr_sp(m)                                      # 12: output_x = output_dims->w
    str_sp(m)
    mov(m, 0)
    ldrd_sp(m)                                     # 18: stride_x, stride_y
    ldr_sp(m)                                      # 1c: filter_dims (stacked)
    str_sp(m)
    ldr_sp(m)                                      # 20: kernel_y = filter_dims->h
    str_sp(m)
    mov(m, 0)
    ldr_sp(m)                                      # 26: kernel_x = filter_dims->w
    ldr_sp(m)                                      # 28: batch_cnt = input_dims->n
    str_sp(m)
    ldr_sp(m)                                      # 2c: act_min
    str_sp(m)
    cmp(m, batch_cnt, 0)                           # 30: if (batch_cnt < 1)
    ldr_sp(m)                                      # 32: act_max
    str_sp(m)
    ldrd_sp(m)                                     # 36: input_y, input_x
    ldrd_sp(m)                                     # 3a: pad_x, pad_y
    str_sp(m)
    str_sp(m)
    bcc(m, batch_cnt < 1)                          # 42: ble.w 258
    if batch_cnt < 1:
        return _return(m, ARG_ERROR, True)
    buffer = ctx.buf
    ldr_sp(m)                                      # 46: ctx->buf
    cmp(m, buffer, 0)
    bcc(m, buffer == 0)
    if buffer == 0:
        if _buffer_check(m, ctx, output_x, ch_src) != 0:       # 262
            return _return(m, ARG_ERROR, True)
        ldr_sp(m)                                  # 26e: int32_t *buffer = (int32_t *)ctx->buf;
        b(m)
    add(m, 0, 0)                                   # 52: the buffer's last word
    sub(m, 0, 0)
    input_xy = mul(m, input_x, input_y)            # 58: batch_size = input_x * input_y * ch_src;
    str_sp(m)
    mul(m, ch_src, input_x)                        # 5e: the input row
    batch_size = mul(m, ch_src, input_xy)
    str_sp(m)
    rsb(m, pad_x, 0)                               # 68: idx_x = -pad_x
    strd_sp(m)
    rsb(m, pad_y, 0)                               # 70: idx_y = -pad_y
    for _ in range(7):                             # 72-7e: register moves
        mov(m, 0)
    while True:                                    # while (batch_cnt)
        ldr_sp(m)                                  # 80: for (i_y = 0, idx_y = -pad_y; i_y < output_y; ...)
        cmp(m, output_y, 0)
        bcc(m, output_y <= 0)
        if output_y > 0:
            mov(m, 0)                              # 88
            strd_sp(m)
            mov(m, 0)
            str_sp(m)
            ldrd_sp(m)                             # 92: act_min, act_max
            ldr_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            idx_y = -pad_y
            for i_y in range(output_y):
                ldr_sp(m)                          # a2: for (i_x = 0, idx_x = -pad_x; i_x < output_x; ...)
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                if output_x > 0:
                    ldr_sp(m)                      # aa: kernel_y
                    str_sp(m)
                    cmp(m, idx_y, 0)               # b2: kernel_y_start = MAX(0, -idx_y);
                    add(m, input_y, -idx_y)        # b6: input_y - idx_y
                    it(m, 1)                       # ba: ite le
                    if idx_y <= 0:
                        kernel_y_start = mov(m, -idx_y)
                    else:
                        kernel_y_start = mov(m, 0)
                    # kernel_y_end = MIN(kernel_y, input_y - idx_y);
                    kernel_y_end = min_ge(m, kernel_y, input_y - idx_y)    # c0
                    add(m, 0, 0)                   # c6
                    str_sp(m)
                    mul(m, 0, 0)                   # cc: input_x * (kernel_y_start + idx_y)
                    ldr_sp(m)
                    str_sp(m)
                    str_sp(m)
                    mov(m, 0)                      # d6: i_x = 0
                    add(m, 0, 0)
                    strd_sp(m)
                    str_sp(m)
                    str_sp(m)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)                      # ec
                    idx_x = -pad_x
                    for i_x in range(output_x):
                        count = _m4_window(m, src, buffer, dst, idx_y, idx_x, input_y, input_x,
                                           ch_src, kernel_y_start, kernel_y_end, kernel_x,
                                           act_min, act_max)
                        if count == 0:
                            return _return(m, ARG_ERROR, True)
                        ldr_sp(m)                  # 1ec: i_x
                        ldr_sp(m)                  # dst
                        add(m, i_x, 1)
                        dst = add(m, dst, ch_src)  # dst += ch_src;
                        str_sp(m)
                        str_sp(m)
                        ldr_sp(m)                  # 1f8: idx_x += stride_x (and its negation,
                        ldr_sp(m)                  #      and input_x - idx_x, in stack slots)
                        idx_x = add(m, idx_x, stride_x)
                        sub(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        sub(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        cmp(m, output_x, i_x + 1)  # 20e
                        bcc(m, i_x + 1 != output_x)
                    ldrd_sp(m)                     # 214
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    mov(m, 0)
                ldr_sp(m)                          # 224: idx_y += stride_y, i_y++
                ldr_sp(m)
                idx_y = add(m, idx_y, stride_y)
                sub(m, 0, 0)
                ldr_sp(m)
                add(m, i_y, 1)
                cmp(m, output_y, i_y + 1)
                str_sp(m)
                bcc(m, i_y + 1 != output_y)
            mov(m, 0)                              # 238
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            mov(m, 0)
        ldr_sp(m)                                  # 242: src += batch_size;
        src = add(m, src, batch_size)
        str_sp(m)
        ldr_sp(m)                                  # 248: batch_cnt--;
        batch_cnt = sub(m, batch_cnt, 1)
        str_sp(m)
        bcc(m, batch_cnt != 0)
        if batch_cnt == 0:
            break
    b(m)                                           # 252: b.n 25c (r0 = batch_cnt = 0)
    return _return(m, 0, False)


# --- plain C (Cortex-M3) ---------------------------------------------------------------------

@kernel(inline=True)
def _m3_channel(m, src, dst, i_ch, ch_src, input_y, input_x, ky0, ky1, kx0, kx1, act_min,
                act_max):
    """One output element (0xfa-0x16a).  Returns 0 when no tap is inside the input (the C's
    ARM_CMSIS_NN_ARG_ERROR), else 1."""
    cmp(m, ky0, ky1)                               # fa: bge 1d2 (no k_y: count == 0)
    bcc(m, ky0 >= ky1)
    if ky0 >= ky1:
        return 0
    count = mov(m, 0)                              # fe: int count = 0;
    mov(m, 0)
    total = mov(m, 0)                              # 102: int sum = 0;
    ldr_sp(m)
    strd_sp(m)
    add(m, 0, 0)
    str_sp(m)
    for k_y in range(ky0, ky1):
        cmp(m, kx0, kx1)                           # 10e: for (k_x = ...; k_x < ... + kernel_x; k_x++)
        bcc(m, kx0 >= kx1)
        if kx0 < kx1:
            mov(m, 0)                              # 112
            mov(m, 0)
            for k_x in range(kx0, kx1):
                # if (k_y >= 0 && k_x >= 0 && k_y < input_y && k_x < input_x)
                signs = orr(m, k_y, k_x)           # 116: orrs.w r4, r1, r3; bmi
                bcc(m, signs < 0)
                if signs >= 0:
                    cmp(m, input_y, k_y)           # 11c
                    bcc(m, input_y <= k_y)
                    if k_y < input_y:
                        cmp(m, input_x, k_x)       # 120
                        bcc(m, input_x <= k_x)
                        if k_x < input_x:
                            # sum += src[i_ch_in + ch_src * (k_x + k_y * input_x)]; count++;
                            v = ldrsb(m, src + i_ch + ch_src * (k_x + k_y * input_x))
                            count = add(m, count, 1)
                            total = add(m, total, v)
                add(m, k_x, 1)                     # 12c
                cmp(m, k_x + 1, kx1)
                add(m, 0, 0)
                bcc(m, k_x + 1 != kx1)
        add(m, k_y, 1)                             # 134
        cmp(m, k_y + 1, ky1)
        add(m, 0, 0)
        bcc(m, k_y + 1 != ky1)
    ldrd_sp(m)                                     # 13c
    ldr_sp(m)
    cmp(m, count, 0)                               # 142: if (count == 0) return ARM_CMSIS_NN_ARG_ERROR;
    bcc(m, count == 0)
    if count == 0:
        return 0
    # sum = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
    cmp(m, total, 0)                               # 146
    bcc(m, total <= 0)
    if total > 0:
        total = udiv(m, add(m, total, count >> 1), count)          # 14a, 14e
    else:
        add(m, count, count >> 31)                 # 1c4: add.w r1, r6, r6, lsr #31
        total = sdiv(m, sub(m, total, count // 2), count)          # 1c8, 1cc
        b(m)                                       # 1d0: b.n 152
    ldr_sp(m)                                      # 152: act_min
    add(m, i_ch, 1)                                # 154: i_ch_in++
    total = max_lt(m, total, act_min)              # 156: sum = MAX(sum, act_min);
    ldr_sp(m)                                      # 15c: act_max
    total = min_ge(m, total, act_max)              # 15e: sum = MIN(sum, act_max);
    cmp(m, ch_src, i_ch + 1)                       # 164
    strb(m, dst, total)                            # 166: dst[i_ch_in + ch_src * (i_x + i_y * output_x)] = sum;
    bcc(m, i_ch + 1 != ch_src)                     # 16a
    return 1


@kernel(inline=True)
def _m3_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, ch_src = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    ldrd_sp(m)                                     # 4: input_x, ch_src
    sub(m, 0, 0)                                   # 8: sub sp, #124
    str_sp(m)                                      # a: src
    ldr_sp(m)                                      # c: stride_y
    ldrd_sp(m)                                     # e: filter_dims, output_dims (stacked)
    str_sp(m)
    ldr_sp(m)                                      # 14: stride_x
    ldr_sp(m)                                      # 16: kernel_y
    str_sp(m)
    ldr_sp(m)                                      # 1a: pad_y
    str_sp(m)
    str_sp(m)
    ldr_sp(m)                                      # 20: pad_x
    ldr_sp(m)                                      # 22: kernel_x
    str_sp(m)
    ldr_sp(m)                                      # 26: act_min
    ldrd_sp(m)                                     # 28: batch_cnt, input_y
    str_sp(m)
    ldr_sp(m)                                      # 2e: act_max
    cmp(m, batch_cnt, 0)                           # 30: if (batch_cnt < 1)
    ldrd_sp(m)                                     # 32: output_y, output_x
    str_sp(m)
    str_sp(m)
    str_sp(m)
    bcc(m, batch_cnt < 1)                          # 3c: ble.w 1d2
    if batch_cnt < 1:
        return _return(m, ARG_ERROR, True)
    ldr_sp(m)                                      # 40: ctx->buf
    cmp(m, ctx.buf, 0)
    bcc(m, ctx.buf == 0)
    if ctx.buf == 0:
        if _buffer_check(m, ctx, output_x, ch_src) != 0:       # 1dc
            return _return(m, ARG_ERROR, True)
    # batch_input = input_x * input_y * ch_src;  batch_output = output_x * output_y * ch_src;
    input_xy = mul(m, input_x, input_y)            # 48 / 1ea
    output_xy = mul(m, output_x, output_y)
    batch_input = mul(m, ch_src, input_xy)
    batch_output = mul(m, ch_src, output_xy)
    if ctx.buf == 0:
        b(m)                                       # 1fa: b.n 58
    ldr_sp(m)                                      # 58: the loop invariants
    ldr_sp(m)
    mul(m, 0, 0)
    rsb(m, 0, 0)
    sub(m, 0, 0)
    mul(m, 0, 0)
    ldr_sp(m)
    mul(m, 0, 0)
    mul(m, 0, 0)
    str_sp(m)
    ldr_sp(m)
    mov(m, 0)
    mul(m, 0, 0)
    str_sp(m)
    rsb(m, 0, 0)                                   # 7e: negs r2, r0  (-pad_x)
    mov(m, 0)
    str_sp(m)
    ldr_sp(m)
    mov(m, 0)
    mul(m, 0, 0)
    mov(m, 0)
    str_sp(m)
    mov(m, 0)
    ldr_sp(m)                                      # 92: dst
    while True:                                    # while (batch_cnt)
        cmp(m, output_y, 0)                        # 94: for (int i_y = 0; i_y < output_y; i_y++)
        bcc(m, output_y <= 0)
        if output_y > 0:
            ldrd_sp(m)                             # 9a
            sub(m, 0, 0)
            strd_sp(m)
            for _ in range(6):
                mov(m, 0)
            strd_sp(m)
            str_sp(m)
            for i_y in range(output_y):
                ky0 = i_y * stride_y - pad_y       # k_y = i_y * stride_y - pad_y, stepped
                ldr_sp(m)                          # ba: for (int i_x = 0; i_x < output_x; i_x++)
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)
                if output_x > 0:
                    mov(m, 0)                      # c0
                    ldr_sp(m)
                    strd_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    sub(m, 0, 0)
                    str_sp(m)
                    ldr_sp(m)
                    strd_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    sub(m, 0, 0)                   # e4
                    for i_x in range(output_x):
                        kx0 = i_x * stride_x - pad_x
                        cmp(m, ch_src, 0)          # e6: for (i_ch_in = 0; i_ch_in < ch_src; i_ch_in++)
                        bcc(m, ch_src <= 0)
                        if ch_src > 0:
                            mov(m, 0)              # ec
                            ldr_sp(m)
                            strd_sp(m)
                            add(m, 0, 0)
                            sub(m, 0, 0)
                            str_sp(m)
                            out = dst + ch_src * (i_x + i_y * output_x)
                            for i_ch in range(ch_src):
                                if _m3_channel(m, src, out + i_ch, i_ch, ch_src, input_y,
                                               input_x, ky0, ky0 + kernel_y, kx0,
                                               kx0 + kernel_x, act_min, act_max) == 0:
                                    return _return(m, ARG_ERROR, True)
                            ldrd_sp(m)             # 16c
                        ldr_sp(m)                  # 170: i_x++, the k_x bounds and pointers
                        ldr_sp(m)
                        add(m, 0, 0)
                        add(m, 0, 0)
                        ldr_sp(m)
                        add(m, i_x, 1)
                        add(m, 0, 0)
                        ldr_sp(m)
                        str_sp(m)
                        cmp(m, output_x, i_x + 1)
                        add(m, 0, 0)
                        bcc(m, i_x + 1 != output_x)
                    ldrd_sp(m)                     # 188
                    ldrd_sp(m)
                ldr_sp(m)                          # 190: i_y++, the k_y bounds and pointers
                ldr_sp(m)
                add(m, i_y, 1)
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                cmp(m, output_y, i_y + 1)
                add(m, 0, 0)
                ldr_sp(m)
                add(m, 0, 0)
                bcc(m, i_y + 1 != output_y)
            mov(m, 0)                              # 1a6
            ldrd_sp(m)
            ldrd_sp(m)
            mov(m, 0)
        ldr_sp(m)                                  # 1b2: src += batch_input;
        batch_cnt = sub(m, batch_cnt, 1)           # batch_cnt--;
        src = add(m, src, batch_input)
        str_sp(m)
        dst = add(m, dst, batch_output)            # dst += batch_output;
        bcc(m, batch_cnt != 0)
        if batch_cnt == 0:
            break
    mov(m, 0)                                      # 1c0: return ARM_CMSIS_NN_SUCCESS; (r0 = batch_cnt)
    b(m)                                           # 1c2: b.n 1d6
    return _return(m, 0, False)


@kernel
def arm_avgpool_s8(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    """`ctx` a Context, `pool_params` a PoolParams, the dims Dims (arm_nn_types); returns
    ARM_CMSIS_NN_SUCCESS (0) or ARM_CMSIS_NN_ARG_ERROR (-1)."""
    if m.dsp:
        return _m4_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst)
    return _m3_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst)
