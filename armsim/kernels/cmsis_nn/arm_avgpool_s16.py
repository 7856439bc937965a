"""arm_avgpool_s16 (Source/PoolingFunctions/arm_avgpool_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_avgpool_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int16_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int16_t *dst)

ARM_MATH_DSP: a NULL `ctx->buf` is an argument error (arm_avgpool_s16_get_buffer_size:
ch_src * 4 bytes); per output position the window taps inside the input are accumulated
per channel into that int32 buffer (the first tap copies, the others QADD), then the static
scale_q31_to_q15_and_clamp (inlined) divides by the tap count with SDIV, rounding half away
from zero, and clamps.  Plain C: per output element the window, clipped to the input, is
summed tap by tap; the rounding division compiles to UDIV when the sum is positive and
SDIV otherwise.  An empty window is an argument error in both.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 with ARM_MATH_DSP, and
-mcpu=cortex-m3), each build in its own function; the hexadecimal numbers in the comments
are that build's object offsets.  The M4 build runs a window row's taps on the tap count
(the first tap, `count == 0`, is the copy loop, the others the QADD loop) and keeps the
loop state in stack slots; the M3 build counts a row's taps by adding the row's span.
Fields of the caller's structs (not in simulated memory) are issued as stack-slot loads.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, cmp, it, ldr, ldr_sp, ldrd_sp, ldrsh, lsl, mla, mov,
                            mul, mvn, pop_pc, push, qadd, rsb, sdiv, str_, str_sp, strd_sp, strh,
                            sub, udiv)
from armsim.kernels.minmax import max_lt, min_ge

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1
INT32_MIN = -0x80000000


@kernel(inline=True)
def _return(m, status, via_branch):
    """`mov r0, #status` (the success exit: then `b` to the epilogue), `add sp`, pop."""
    mov(m, status)
    if via_branch:
        b(m)
    add(m, 0, 0)                                   # add sp, #frame
    pop_pc(m, 9)                                   # ldmia.w sp!, {r4-r11, pc}
    return status


@kernel(inline=True)
def _m4_scale_q31_to_q15_and_clamp(m, buffer, target, length, count, act_min, act_max):
    """196-1d0: scale_q31_to_q15_and_clamp(buffer, dst, ch_src, count, act_min, act_max)."""
    cmp(m, length, 0)                              # 196: for (int i = 0; i < length; i++)
    half_count = asr(m, count, 1)                  # 198: const int half_count = count / 2
    bcc(m, length <= 0)                            # 19c: ble.n 1d2
    if length > 0:
        ldr_sp(m)                                  # 19e: dst
        ldr_sp(m)                                  # 1a0: the buffer's end
        ldrd_sp(m)                                 # 1a2: act_min, act_max
        mov(m, buffer)                             # 1a6: mov ip, fp
        sub(m, target, 2)                          # 1a8: sub.w lr, r2, #2
        for i in range(length):
            v = ldr(m, buffer + 4 * i)             # 1ac: ldr.w r2, [ip, #4]!
            cmp(m, v, 0)                           # 1b0: buffer[i] > 0 ?
            it(m, 1)                               # 1b2: ite gt (one arm fails)
            if v > 0:
                total = add(m, v, half_count)      #   (buffer[i] + half_count)
            else:
                total = sub(m, v, half_count)      #   : (buffer[i] - half_count)
            total = sdiv(m, total, count)          # 1ba: sum = sum / count
            total = max_lt(m, total, act_min)      # 1be: sum = MAX(sum, act_min)
            total = min_ge(m, total, act_max)      # 1c4: sum = MIN(sum, act_max)
            cmp(m, i + 1, length)                  # 1ca: cmp r1, ip
            strh(m, target + 2 * i, total)         # 1cc: target[i] = (int16_t)sum
            bcc(m, i + 1 < length)                 # 1d0: bne.n 1ac


@kernel(inline=True)
def _m4_window(m, buffer, src, ch_src, row_bytes, kys, kye, kxs, kxe, idx_x, row_off):
    """108-194: the window's taps into the buffer.  Returns the tap count."""
    ldr_sp(m)                                      # 108: input_x * (kernel_y_start + idx_y)
    str_sp(m)                                      # 10a: idx_x
    start = add(m, idx_x, row_off)                 # 10c
    start = add(m, start, kxs)                     # 110
    minus_one = mvn(m, INT32_MIN)                  # 112: mvn.w r1, #0x80000000
    start = mla(m, ch_src, start, minus_one)       # 116: ch_src * (...) + 0x7fffffff
    ldr_sp(m)                                      # 11a: src
    start = add(m, src, start << 1)                # 11c: start - 1 (pre-incremented loads)
    span = sub(m, kxe, kxs)                        # 120: kernel_x_end - kernel_x_start
    count = mov(m, 0)                              # 124: int count = 0
    str_sp(m)                                      # 126
    for k_y in range(kys, kye):
        cmp(m, kxs, kxe)                           # 128: for (k_x = kernel_x_start; ...)
        bcc(m, kxs >= kxe)                         # bge.n 182
        if kxs < kxe:
            ldr_sp(m)                              # 12c: span
            add(m, start, 2 * ch_src)              # 12e: the channel loop's end (r5)
            target = add(m, span, count)           # 132: count after this row
            cmp(m, count, 0)                       # 136: if (count == 0)
            bcc(m, count != 0)                     # 138: bne.n 232
            tap = start
            if count == 0:
                cmp(m, ch_src, 0)                  # 13a: for (i = 0; i < ch_src; i++)
                bcc(m, ch_src <= 0)                # ble.n 14e
                if ch_src > 0:
                    mov(m, buffer)                 # 13e: mov r0, fp
                    mov(m, tap)                    # 140: mov r1, r8
                    for i in range(ch_src):
                        v = ldrsh(m, tap + 2 + 2 * i)      # 142: ldrsh.w r4, [r1, #2]!
                        str_(m, buffer + 4 * i, v)         # 146: buffer[i] = start[i]
                        cmp(m, i + 1, ch_src)              # 14a
                        bcc(m, i + 1 < ch_src)             # 14c: bne.n 142
                mov(m, tap)                        # 14e: mov ip, r8
                count = add(m, count, 1)           # 150: count++
                cmp(m, count, target)              # 152: (k_x < kernel_x_end)
                tap = add(m, tap, 2 * ch_src)      # 154: add ip, r7
                add(m, tap, 2 * ch_src)            # 156: add r5, r7
                bcc(m, count == target)            # 158: beq.n 182
            else:
                mov(m, tap)                        # 232: mov ip, r8
                b(m)                               # 234: b.n 15a
            while count != target:
                cmp(m, ch_src, 0)                  # 15a: for (i = 0; i < ch_src; i++)
                bcc(m, ch_src <= 0)                # 15c: ble.n 150
                if ch_src <= 0:
                    count = add(m, count, 1)       # 150: count++
                    cmp(m, count, target)          # 152
                    tap = add(m, tap, 2 * ch_src)  # 154
                    add(m, tap, 2 * ch_src)        # 156
                    bcc(m, count == target)        # 158: beq.n 182
                    continue
                mov(m, buffer)                     # 15e: mov r0, fp
                mov(m, tap)                        # 160: mov r1, ip
                str_sp(m)                          # 162: str r7, [sp, #0]
                for i in range(ch_src):
                    v = ldrsh(m, tap + 2 + 2 * i)          # 164: ldrsh.w r4, [r1, #2]!
                    acc = ldr(m, buffer + 4 * i)           # 168: ldr.w r7, [r0, #4]!
                    cmp(m, i + 1, ch_src)                  # 16c
                    str_(m, buffer + 4 * i, qadd(m, v, acc))  # 16e, 172: QADD(start[i], buffer[i])
                    bcc(m, i + 1 < ch_src)                 # 174: bne.n 164
                ldr_sp(m)                          # 176: ldr r7, [sp, #0]
                count = add(m, count, 1)           # 178: count++
                cmp(m, count, target)              # 17a
                tap = add(m, tap, 2 * ch_src)      # 17c
                add(m, tap, 2 * ch_src)            # 17e
                bcc(m, count != target)            # 180: bne.n 15a
        ldr_sp(m)                                  # 182: input_x * ch_src * 2
        start = add(m, start, row_bytes)           # 184
        ldr_sp(m)                                  # 186: kernel_y_end
        add(m, k_y, 1)                             # 188: k_y++
        cmp(m, k_y + 1, kye)                       # 18c
        bcc(m, k_y + 1 != kye)                     # 18e: bne.n 128
    ldr_sp(m)                                      # 190: idx_x
    return count


