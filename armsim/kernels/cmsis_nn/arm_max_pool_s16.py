"""arm_max_pool_s16 (Source/PoolingFunctions/arm_max_pool_s16.c), non-MVE code.

    arm_cmsis_nn_status arm_max_pool_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_pool_params *pool_params, const cmsis_nn_dims *input_dims,
        const int16_t *src, const cmsis_nn_dims *filter_dims,
        const cmsis_nn_dims *output_dims, int16_t *dst)

Per output position the first window tap inside the input is copied with memcpy
(channel_in * 2 bytes, newlib, kernels/libc.py), every further tap is merged by
compare_and_replace_if_larger (two halfwords per word through the `arm_nnword` union, then
the odd channel), and at the end of a batch clamp_output clamps the whole output in place.
No ARM_MATH_DSP code; both static helpers are inlined (the only call is memcpy).

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3); the
hexadecimal numbers in the comments are the M4 object's offsets (the M3 code has the same
blocks, with its own order inside some of them).  The union's halfwords compile to SXTH /
ASR #16 and a BFI each; MAX / MIN to CMP + IT + a conditional MOV, whose operands gcc
orders per build for the merged word's low half (the M4 compares the output with the tap,
the M3 the tap with the output).  gcc sets the tap count to 1 after each window row.
Fields of the caller's structs (not in simulated memory) are issued as stack-slot loads.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, bfi, bl, cbz, cmp, it, ldr, ldr_sp, ldrd_sp,
                            ldrsh, ldrsh_sp, lsl, mla, mov, mul, pop_pc, push, rsb, str_, str_sp,
                            strd_sp, strh, sub, sxth)
from armsim.kernels.minmax import max_lt, min_ge

from ..libc import memcpy

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel(inline=True)
def _return(m, status, error):
    """2f0: `mov r0, r7` (success) or 2f8: `mov.w r0, #-1; b 2f2`; `add sp`, pop."""
    mov(m, status)
    if error:
        b(m)
    add(m, 0, 0)                                   # add sp, #180 (#172)
    pop_pc(m, 9)                                   # ldmia.w sp!, {r4-r11, pc}
    return status


@kernel(inline=True)
def _merge_words(m, out, tap, cnt):
    """1b2-1e2: while (cnt > 0l) the halfword pairs: ref_max = the output's word, comp_max
    the tap's; each half of ref_max becomes the larger one (BFI back), stored."""
    for j in range(cnt):
        comp_max = ldr(m, tap + 4 * j)             # 1b2: ldr.w r0, [r1], #4 (arm_nn_read_q15x2_ia)
        ref_max = ldr(m, out + 4 * j)              # 1b6: ldr r3, [r5, #0] (arm_nn_read_s16x2)
        comp0 = sxth(m, comp_max, 0)               # 1b8: half_words[0]
        ref0 = sxth(m, ref_max, 0)                 # 1bc
        if m.dsp:
            cmp(m, ref0, comp0)                    # 1c0: cmp r9, fp
        else:
            cmp(m, comp0, ref0)                    # cmp r9, fp (the tap's half first)
        ref1 = asr(m, ref_max, 16)                 # 1c2: half_words[1]
        comp1 = asr(m, comp_max, 16)               # 1c6
        if m.dsp:                                  # 1ca: it lt; movlt r9, fp
            it(m, 0 if ref0 < comp0 else 1)
            if ref0 < comp0:
                mov(m, comp0)
        else:
            it(m, 0 if comp0 < ref0 else 1)
            if comp0 < ref0:
                mov(m, ref0)
        low = ref0 if ref0 > comp0 else comp0
        cmp(m, ref1, comp1)                        # 1ce: if (comp_max.half_words[1] > ...)
        it(m, 0 if ref1 < comp1 else 1)            # 1d0: it lt; movlt r3, r0
        if ref1 < comp1:
            ref1 = mov(m, comp1)
        word = bfi(m, 0, low, 0, 16)               # 1d4: bfi sl, r9, #0, #16
        word = bfi(m, word, ref1, 16, 16)          # 1d8: bfi sl, r3, #16, #16
        cmp(m, j + 1, cnt)                         # 1dc: cmp r1, ip
        str_(m, out + 4 * j, word)                 # 1de: str.w sl, [r5], #4
        bcc(m, j + 1 < cnt)                        # 1e2: bne.n 1b2


