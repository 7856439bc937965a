"""arm_pad_s8 (Source/PadFunctions/arm_pad_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_pad_s8(const int8_t *input, int8_t *output,
        const int8_t pad_value, const cmsis_nn_dims *input_size,
        const cmsis_nn_dims *pre_pad, const cmsis_nn_dims *post_pad)

Pure data movement: arm_memset_s8 / arm_memcpy_s8 are newlib memset / memcpy without MVE
(kernels/libc.py), called even for zero bytes.  When the channel count is unpadded one
memcpy copies a whole input row; otherwise each pixel is memset / memcpy / memset.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 and -mcpu=cortex-m3: no
ARM_MATH_DSP code, the same blocks in a slightly different order; the hexadecimal numbers
in the comments are the M4 object's offsets).  gcc re-reads the dims structs' fields after
every call (issued as stack-slot loads: the structs are the caller's, not in simulated
memory) and keeps the output pointer as memset's / memcpy's return value.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, it, ldr_sp, ldrd_sp, mla, mov, mul, pop_pc,
                            push, str_sp, sub)

from ..libc import memcpy, memset

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _memset_block(m, dst, value, block, count):
    """arm_memset_s8(output, pad_value, block * count): LDR count, the argument moves,
    MUL, BL (M4: ldr, mov r1, mul, mov r0; M3: ldr, mov r1, mov r0, mul)."""
    ldr_sp(m)                                      # pre_pad->... / post_pad->...
    mov(m, value)                                  # mov r1, r7
    if m.dsp:
        size = mul(m, count, block)
        mov(m, dst)                                # mov r0, r3
    else:
        mov(m, dst)
        size = mul(m, count, block)
    bl(m)
    memset(m, dst, value, size)
    return size


@kernel
def arm_pad_s8(m, input, output, pad_value, input_size, pre_pad, post_pad):
    """The dims are Dims (arm_nn_types); returns ARM_CMSIS_NN_SUCCESS (0)."""
    out_h = pre_pad.h + input_size.h + post_pad.h
    out_w = pre_pad.w + input_size.w + post_pad.w
    push(m, 9)                                     # 0: stmdb sp!, {r4-r11, lr}
    if m.dsp:
        sub(m, 0, 0)                               # 4: sub sp, #20
        mov(m, 0)                                  # 6: mov r4, r3
        ldr_sp(m)                                  # 8: pre_pad (stacked)
        ldr_sp(m)                                  # a: post_pad (stacked)
        mov(m, output)                             # e: mov r3, r1
        mov(m, pad_value)                          # 10: mov r7, r2
        ldr_sp(m)                                  # 12: input_size->w
        ldr_sp(m)                                  # 14: pre_pad->w
        w = add(m, pre_pad.w, input_size.w)        # 16
        ldr_sp(m)                                  # 1a: input_size->h
        ldr_sp(m)                                  # 1c: pre_pad->h
        h = add(m, pre_pad.h, input_size.h)        # 1e
        ldr_sp(m)                                  # 20: post_pad->w
        mov(m, input)                              # 24: mov r5, r0
        w = add(m, w, post_pad.w)                  # 26: output_size.w
        ldr_sp(m)                                  # 28: input_size->c
        ldr_sp(m)                                  # 2a: pre_pad->c
        c = add(m, pre_pad.c, input_size.c)        # 2c
        ldr_sp(m)                                  # 2e: post_pad->h
        h = add(m, h, post_pad.h)                  # 32: output_size.h
        ldr_sp(m)                                  # 34: post_pad->c
        hw = mul(m, w, h)                          # 38
        c = add(m, c, post_pad.c)                  # 3c: output_size.c
        batch_block_size = mul(m, c, hw)           # 40: h * w * c
        ldr_sp(m)                                  # 44: pre_pad->n
        mov(m, output)                             # 46: mov r0, r3
        size = mul(m, pre_pad.n, batch_block_size)  # 48
        mov(m, pad_value)                          # 4c: mov r1, r7
        row_block_size = mul(m, c, w)              # 4e: w * c
    else:
        mov(m, 0)                                  # mov r4, r3
        mov(m, pad_value)                          # mov r7, r2
        mov(m, output)                             # mov r3, r1
        sub(m, 0, 0)                               # sub sp, #20
        ldrd_sp(m)                                 # pre_pad, post_pad (stacked)
        ldr_sp(m)                                  # input_size->w
        ldr_sp(m)                                  # pre_pad->w
        mov(m, input)                              # mov r5, r0
        w = add(m, pre_pad.w, input_size.w)
        ldr_sp(m)                                  # post_pad->w
        ldr_sp(m)                                  # pre_pad->h
        w = add(m, w, post_pad.w)                  # output_size.w
        ldr_sp(m)                                  # input_size->h
        ldr_sp(m)                                  # pre_pad->c
        h = add(m, pre_pad.h, input_size.h)
        ldr_sp(m)                                  # post_pad->h
        h = add(m, h, post_pad.h)                  # output_size.h
        ldr_sp(m)                                  # input_size->c
        hw = mul(m, w, h)
        c = add(m, pre_pad.c, input_size.c)
        ldr_sp(m)                                  # post_pad->c
        c = add(m, c, post_pad.c)                  # output_size.c
        batch_block_size = mul(m, c, hw)           # h * w * c
        ldr_sp(m)                                  # pre_pad->n
        mov(m, output)                             # mov r0, r3
        size = mul(m, pre_pad.n, batch_block_size)
        row_block_size = mul(m, c, w)              # w * c
        mov(m, pad_value)                          # mov r1, r7
    bl(m)                                          # 52: arm_memset_s8(output, pad_value, batch_block_size * pre_pad->n)
    memset(m, output, pad_value, size)
    ldr_sp(m)                                      # 56: pre_pad->n
    output = mla(m, pre_pad.n, batch_block_size, output)  # 58: output += batch_block_size * pre_pad->n
    ldr_sp(m)                                      # 5c: input_size->n
    cmp(m, input_size.n, 0)                        # 5e: for (b = 0; b < input_size->n; b++)
    bcc(m, input_size.n <= 0)                      # 60: ble.n 142
    if input_size.n > 0:
        mov(m, 0)                                  # 62: b = 0
        str_sp(m)                                  # 64
        str_sp(m)                                  # 66
        for batch in range(input_size.n):
            size = _memset_block(m, output, pad_value, row_block_size, pre_pad.h)  # 6a-74
            ldr_sp(m)                              # 78: input_size->h
            ldr_sp(m)                              # 7a: pre_pad->h
            cmp(m, input_size.h, 0)                # 7c: for (y = 0; y < input_size->h; y++)
            output = mla(m, pre_pad.h, row_block_size, output)  # 7e: output += row_block_size * pre_pad->h
            bcc(m, input_size.h <= 0)              # 82: ble.n 118
            if input_size.h > 0:
                mov(m, 0)                          # 84: y = 0
                str_sp(m)                          # 88
                for y in range(input_size.h):
                    _memset_block(m, output, pad_value, c, pre_pad.w)  # 8c-96
                    ldr_sp(m)                      # 9a: input_size->c
                    ldr_sp(m)                      # 9c: pre_pad->w
                    cmp(m, c, input_size.c)        # 9e: if (input_size->c == output_size.c)
                    output = mla(m, pre_pad.w, c, output)  # a0: output += col_block_size * pre_pad->w
                    ldr_sp(m)                      # a4: input_size->w
                    bcc(m, c == input_size.c)      # a6: beq.n 15a
                    if c == input_size.c:
                        mov(m, input)              # 15a: mov r1, r5
                        if m.dsp:
                            size = mul(m, input_size.w, c)   # 15c
                            mov(m, output)         # 160: mov r0, r3
                        else:
                            mov(m, output)
                            size = mul(m, input_size.w, c)
                        bl(m)                      # 162: arm_memcpy_s8(output, input, w * c)
                        memcpy(m, output, input, size)
                        ldrd_sp(m)                 # 166: input_size->w, c
                        mov(m, output)             # 16a: mov r3, r0
                        size = mul(m, input_size.c, input_size.w)  # 16c
                        output = add(m, output, size)  # 170: output += w * c
                        input = add(m, input, size)    # 172: input += w * c
                        b(m)                       # 174: b.n f2
                    else:
                        cmp(m, input_size.w, 0)    # a8: for (x = 0; x < input_size->w; x++)
                        it(m, 0 if input_size.w > 0 else 1)  # aa: it gt; movgt.w fp, #0
                        if input_size.w > 0:
                            mov(m, 0)
                        bcc(m, input_size.w <= 0)  # b0: ble.n f2
                        for x in range(input_size.w):
                            if m.dsp:
                                ldr_sp(m)          # b2: pre_pad->c
                                mov(m, pad_value)  # b4
                                mov(m, output)     # b6
                            else:
                                mov(m, pad_value)
                                mov(m, output)
                                ldr_sp(m)
                            bl(m)                  # b8: arm_memset_s8(output, pad_value, pre_pad->c)
                            memset(m, output, pad_value, pre_pad.c)
                            if m.dsp:
                                ldr_sp(m)          # bc: pre_pad->c
                                mov(m, output)     # be: mov r3, r0
                                output = add(m, output, pre_pad.c)  # c0: output += pre_pad->c
                                mov(m, input)      # c2: mov r1, r5
                                ldr_sp(m)          # c4: input_size->c
                                mov(m, output)     # c6: mov r0, r3
                            else:
                                mov(m, output)     # mov r3, r0
                                ldr_sp(m)          # pre_pad->c
                                mov(m, input)      # mov r1, r5
                                output = add(m, output, pre_pad.c)
                                mov(m, output)     # mov r0, r3
                                ldr_sp(m)          # input_size->c
                            bl(m)                  # c8: arm_memcpy_s8(output, input, input_size->c)
                            memcpy(m, output, input, input_size.c)
                            if m.dsp:
                                ldr_sp(m)          # cc: input_size->c
                                mov(m, output)     # ce: mov r3, r0
                                output = add(m, output, input_size.c)  # d0: output += input_size->c
                                mov(m, output)     # d2: mov r0, r3
                                input = add(m, input, input_size.c)    # d4: input += input_size->c
                                mov(m, pad_value)  # d6: mov r1, r7
                                ldr_sp(m)          # d8: post_pad->c
                            else:
                                mov(m, output)     # mov r3, r0
                                ldr_sp(m)          # input_size->c
                                mov(m, pad_value)  # mov r1, r7
                                output = add(m, output, input_size.c)
                                mov(m, output)     # mov r0, r3
                                input = add(m, input, input_size.c)
                                ldr_sp(m)          # post_pad->c
                            bl(m)                  # dc: arm_memset_s8(output, pad_value, post_pad->c)
                            memset(m, output, pad_value, post_pad.c)
                            if m.dsp:
                                ldr_sp(m)          # e0: post_pad->c
                                mov(m, output)     # e4: mov r3, r0
                                output = add(m, output, post_pad.c)  # e6: output += post_pad->c
                                ldr_sp(m)          # e8: input_size->w
                                add(m, x, 1)       # ea: x++
                            else:
                                mov(m, output)     # mov r3, r0
                                ldr_sp(m)          # post_pad->c
                                add(m, x, 1)       # x++
                                output = add(m, output, post_pad.c)
                                ldr_sp(m)          # input_size->w
                            cmp(m, input_size.w, x + 1)  # ee
                            bcc(m, x + 1 < input_size.w)  # f0: bgt.n b2
                    _memset_block(m, output, pad_value, c, post_pad.w)  # f2-fe
                    ldr_sp(m)                      # 102: input_size->h
                    ldr_sp(m)                      # 104: post_pad->w
                    add(m, y, 1)                   # 108: y++
                    cmp(m, input_size.h, y + 1)    # 10c
                    output = mla(m, post_pad.w, c, output)  # 10e: output += col_block_size * post_pad->w
                    bcc(m, y + 1 < input_size.h)   # 112: bgt.n 8c
                ldr_sp(m)                          # 114: row_block_size
            _memset_block(m, output, pad_value, row_block_size, post_pad.h)  # 118-124
            mov(m, output)                         # 128: mov r3, r0
            ldr_sp(m)                              # 12a: b
            ldr_sp(m)                              # 12c: input_size->n
            if m.dsp:
                ldr_sp(m)                          # 12e: post_pad->h
                add(m, batch, 1)                   # 132: b++
            else:
                add(m, batch, 1)
                ldr_sp(m)
            cmp(m, input_size.n, batch + 1)        # 134
            if m.dsp:
                str_sp(m)                          # 136
                output = mla(m, post_pad.h, row_block_size, output)  # 138: output += row_block_size * post_pad->h
            else:
                output = mla(m, post_pad.h, row_block_size, output)
                str_sp(m)
            bcc(m, batch + 1 < input_size.n)       # 13c: bgt.n 6a
        ldr_sp(m)                                  # 13e: batch_block_size
    _memset_block(m, output, pad_value, batch_block_size, post_pad.n)  # 142-14e
    mov(m, 0)                                      # 152: return ARM_CMSIS_NN_SUCCESS
    add(m, 0, 0)                                   # 154: add sp, #20
    pop_pc(m, 9)
    return 0