@kernel
def _m4_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, ch_src = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    mov(m, 0)                                      # 4: mov r5, r2
    sub(m, 0, 0)                                   # 6: sub sp, #132
    ldr_sp(m)                                      # 8: input_dims->w
    str_sp(m)                                      # c: src
    ldr_sp(m)                                      # e: input_dims->h
    ldr_sp(m)                                      # 10: input_dims->c
    ldr_sp(m)                                      # 12: input_dims->n
    str_sp(m)                                      # 14
    mov(m, 0)                                      # 16: mov r2, r1
    mov(m, 0)                                      # 18: mov r1, r0
    ldr_sp(m)                                      # 1a: output_dims (stacked)
    ldr_sp(m)                                      # 1c: filter_dims (stacked)
    str_sp(m)                                      # 1e: batch_cnt
    batch_input = mul(m, input_x, input_y)         # 20: input_x * input_y
    batch_input = mul(m, ch_src, batch_input)      # 24:   * ch_src
    ldr_sp(m)                                      # 28: output_dims->h
    ldr_sp(m)                                      # 2a: output_dims->w
    str_sp(m)                                      # 2c
    ldr_sp(m)                                      # 2e: pool_params->stride.h
    str_sp(m)
    ldr_sp(m)                                      # 32: pool_params->stride.w
    str_sp(m)
    ldr_sp(m)                                      # 36: filter_dims->h
    str_sp(m)
    ldr_sp(m)                                      # 3a: filter_dims->w
    str_sp(m)
    ldr_sp(m)                                      # 3e: activation.min
    str_sp(m)                                      # 40: output_y
    ldrd_sp(m)                                     # 42: padding.w, padding.h
    cmp(m, batch_cnt, 0)                           # 46: if (batch_cnt < 1)
    ldr_sp(m)                                      # 48: activation.max
    str_sp(m)                                      # 4a
    str_sp(m)                                      # 4c
    bcc(m, batch_cnt < 1)                          # 4e: ble.w 236
    if batch_cnt < 1:
        return _return(m, ARG_ERROR, False)
    ldr_sp(m)                                      # 52: buffer = ctx->buf
    buffer = ctx.buf
    cmp(m, buffer, 0)                              # 54: if (buffer == NULL)
    bcc(m, buffer == 0)                            # 56: beq.w 236
    if buffer == 0:
        return _return(m, ARG_ERROR, False)
    rsb(m, pad_y, 0)                               # 5a: idx_y = -pad_y
    str_sp(m)                                      # 5e
    mov(m, 0)                                      # 62: mov r2, r0
    mov(m, 0)                                      # 64: mov r4, r6
    mov(m, 0)                                      # 66: mov r9, r3
    while True:                                    # while (batch_cnt)
        ldr_sp(m)                                  # 68: output_y
        cmp(m, output_y, 0)                        # for (i_y = 0, idx_y = -pad_y; i_y < output_y; ...)
        bcc(m, output_y <= 0)                      # 6c: ble.w 21c
        if output_y > 0:
            ldr_sp(m)                              # 70: input_x
            str_sp(m)                              # 72
            row_bytes = mul(m, input_x, ch_src)    # 74
            row_bytes = lsl(m, row_bytes, 1)       # 78
            sub(m, buffer, 4)                      # 7a: subs r7, r1, #4
            str_sp(m)                              # 7c
            lsl(m, ch_src, 1)                      # 7e: dst += ch_src (bytes)
            add(m, buffer - 4, ch_src << 2)        # 80: the buffer's end
            rsb(m, pad_x, 0)                       # 84: idx_x = -pad_x
            strd_sp(m)                             # 88
            str_sp(m)                              # 8c
            mov(m, 0)                              # 8e: mov fp, r7
            mov(m, 0)                              # 90: mov r5, r2
            mov(m, 0)                              # 92: i_y = 0
            mov(m, 0)                              # 96: mov r3, r4
            str_sp(m)                              # 98
            mov(m, 0)                              # 9a: mov r9, lr
            mov(m, 0)                              # 9c: mov r7, r0
            idx_y = -pad_y
            for i_y in range(output_y):
                ldr_sp(m)                          # 9e: output_x
                cmp(m, output_x, 0)                # for (i_x = 0, idx_x = -pad_x; i_x < output_x; ...)
                bcc(m, output_x <= 0)              # a2: ble.w 200
                if output_x > 0:
                    ldr_sp(m)                      # a6: input_y
                    str_sp(m)                      # a8
                    kye = add(m, input_y, -idx_y)  # aa: input_y - idx_y
                    ldr_sp(m)                      # ac: kernel_y
                    str_sp(m)                      # ae
                    cmp(m, idx_y, 0)               # b2: kernel_y_start = MAX(0, -idx_y)
                    it(m, 1)                       # b4: ite le (one arm fails)
                    kys = mov(m, -idx_y if idx_y <= 0 else 0)
                    kye = min_ge(m, kye, kernel_y)  # bc: kernel_y_end = MIN(kernel_y, ...)
                    ldr_sp(m)                      # c2: input_x
                    str_sp(m)                      # c4: kernel_y_end
                    row_off = add(m, kys, idx_y)   # c6
                    str_sp(m)                      # ca: kernel_y_start
                    strd_sp(m)                     # cc
                    row_off = mul(m, input_x, row_off)  # d0
                    strd_sp(m)                     # d4
                    add(m, input_x, pad_x)         # d8: input_x - idx_x
                    str_sp(m)                      # da
                    mov(m, 0)                      # dc: i_x = 0
                    str_sp(m)                      # de
                    str_sp(m)                      # e0
                    mov(m, 0)                      # e2: mov r5, r9
                    idx_x = -pad_x
                    for i_x in range(output_x):
                        ldr_sp(m)                  # e4: -idx_x
                        ldr_sp(m)                  # e6: kernel_x
                        ldr_sp(m)                  # e8: kernel_y_start
                        cmp(m, idx_x, 0)           # ec: kernel_x_start = MAX(0, -idx_x)
                        it(m, 0 if idx_x <= 0 else 1)
                        if idx_x <= 0:
                            mov(m, -idx_x)         # f0: movle sl, r2
                        ldr_sp(m)                  # f2: input_x - idx_x
                        it(m, 0 if idx_x > 0 else 1)
                        if idx_x > 0:
                            mov(m, 0)              # f6: movgt.w sl, #0
                        kxs = -idx_x if idx_x <= 0 else 0
                        kxe = min_ge(m, input_x - idx_x, kernel_x)  # fa: MIN(kernel_x, ...)
                        ldr_sp(m)                  # 100: kernel_y_end
                        cmp(m, kys, kye)           # 102: for (k_y = kernel_y_start; ...)
                        bcc(m, kys >= kye)         # 104: bge.w 236 (count stays 0)
                        if kys >= kye:
                            return _return(m, ARG_ERROR, False)
                        count = _m4_window(m, buffer, src, ch_src, row_bytes, kys, kye, kxs,
                                           kxe, idx_x, row_off)
                        cmp(m, count, 0)           # 192: if (count == 0)
                        bcc(m, count == 0)         # 194: beq.n 236
                        if count == 0:
                            return _return(m, ARG_ERROR, False)
                        _m4_scale_q31_to_q15_and_clamp(m, buffer, dst, ch_src, count, act_min,
                                                       act_max)
                        ldr_sp(m)                  # 1d2: dst
                        ldr_sp(m)                  # 1d4: -idx_x
                        ldr_sp(m)                  # 1d6: i_x
                        dst = add(m, dst, 2 * ch_src)  # 1d8: dst += ch_src
                        str_sp(m)                  # 1da
                        ldr_sp(m)                  # 1dc: stride_x
                        sub(m, -idx_x, stride_x)   # 1de
                        str_sp(m)                  # 1e0
                        ldr_sp(m)                  # 1e2: input_x - idx_x
                        idx_x = add(m, idx_x, stride_x)  # 1e4: idx_x += stride_x
                        sub(m, input_x, idx_x)     # 1e6
                        str_sp(m)                  # 1e8
                        ldr_sp(m)                  # 1ea: output_x
                        add(m, i_x, 1)             # 1ec: i_x++
                        cmp(m, i_x + 1, output_x)  # 1ee
                        str_sp(m)                  # 1f0
                        bcc(m, i_x + 1 != output_x)  # 1f2: bne.w e4
                    ldrd_sp(m)                     # 1f6
                    ldrd_sp(m)                     # 1fa
                    ldr_sp(m)                      # 1fe
                ldr_sp(m)                          # 200: stride_y
                idx_y = add(m, idx_y, stride_y)    # 202: idx_y += stride_y
                sub(m, -idx_y, 0)                  # 204: subs r5, r5, r2
                ldr_sp(m)                          # 206: output_y
                add(m, i_y, 1)                     # 208: i_y++
                cmp(m, i_y + 1, output_y)          # 20c
                bcc(m, i_y + 1 != output_y)        # 20e: bne.w 9e
            ldrd_sp(m)                             # 212
            ldr_sp(m)                              # 216
            ldr_sp(m)                              # 218
            mov(m, 0)                              # 21a: mov r4, r3
        ldr_sp(m)                                  # 21c: src
        src = add(m, src, batch_input << 1)        # 21e: src += batch_input
        str_sp(m)                                  # 222
        ldr_sp(m)                                  # 224: batch_cnt
        batch_cnt = sub(m, batch_cnt, 1)           # 226: batch_cnt--
        str_sp(m)                                  # 228
        bcc(m, batch_cnt != 0)                     # 22a: bne.w 68
        if batch_cnt == 0:
            break
    return _return(m, 0, True)                     # 22e: mov r0, r3; b.n 23a