@kernel(inline=True)
def _next_tap(m, k_x, kxe):
    """196-19c: k_x++; the tap pointer steps; `beq` out of the row after its last tap."""
    add(m, k_x, 1)                                 # 196: adds r2, #1
    cmp(m, kxe, k_x + 1)                           # 198: cmp r6, r2
    add(m, 0, 0)                                   # 19a: add ip, fp
    bcc(m, k_x + 1 == kxe)                         # 19c: beq.n 206


@kernel(inline=True)
def _window_row(m, out, row, ch, kxs, kxe, count, cnt, odd):
    """17c-206: for (k_x = ker_x_start; k_x < kernel_x_end; k_x++) { start = ...;
    if (count == 0) { memcpy(dst, start, channel_in * sizeof(int16_t)); count++; }
    else compare_and_replace_if_larger(dst, start, channel_in); }  `row` is the row's
    first tap.  Returns count."""
    if not m.dsp:
        ldr_sp(m)                                  # ldr r2, [sp, #8]: ker_x_start
    cmp(m, kxs, kxe)                               # 17c
    bcc(m, kxs >= kxe)                             # 17e: bge.n 208
    if kxs >= kxe:
        return count
    sub(m, row, 0)                                 # 180: start (sub.w r1, r9, r7)
    cmp(m, count, 0)                               # 184: if (count == 0)
    bcc(m, count != 0)                             # 186: bne.w 2ea
    k_x = kxs
    if count == 0:
        mov(m, 2 * ch)                             # 18a: mov r2, fp
        mov(m, out)                                # 18c: mov r0, r8
        bl(m)                                      # 18e: bl memcpy
        memcpy(m, out, row, 2 * ch)
        if m.dsp:
            mov(m, k_x)                            # 192: mov r2, r4
            mov(m, row)                            # 194: mov ip, r9
        else:
            mov(m, row)                            # mov ip, r9
            ldr_sp(m)                              # ldr r2, [sp, #8]
        _next_tap(m, k_x, kxe)
        k_x += 1
        if k_x == kxe:
            return 1
        sub(m, 0, 0)                               # 19e: sub.w r1, ip, r7 (start)
    else:
        if m.dsp:
            mov(m, k_x)                            # 2ea: mov r2, r4
            mov(m, row)                            # 2ec: mov ip, r9
        else:
            mov(m, row)                            # mov ip, r9
            ldr_sp(m)                              # ldr r2, [sp, #8]
        b(m)                                       # 2ee: b.n 1a2
    while True:                                    # compare_and_replace_if_larger(dst, start, ...)
        tap = row + 2 * ch * (k_x - kxs)
        ldr_sp(m)                                  # 1a2: cnt
        cmp(m, cnt, 0)                             # 1a4: while (cnt > 0l)
        bcc(m, cnt <= 0)                           # 1a6: ble.w 2e4
        if cnt > 0:
            if m.dsp:
                strd_sp(m)                         # 1aa
                mov(m, out)                        # 1ae: mov r5, r8
                mov(m, tap)                        # 1b0: mov lr, ip
            else:
                mov(m, out)
                mov(m, tap)
                strd_sp(m)
            _merge_words(m, out, tap, cnt)
            ldrd_sp(m)                             # 1e4: ldrd fp, r9, [sp, #4]
            ldr_sp(m)                              # 1e8: the odd channel's output
        else:
            mov(m, tap)                            # 2e4: mov lr, r1
            mov(m, out)                            # 2e6: mov r3, r8
            b(m)                                   # 2e8: b.n 1ea
        if m.dsp:
            ldr_sp(m)                              # 1ea: length & 0x1
        cmp(m, odd, 0)                             # 1ec: if (length & 0x1)
        bcc(m, odd == 0)                           # 1ee: beq.n 196
        if odd == 0:
            _next_tap(m, k_x, kxe)
        else:
            s = ldrsh(m, tap + 4 * cnt)            # 1f0: if (*src > *dst)
            d = ldrsh(m, out + 4 * cnt)            # 1f4
            add(m, k_x, 1)                         # 1f8: adds r2, #1
            cmp(m, d, s)                           # 1fa
            it(m, 0 if d < s else 1)               # 1fc: it lt
            if d < s:
                strh(m, out + 4 * cnt, s)          # 1fe: *dst = *src
            cmp(m, kxe, k_x + 1)                   # 200: cmp r6, r2
            add(m, 0, 0)                           # 202: add ip, fp
            bcc(m, k_x + 1 != kxe)                 # 204: bne.n 19e
        k_x += 1
        if k_x == kxe:
            return 1
        sub(m, 0, 0)                               # 19e: sub.w r1, ip, r7 (start)