@kernel(inline=True)
def _m3_channel(m, ptr, ch_src, row_bytes, kys, kye, kxs, kxe, span):
    """136-18e: one output element: sum the window, round-divide, clamp.  `ptr` is the
    window's first tap of this channel.  Returns (count, sum), count 0 an error."""
    count = mov(m, 0)                              # 136: int count = 0
    mov(m, ptr)                                    # 138: mov r9, r2
    mov(m, kys)                                    # 13a: k_y = kernel_y_start
    total = mov(m, 0)                              # 13c: int sum = 0
    strd_sp(m)                                     # 13e
    str_sp(m)                                      # 142
    for k_y in range(kys, kye):
        cmp(m, kxs, kxe)                           # 144: for (k_x = ker_x_start; ...)
        bcc(m, kxs >= kxe)                         # 146: bge.n 15c
        if kxs < kxe:
            mov(m, ptr)                            # 148: mov r2, r9
            mov(m, kxs)                            # 14a: mov r3, ip
            tap = ptr
            for k_x in range(kxs, kxe):
                v = ldrsh(m, tap)                  # 14c: sum += src[...]
                add(m, k_x, 1)                     # 150: k_x++
                cmp(m, kxe, k_x + 1)               # 152
                total = add(m, total, v)           # 154
                tap = add(m, tap, 2 * ch_src)      # 156
                bcc(m, k_x + 1 != kxe)             # 158: bne.n 14c
            count = add(m, count, span)            # 15a: count += the row's taps
        add(m, k_y, 1)                             # 15c: k_y++
        cmp(m, k_y + 1, kye)                       # 15e
        ptr = add(m, ptr, row_bytes)               # 160
        bcc(m, k_y + 1 != kye)                     # 162: bne.n 144
    ldrd_sp(m)                                     # 164
    ldr_sp(m)                                      # 168
    cmp(m, count, 0)                               # 16a: if (count == 0)
    bcc(m, count == 0)                             # 16c: beq.n 20c
    if count == 0:
        return 0, 0
    cmp(m, total, 0)                               # 16e: sum > 0 ?
    bcc(m, total <= 0)                             # 170: ble.n 1fe
    if total > 0:
        total = add(m, total, count >> 1)          # 172: (sum + count / 2)
        total = udiv(m, total, count)              # 176:   / count
    else:
        half = add(m, count, (count >> 31) & 1)    # 1fe: add.w r6, r7, r7, lsr #31
        total = sub(m, total, half >> 1)           # 202: (sum - count / 2)
        total = sdiv(m, total, count)              # 206:   / count
        b(m)                                       # 20a: b.n 17a
    ldr_sp(m)                                      # 17a: act_min
    return count, total