@kernel(inline=True)
def _clamp_output(m, source, length, act_min, act_max):
    """262-28c (M3: 254-278): clamp_output(dst_base, output_x * output_y * channel_in,
    act_min, act_max): the halfword pairs, then the odd element."""
    cnt = length >> 1
    if cnt > 0:
        ldr_sp(m)                                  # 2ac: cnt * 4
        add(m, source, 4 * cnt)                    # 2ae: the end
        for j in range(cnt):
            word = ldr(m, source + 4 * j)          # 2b2: in.word = arm_nn_read_s16x2(source)
            low = sxth(m, word, 0)                 # 2b6: half_words[0]
            if m.dsp:
                low = max_lt(m, low, act_min)      # 2b8: MAX(half_words[0], act_min)
                high = asr(m, word, 16)            # 2be: half_words[1]
                low = min_ge(m, low, act_max)      # 2c0: MIN(half_words[0], act_max)
                high = max_lt(m, high, act_min)    # 2c6
                high = min_ge(m, high, act_max)    # 2cc
            else:
                cmp(m, low, act_min)               # cmp r0, r5
                high = asr(m, word, 16)            # mov.w r3, r3, asr #16
                it(m, 0 if low < act_min else 1)   # it lt; movlt r0, r5
                if low < act_min:
                    low = mov(m, act_min)
                high = max_lt(m, high, act_min)
                low = min_ge(m, low, act_max)
                high = min_ge(m, high, act_max)
            word = bfi(m, 0, low, 0, 16)           # 2d2: bfi r8, r2, #0, #16
            word = bfi(m, word, high, 16, 16)      # 2d6: bfi r8, r3, #16, #16
            str_(m, source + 4 * j, word)          # 2da: str.w r8, [r9], #4
            cmp(m, j + 1, cnt)                     # 2de
            bcc(m, j + 1 < cnt)                    # 2e0: bne.n 2b2
        b(m)                                       # 2e2: b.n 278
    else:
        mov(m, source)                             # 276: mov r1, r9
    ldr_sp(m)                                      # 278: length & 0x1
    cbz(m, (length & 1) == 0)                        # 27a: cbz r3, 28e
    if length & 1:
        comp = ldrsh(m, source + 4 * cnt)          # 27c: int16_t comp = *source
        comp = max_lt(m, comp, act_min)            # 280: comp = MAX(comp, act_min)
        comp = min_ge(m, comp, act_max)            # 286: comp = MIN(comp, act_max)
        strh(m, source + 4 * cnt, comp)            # 28c: *source = comp


@kernel
def arm_max_pool_s16(m, ctx, pool_params, input_dims, src, filter_dims, output_dims, dst):
    """`ctx` a Context (unused), `pool_params` a PoolParams, the dims Dims (arm_nn_types);
    returns ARM_CMSIS_NN_SUCCESS (0) or ARM_CMSIS_NN_ARG_ERROR (-1)."""
    stride_x, stride_y = pool_params.stride.w, pool_params.stride.h
    pad_x, pad_y = pool_params.padding.w, pool_params.padding.h
    act_min, act_max = pool_params.activation.min, pool_params.activation.max
    input_y, input_x, ch = input_dims.h, input_dims.w, input_dims.c
    kernel_y, kernel_x = filter_dims.h, filter_dims.w
    output_y, output_x = output_dims.h, output_dims.w
    batch_cnt = input_dims.n
    length = output_x * output_y * ch              # clamp_output's length
    cnt = ch >> 1                                  # compare_and_replace_if_larger's cnt
    odd = ch & 1
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                   # 4: sub sp, #180 (#172)
    ldrd_sp(m)                                     # 6: filter_dims, output_dims (stacked)
    if m.dsp:
        mov(m, 0)                                  # a: mov r5, r2
        ldr_sp(m)                                  # c: stride.h
        ldr_sp(m)                                  # 10: input_dims->n
        str_sp(m)                                  # 12: src
        str_sp(m)                                  # 14
        ldr_sp(m)                                  # 18: input_dims->h
        ldr_sp(m)                                  # 1a: stride.w
        ldr_sp(m)                                  # 1e: input_dims->w
        ldr_sp(m)                                  # 20: input_dims->c
        str_sp(m)                                  # 24
        ldr_sp(m)                                  # 28: filter_dims->h
        ldr_sp(m)                                  # 2c: filter_dims->w
        ldr_sp(m)                                  # 2e: output_dims->h
        ldr_sp(m)                                  # 30: padding.h
        ldr_sp(m)                                  # 34: output_dims->w
        str_sp(m)                                  # 36
        str_sp(m)                                  # 38
        batch_size = mul(m, input_x, input_y)      # 3a: input_x * input_y
        ldr_sp(m)                                  # 3e: padding.w
        str_sp(m)                                  # 40
        cmp(m, batch_cnt, 0)                       # 44: if (batch_cnt < 1)
        str_sp(m)                                  # 46
        ldr_sp(m)                                  # 48: dst (stacked)
        ldrsh_sp(m)                                # 4c: activation.min (int16_t)
        ldrsh_sp(m)                                # 50: activation.max (int16_t)
        str_sp(m)                                  # 54
        batch_size = mul(m, ch, batch_size)        # 56:   * channel_in
        str_sp(m)                                  # 5a
        str_sp(m)                                  # 5c
    else:
        ldr_sp(m)                                  # filter_dims->h
        str_sp(m)                                  # src
        str_sp(m)
        ldr_sp(m)                                  # filter_dims->w
        ldr_sp(m)                                  # output_dims->h
        str_sp(m)
        mov(m, 0)                                  # mov r0, r2
        mov(m, 0)                                  # mov r2, r1
        ldr_sp(m)                                  # input_dims->h
        ldr_sp(m)                                  # input_dims->w
        ldr_sp(m)                                  # input_dims->n
        ldr_sp(m)                                  # input_dims->c
        ldr_sp(m)                                  # stride.h
        str_sp(m)
        str_sp(m)
        batch_size = mul(m, input_x, input_y)      # input_x * input_y
        ldr_sp(m)                                  # stride.w
        ldr_sp(m)                                  # output_dims->w
        ldr_sp(m)                                  # padding.h
        str_sp(m)
        ldr_sp(m)                                  # padding.w
        cmp(m, batch_cnt, 0)                       # if (batch_cnt < 1)
        str_sp(m)
        batch_size = mul(m, ch, batch_size)        #   * channel_in
        ldr_sp(m)                                  # dst (stacked)
        ldrsh_sp(m)                                # activation.min (int16_t)
        ldrsh_sp(m)                                # activation.max (int16_t)
        for _ in range(5):
            str_sp(m)
    bcc(m, batch_cnt < 1)                          # 60: ble.w 2f8
    if batch_cnt < 1:
        return _return(m, ARG_ERROR, True)
    # 64-b6: the loop invariants
    if m.dsp:
        lsl(m, batch_size, 1)                      # 64: src += batch_size (bytes)
        str_sp(m)                                  # 66
        t = mul(m, output_x, output_y)             # 68
        mul(m, ch, t)                              # 6c: length
        asr(m, length, 1)                          # 70: cnt = length >> 1
        and_(m, length, 1)                         # 72: length & 0x1
        str_sp(m)                                  # 76
        t = mul(m, input_x, ch)                    # 78
        lsl(m, t, 1)                               # 7c: a window row's bytes
        str_sp(m)                                  # 7e
        mov(m, pad_y)                              # 80: mov r3, fp
        asr(m, ch, 1)                              # 82: mov.w r5, lr, asr #1
        rsb(m, pad_y, 0)                           # 86: base_idx_y = -pad_y
        lsl(m, ch, 1)                              # 88: mov.w sl, lr, lsl #1
        str_sp(m)                                  # 8c
        lsl(m, cnt, 1)                             # 8e
        str_sp(m)                                  # 90
        mul(m, output_x, 2 * ch)                   # 92: dst += channel_in per output row
        str_sp(m)                                  # 96
        lsl(m, length >> 1, 2)                     # 98
        str_sp(m)                                  # 9a
        ldr_sp(m)                                  # 9c: output_y
        str_sp(m)                                  # 9e
        lsl(m, cnt, 2)                             # a0: mov.w fp, r5, lsl #2
        cmp(m, output_y, 0)                        # a4
        mov(m, 0)                                  # a6: mov r4, ip
        str_sp(m)                                  # a8
        str_sp(m)                                  # ac
        mov(m, 0)                                  # ae: mov fp, sl
        mov(m, 0)                                  # b0: mov r5, r0
        mov(m, 0)                                  # b2: mov ip, r2
        mov(m, 0)                                  # b4: mov sl, r6
    else:
        lsl(m, batch_size, 1)                      # src += batch_size (bytes)
        str_sp(m)
        t = mul(m, output_x, output_y)
        t2 = mul(m, input_x, ch)
        mul(m, ch, t)                              # length
        lsl(m, t2, 1)                              # a window row's bytes
        lsl(m, ch, 1)                              # mov.w sl, lr, lsl #1
        str_sp(m)
        asr(m, length, 1)                          # cnt = length >> 1
        and_(m, length, 1)                         # length & 0x1
        str_sp(m)
        mul(m, output_x, 2 * ch)                   # dst += channel_in per output row
        str_sp(m)
        mov(m, pad_y)                              # mov r3, fp
        asr(m, ch, 1)                              # mov.w r1, lr, asr #1
        rsb(m, pad_y, 0)                           # base_idx_y = -pad_y
        str_sp(m)
        lsl(m, cnt, 1)
        str_sp(m)
        lsl(m, length >> 1, 2)
        str_sp(m)
        mov(m, 0)                                  # mov r3, r7
        lsl(m, cnt, 2)                             # mov.w fp, r1, lsl #2
        mov(m, 0)                                  # mov r7, fp
        mov(m, 0)                                  # mov fp, sl
        mov(m, 0)                                  # mov sl, r3
        ldr_sp(m)                                  # output_y
        mov(m, 0)                                  # mov r5, ip
        cmp(m, output_y, 0)
        mov(m, 0)                                  # mov r4, r0
        str_sp(m)
    bcc(m, output_y <= 0)                          # b6: ble.w 2a4
    while True:                                    # while (batch_cnt)
        dst_base = dst
        if output_y > 0:
            if m.dsp:                              # ba-dc
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                rsb(m, pad_x, 0)                   # c0: base_idx_x = -pad_x
                str_sp(m)
                mov(m, 0)                          # c4: i_y = 0
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                strd_sp(m)
                str_sp(m)
                mov(m, dst)                        # d4: mov r6, r9
                mov(m, 0)                          # d6: mov r5, r1
                str_sp(m)
                mov(m, 0)                          # da: mov r8, ip
                str_sp(m)                          # dc: dst_base
            else:
                mov(m, 0)                          # i_y = 0
                strd_sp(m)
                mov(m, dst)                        # mov r6, r9
                mov(m, 0)                          # mov r5, r1
                ldr_sp(m)
                str_sp(m)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)                          # dst_base
                str_sp(m)
                ldr_sp(m)
                rsb(m, pad_x, 0)                   # base_idx_x = -pad_x
                str_sp(m)
            base_idx_y = -pad_y
            for i_y in range(output_y):
                ldr_sp(m)                          # e0: output_x
                cmp(m, output_x, 0)                # for (i_x = 0, ...; i_x < output_x; ...)
                bcc(m, output_x <= 0)              # e4: ble.w 24a
                if output_x > 0:
                    kys = -base_idx_y if base_idx_y <= 0 else 0
                    kye = input_y - base_idx_y
                    if m.dsp:
                        ldr_sp(m)                  # e8: -base_idx_y
                        ldr_sp(m)                  # ea: -pad_x
                        str_sp(m)                  # ec
                        cmp(m, base_idx_y, 0)      # f0: ker_y_start = MAX(0, -base_idx_y)
                        it(m, 1)                   # f2: ite le (one arm fails)
                        mov(m, kys)
                        mov(m, kys)                # f8: mov r1, r3
                        str_sp(m)                  # fa
                        ldr_sp(m)                  # fc: input_y
                        str_sp(m)                  # fe
                        add(m, input_y, -base_idx_y)  # 100: input_y - base_idx_y
                        ldr_sp(m)                  # 102: kernel_y
                        str_sp(m)                  # 104
                        kye = min_ge(m, kye, kernel_y)  # 108: kernel_y_end = MIN(...)
                        str_sp(m)                  # 10e
                        mov(m, kys)                # 110: mov r3, r1
                        t = add(m, kys, base_idx_y)  # 112
                        row_off = mul(m, input_x, t)  # 114
                        str_sp(m)                  # 118
                        ldr_sp(m)                  # 11a: pad_x
                        str_sp(m)                  # 11c
                        add(m, input_x, pad_x)     # 11e: input_x - base_idx_x
                        mov(m, 0)                  # 122: i_x = 0
                        mov(m, 0)                  # 126: mov lr, ip
                        add(m, dst, 4 * cnt)       # 128: adds r0, r6, r7
                        mov(m, 0)                  # 12a: mov ip, r2
                        mov(m, 0)                  # 12c: mov r5, r4
                        mov(m, 0)                  # 12e: mov r2, r3
                    else:
                        ldr_sp(m)                  # base_idx_y
                        ldr_sp(m)                  # -base_idx_y
                        cmp(m, base_idx_y, 0)      # ker_y_start = MAX(0, -base_idx_y)
                        it(m, 1)                   # ite le (one arm fails)
                        mov(m, kys)
                        str_sp(m)
                        ldr_sp(m)                  # input_y
                        ldr_sp(m)                  # kernel_y
                        add(m, input_y, -base_idx_y)  # input_y - base_idx_y
                        ldr_sp(m)                  # pad_x
                        cmp(m, kye, kernel_y)      # kernel_y_end = MIN(kernel_y, ...)
                        mov(m, kye)                # mov r1, r3
                        mov(m, pad_x)              # mov r9, ip
                        it(m, 0 if kye >= kernel_y else 1)
                        if kye >= kernel_y:
                            kye = mov(m, kernel_y)
                        mov(m, 0)                  # i_x = 0
                        ldr_sp(m)                  # -pad_x
                        str_sp(m)
                        str_sp(m)
                        mov(m, 0)                  # mov lr, r0
                        mov(m, 0)                  # mov r5, r4
                        mov(m, 0)                  # mov r4, r9
                        add(m, dst, 4 * cnt)       # adds r3, r6, r7
                        str_sp(m)
                        ldr_sp(m)                  # ker_y_start
                        str_sp(m)
                        ldr_sp(m)                  # input_x
                        t = add(m, kys, base_idx_y)
                        row_off = mul(m, input_x, t)
                        add(m, pad_x, input_x)     # input_x - base_idx_x
                        str_sp(m)
                        str_sp(m)
                        str_sp(m)
                    base_idx_x = -pad_x
                    for i_x in range(output_x):
                        kxs = -base_idx_x if base_idx_x <= 0 else 0
                        kxe = input_x - base_idx_x
                        if m.dsp:
                            ldr_sp(m)              # 130: kernel_x
                            ldr_sp(m)              # 132: ker_y_start
                            ldr_sp(m)              # 134: kernel_y_end
                            cmp(m, base_idx_x, 0)  # 136: ker_x_start = MAX(0, -base_idx_x)
                            it(m, 1)               # 138: ite le (one arm fails)
                            mov(m, kxs)
                            cmp(m, kernel_x, kxe)  # 13e: kernel_x_end = MIN(kernel_x, ...)
                            it(m, 0 if kernel_x >= kxe else 1)
                            if kernel_x >= kxe:
                                mov(m, kxe)        # 142: movge r6, ip
                            else:
                                kxe = kernel_x
                            cmp(m, kys, kye)       # 144: for (k_y = ker_y_start; ...)
                            sub(m, dst, 0)         # 146: sub.w r8, r0, r7 (dst)
                            str_sp(m)              # 14a
                        else:
                            ldr_sp(m)              # the output's end
                            ldr_sp(m)              # kernel_x
                            cmp(m, base_idx_x, 0)  # ker_x_start = MAX(0, -base_idx_x)
                            ldr_sp(m)              # ker_y_start
                            sub(m, dst, 0)         # sub.w r8, r3, r7 (dst)
                            ldr_sp(m)              # kernel_y_end
                            it(m, 1)               # ite le (one arm fails)
                            mov(m, kxs)
                            cmp(m, kernel_x, kxe)  # kernel_x_end = MIN(kernel_x, ...)
                            it(m, 0 if kernel_x >= kxe else 1)
                            if kernel_x >= kxe:
                                mov(m, kxe)        # movge r6, ip
                            else:
                                kxe = kernel_x
                            cmp(m, kys, kye)       # for (k_y = ker_y_start; ...)
                        bcc(m, kys >= kye)         # 14c: bge.n 222
                        if kys < kye:
                            if m.dsp:              # 14e-17a
                                ldr_sp(m)
                                ldr_sp(m)
                                ldr_sp(m)
                                str_sp(m)
                                t = add(m, base_idx_x, row_off)  # 158
                                t = add(m, t, kxs)               # 15a
                                t = mla(m, ch, t, 2 * cnt)       # 15c: + the pairs' halfwords
                                ldr_sp(m)
                                ldr_sp(m)          # 162: src
                                str_sp(m)
                                strd_sp(m)
                                strd_sp(m)
                                add(m, src, t << 1)              # 16e: the pairs' end
                                and_(m, ch, 1)                   # 172: length & 0x1
                                ldr_sp(m)
                                str_sp(m)
                                count = mov(m, 0)                # 17a: int count = 0
                            else:
                                ldr_sp(m)
                                ldr_sp(m)
                                ldr_sp(m)
                                t = add(m, base_idx_x, row_off)
                                t = add(m, t, kxs)
                                t = mla(m, ch, t, 2 * cnt)       # + the pairs' halfwords
                                ldr_sp(m)                        # src
                                str_sp(m)
                                and_(m, ch, 1)                   # length & 0x1
                                strd_sp(m)
                                add(m, src, t << 1)              # the pairs' end
                                mov(m, 0)                        # mov r4, r1
                                count = mov(m, 0)                # int count = 0
                                strd_sp(m)
                                str_sp(m)
                            row = src + 2 * ch * (kxs + base_idx_x + (kys + base_idx_y) * input_x)
                            for k_y in range(kys, kye):
                                count = _window_row(m, dst, row, ch, kxs, kxe, count, cnt, odd)
                                if kxs < kxe:
                                    mov(m, 1)      # 206: movs r3, #1
                                ldr_sp(m)          # 208: a window row's bytes
                                ldr_sp(m)          # 20a: k_y
                                row = add(m, row, 2 * ch * input_x)  # 20c
                                ldr_sp(m)          # 20e: kernel_y_end
                                add(m, k_y, 1)     # 210: k_y++
                                cmp(m, k_y + 1, kye)  # 212
                                str_sp(m)          # 214
                                bcc(m, k_y + 1 != kye)  # 216: bne.n 17c
                            ldrd_sp(m)             # 218
                            ldrd_sp(m)             # 21c
                            if m.dsp:
                                ldr_sp(m)          # 220
                        ldr_sp(m)                  # 222: stride_x
                        if m.dsp:
                            base_idx_x = add(m, base_idx_x, stride_x)  # 224
                            sub(m, -base_idx_x, 0)     # 226
                            sub(m, kxe, 0)             # 228: input_x - base_idx_x
                            ldr_sp(m)                  # 22c: output_x
                            add(m, i_x, 1)             # 22e: i_x++
                            cmp(m, output_x, i_x + 1)  # 232
                            add(m, dst, 2 * ch)        # 234: dst += channel_in (r0)
                        else:
                            add(m, i_x, 1)             # i_x++
                            base_idx_x = add(m, base_idx_x, stride_x)
                            sub(m, -base_idx_x, 0)
                            sub(m, kxe, 0)             # input_x - base_idx_x
                            ldr_sp(m)
                            add(m, dst, 2 * ch)        # dst += channel_in
                            str_sp(m)
                            ldr_sp(m)                  # output_x
                            cmp(m, output_x, i_x + 1)
                        dst += 2 * ch
                        bcc(m, i_x + 1 != output_x)    # 236: bne.w 130
                    ldrd_sp(m)                     # 23a
                    ldr_sp(m)                      # 23e
                    ldr_sp(m)                      # 240
                    ldr_sp(m)                      # 244
                    add(m, dst, 0)                 # 248: add r6, r3 (the next row's dst)
                if m.dsp:                          # 24a
                    ldr_sp(m)                      # stride_y
                    ldr_sp(m)
                    ldr_sp(m)                      # i_y
                    sub(m, -base_idx_y, stride_y)
                    str_sp(m)
                    ldr_sp(m)                      # output_y
                    add(m, i_y, 1)                 # i_y++
                    cmp(m, output_y, i_y + 1)
                    str_sp(m)
                    base_idx_y = add(m, base_idx_y, stride_y)
                else:
                    ldr_sp(m)
                    ldr_sp(m)                      # stride_y
                    add(m, i_y, 1)                 # i_y++
                    base_idx_y = add(m, base_idx_y, stride_y)
                    str_sp(m)
                    ldr_sp(m)
                    sub(m, -base_idx_y, 0)
                    str_sp(m)
                    ldr_sp(m)                      # output_y
                    cmp(m, output_y, i_y + 1)
                bcc(m, i_y + 1 != output_y)        # 25e: bne.w e0
            if m.dsp:                              # 262-274
                ldr_sp(m)                          # length >> 1
                ldr_sp(m)                          # dst_base
                cmp(m, length >> 1, 0)
                mov(m, 0)
                ldrd_sp(m)
                ldrd_sp(m)
            else:
                ldrd_sp(m)
                ldr_sp(m)                          # length >> 1
                ldr_sp(m)                          # dst_base
                cmp(m, length >> 1, 0)
            bcc(m, length >> 1 > 0)                # 274: bgt.n 2ac
        else:
            if m.dsp:
                ldr_sp(m)                          # 2a4: length >> 1
                cmp(m, length >> 1, 0)
                mov(m, dst)                        # 2a8: mov r6, r9
            else:
                cmp(m, length >> 1, 0)
                mov(m, dst)
            bcc(m, length >> 1 <= 0)               # 2aa: ble.n 276
        _clamp_output(m, dst_base, length, act_min, act_max)
        if m.dsp:
            ldr_sp(m)                              # 28e: src
            ldr_sp(m)                              # 290: batch_size (bytes)
            batch_cnt = sub(m, batch_cnt, 1)       # 292: batch_cnt--
            add(m, src, 0)                         # 294: src += batch_size
            str_sp(m)                              # 296
        else:
            ldr_sp(m)                              # src
            ldr_sp(m)                              # batch_size (bytes)
            add(m, src, 0)                         # src += batch_size
            str_sp(m)
            ldr_sp(m)                              # batch_cnt
            batch_cnt = sub(m, batch_cnt, 1)       # batch_cnt--
            str_sp(m)
        src += 2 * input_x * input_y * ch
        bcc(m, batch_cnt == 0)                     # 298: beq.n 2f0
        if batch_cnt == 0:
            break
        if m.dsp:
            ldr_sp(m)                              # 29a: output_y
            cmp(m, output_y, 0)
            mov(m, dst)                            # 29e: mov r9, r6
        else:
            ldr_sp(m)                              # output_y
            mov(m, dst)                            # mov r9, r6
            cmp(m, output_y, 0)
        bcc(m, output_y > 0)                       # 2a0: bgt.w ba
    return _return(m, 0, False)                    # 2f0: mov r0, r7