@kernel
def _m3_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, ch_src = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # 4: sub sp, #140
    ldrd_sp(m)                                     # 6: filter_dims, output_dims (stacked)
    ldrd_sp(m)                                     # a: output_dims->h, w
    str_sp(m)                                      # e
    ldr_sp(m)                                      # 10: filter_dims->h
    ldr_sp(m)                                      # 12: filter_dims->w
    str_sp(m)                                      # 14: src
    str_sp(m)                                      # 16
    mov(m, 0)                                      # 18: mov r0, r2
    mov(m, 0)                                      # 1a: mov r2, r1
    ldr_sp(m)                                      # 1c: input_dims->h
    ldr_sp(m)                                      # 1e: input_dims->w
    str_sp(m)                                      # 20
    batch_input = mul(m, input_x, input_y)         # 22: input_x * input_y
    ldrd_sp(m)                                     # 26: padding.w, padding.h
    ldr_sp(m)                                      # 2a: input_dims->c
    str_sp(m)                                      # 2c
    batch_input = mul(m, ch_src, batch_input)      # 2e:   * ch_src
    str_sp(m)                                      # 32
    ldrd_sp(m)                                     # 34: stride.w, stride.h
    str_sp(m)                                      # 38
    ldr_sp(m)                                      # 3a: activation.min
    ldr_sp(m)                                      # 3c: input_dims->n
    str_sp(m)                                      # 3e
    ldr_sp(m)                                      # 40: activation.max
    cmp(m, batch_cnt, 0)                           # 42: if (batch_cnt < 1)
    ldr_sp(m)                                      # 44: dst (stacked)
    str_sp(m)                                      # 46
    str_sp(m)                                      # 48
    str_sp(m)                                      # 4a
    bcc(m, batch_cnt < 1)                          # 4c: ble.w 20c
    if batch_cnt < 1:
        return _return(m, ARG_ERROR, False)
    ldr_sp(m)                                      # 50: output_x
    ldr_sp(m)                                      # 52: ch_src
    batch_output = mul(m, output_x, output_y)      # 54
    mov(m, 0)                                      # 58: mov r7, sl
    batch_output = mul(m, ch_src, batch_output)    # 5a: batch_output
    mov(m, 0)                                      # 5e: mov r2, fp
    str_sp(m)                                      # 60
    rsb(m, pad_y, 0)                               # 62: base_idx_y = -pad_y
    str_sp(m)                                      # 66
    while True:                                    # while (batch_cnt)
        cmp(m, output_y, 0)                        # 68: for (i_y = 0, ...; i_y < output_y; ...)
        bcc(m, output_y <= 0)                      # 6a: ble.w 1e4
        if output_y > 0:
            mov(m, 0)                              # 6e: the output offset of row i_y
            ldr_sp(m)                              # 70: ch_src
            ldr_sp(m)                              # 72: -pad_y
            ldr_sp(m)                              # 74: input_x
            str_sp(m)                              # 76
            row_bytes = mul(m, ch_src, input_x)    # 78
            row_bytes = lsl(m, row_bytes, 1)       # 7c: mov.w sl, r3, lsl #1
            mov(m, 0)                              # 80: mov r3, r1
            str_sp(m)                              # 82
            str_sp(m)                              # 86
            mov(m, 0)                              # 8a: i_y = 0
            mov(m, 0)                              # 8c: mov r8, sl
            ldr_sp(m)                              # 8e: output_x
            lsl(m, ch_src, 1)                      # 90: mov.w fp, r3, lsl #1
            mul(m, ch_src, output_x)               # 94
            sub(m, dst, 2)                         # 98
            str_sp(m)                              # 9a
            rsb(m, pad_x, 0)                       # 9c: base_idx_x = -pad_x
            str_sp(m)                              # a0
            str_sp(m)                              # a2
            str_sp(m)                              # a4
            base_idx_y = -pad_y
            for i_y in range(output_y):
                ldr_sp(m)                          # a6: output_x
                cmp(m, output_x, 0)                # for (i_x = 0, ...; i_x < output_x; ...)
                bcc(m, output_x <= 0)              # aa: ble.w 1c4
                if output_x > 0:
                    ldr_sp(m)                      # ae: -base_idx_y
                    ldr_sp(m)                      # b0: input_y
                    ldr_sp(m)                      # b2: kernel_y
                    kye = add(m, input_y, -base_idx_y)  # b6: input_y - base_idx_y
                    cmp(m, kernel_y, kye)          # b8: kernel_y_end = MIN(kernel_y, ...)
                    it(m, 0 if kernel_y >= kye else 1)
                    if kernel_y >= kye:
                        kye = mov(m, kye)          # bc: movge sl, r3
                    else:
                        kye = kernel_y
                    ldr_sp(m)                      # be: -pad_x
                    strd_sp(m)                     # c0
                    mov(m, 0)                      # c4: i_x = 0
                    mov(m, 0)                      # c6: mov r7, ip
                    mov(m, 0)                      # c8: mov r1, r0
                    mov(m, 0)                      # ca: mov r5, r3
                    ldr_sp(m)                      # cc: input_x
                    strd_sp(m)                     # d0
                    add(m, input_x, pad_x)         # d4: input_x - base_idx_x
                    str_sp(m)                      # d6
                    str_sp(m)                      # da
                    str_sp(m)                      # dc
                    base_idx_x = -pad_x
                    for i_x in range(output_x):
                        ldr_sp(m)                  # de: base_idx_y
                        ldr_sp(m)                  # e0: -base_idx_y
                        cmp(m, base_idx_y, 0)      # e2: ker_y_start = MAX(0, -base_idx_y)
                        it(m, 0 if base_idx_y <= 0 else 1)
                        if base_idx_y <= 0:
                            mov(m, -base_idx_y)    # e6: movle r9, r2
                        ldr_sp(m)                  # e8: input_x - base_idx_x
                        ldr_sp(m)                  # ea: kernel_x
                        it(m, 0 if base_idx_y > 0 else 1)
                        if base_idx_y > 0:
                            mov(m, 0)              # ee: movgt.w r9, #0
                        kys = -base_idx_y if base_idx_y <= 0 else 0
                        cmp(m, base_idx_x, 0)      # f2: ker_x_start = MAX(0, -base_idx_x)
                        it(m, 1)                   # f4: ite le (one arm fails)
                        kxs = mov(m, -base_idx_x if base_idx_x <= 0 else 0)
                        kxe = min_ge(m, input_x - base_idx_x, kernel_x)  # fc: MIN(kernel_x, ...)
                        ldr_sp(m)                  # 102: ch_src
                        cmp(m, ch_src, 0)          # 104: for (i_ch_in = 0; ...)
                        bcc(m, ch_src <= 0)        # 106: ble.n 1a0
                        if ch_src > 0:
                            mov(m, 0)              # 108: i_ch_in = 0
                            first = add(m, kys, base_idx_y)       # 10a
                            ldr_sp(m)              # 10e: input_x
                            strd_sp(m)             # 110
                            first = mla(m, input_x, first, base_idx_x)  # 114
                            ldr_sp(m)              # 118: src
                            first = add(m, first, kxs)            # 11a
                            first = mla(m, 2 * ch_src, first, src)  # 11c: the window's first tap
                            ldr_sp(m)              # 120: dst - 1
                            str_sp(m)              # 122
                            out = dst + 2 * ch_src * (i_x + i_y * output_x)
                            add(m, out - 2, 0)     # 124: &dst[ch_src * (i_x + i_y * output_x)] - 1
                            mov(m, kys)            # 128: mov r5, r9
                            mov(m, 0)              # 12a: mov r1, r0
                            span = sub(m, kxe, kxs)  # 12c
                            str_sp(m)              # 130
                            for i_ch in range(ch_src):
                                cmp(m, kys, kye)   # 132: for (k_y = ker_y_start; ...)
                                bcc(m, kys >= kye)  # 134: bge.n 20c (count stays 0)
                                if kys >= kye:
                                    return _return(m, ARG_ERROR, False)
                                count, total = _m3_channel(m, first + 2 * i_ch, ch_src,
                                                           row_bytes, kys, kye, kxs, kxe, span)
                                if count == 0:
                                    return _return(m, ARG_ERROR, False)
                                add(m, i_ch, 1)    # 17c: i_ch_in++
                                total = max_lt(m, total, act_min)  # 17e: sum = MAX(sum, act_min)
                                ldr_sp(m)          # 184: act_max
                                add(m, out, 2)     # 186
                                total = min_ge(m, total, act_max)  # 188: sum = MIN(sum, act_max)
                                ldr_sp(m)          # 18e: ch_src
                                strh(m, out + 2 * i_ch, total)  # 190: dst[...] = sum
                                cmp(m, ch_src, i_ch + 1)          # 194
                                bcc(m, i_ch + 1 != ch_src)        # 196: bne.n 132
                            ldrd_sp(m)             # 198
                            ldrd_sp(m)             # 19c
                        ldr_sp(m)                  # 1a0: stride_x
                        ldr_sp(m)                  # 1a2: input_x - base_idx_x
                        base_idx_x = add(m, base_idx_x, stride_x)  # 1a4: base_idx_x += stride_x
                        sub(m, -base_idx_x, 0)     # 1a6
                        sub(m, input_x, base_idx_x)  # 1a8
                        str_sp(m)                  # 1aa
                        ldr_sp(m)                  # 1ac: ch_src
                        add(m, i_x, 1)             # 1ae: i_x++
                        add(m, 0, ch_src)          # 1b0: the output offset
                        ldr_sp(m)                  # 1b2: output_x
                        cmp(m, output_x, i_x + 1)  # 1b4
                        bcc(m, i_x + 1 != output_x)  # 1b6: bne.n de
                    ldr_sp(m)                      # 1b8
                    ldr_sp(m)                      # 1ba
                    ldrd_sp(m)                     # 1bc
                    ldrd_sp(m)                     # 1c0
                ldr_sp(m)                          # 1c4: base_idx_y
                add(m, i_y, 1)                     # 1c6: i_y++
                base_idx_y = add(m, base_idx_y, stride_y)  # 1ca: base_idx_y += stride_y
                str_sp(m)                          # 1cc
                ldr_sp(m)                          # 1ce: -base_idx_y
                cmp(m, output_y, i_y + 1)          # 1d0
                sub(m, -base_idx_y, 0)             # 1d2
                str_sp(m)                          # 1d6
                ldr_sp(m)                          # 1d8: ch_src * output_x
                add(m, 0, 0)                       # 1da: the output offset
                bcc(m, i_y + 1 != output_y)        # 1dc: bne.w a6
            ldrd_sp(m)                             # 1e0
        ldr_sp(m)                                  # 1e4: src
        ldr_sp(m)                                  # 1e6: batch_input
        batch_cnt = sub(m, batch_cnt, 1)           # 1e8: batch_cnt--
        src = add(m, src, batch_input << 1)        # 1ea: src += batch_input
        str_sp(m)                                  # 1ee
        ldr_sp(m)                                  # 1f0: batch_output
        dst = add(m, dst, batch_output << 1)       # 1f2: dst += batch_output
        bcc(m, batch_cnt != 0)                     # 1f6: bne.w 68
        if batch_cnt == 0:
            break
    return _return(m, 0, True)                     # 1fa: mov r0, r5; b.n 210


@kernel
def arm_avgpool_s16(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    """`ctx` a Context, `pool_params` a PoolParams, the dims Dims (arm_nn_types); returns
    ARM_CMSIS_NN_SUCCESS (0) or ARM_CMSIS_NN_ARG_ERROR (-1)."""
    if m.dsp:
        return _m4_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst)
    return _m3_avgpool(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst)
