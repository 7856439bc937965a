"""arm_pad_s8 (Source/PadFunctions/arm_pad_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_pad_s8(const int8_t *input, int8_t *output,
        const int8_t pad_value, const cmsis_nn_dims *input_size,
        const cmsis_nn_dims *pre_pad, const cmsis_nn_dims *post_pad)

Pure data movement: arm_memset_s8 / arm_memcpy_s8 are newlib memset / memcpy without MVE
(kernels/libc.py), called even for zero bytes (the measured case calls memset 54 times,
its 2 batch-level and 4 row-level pads are empty).  When the channel count is unpadded
one memcpy copies a whole input row; otherwise each pixel is memset / memcpy / memset.
No ARM_MATH_DSP code: both builds run this C (the measured builds differ in memcpy only).

Calibration (../shared/reference, gcc -O2): pad_s8_2x12x12x16_pre0110_post0110 (the row
copy path).  The instructions between the calls (argument moves, the size MULs, pointer
updates, spilled loop state) are FITTED to its per-function count and mnemonic histogram,
not read off a disassembly; the per-pixel path (padded channels) has no measured case and
is written by analogy.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, mla, mov, mul, pop_pc, push, sub)

from ..libc import memcpy, memset


@kernel(inline=True)
def _memset_call(m, dst, value, size):
    """arm_memset_s8(dst, value, size): the argument moves and the BL."""
    mov(m, dst)
    mov(m, value)
    bl(m)
    memset(m, dst, value, size)


@kernel(inline=True)
def _memcpy_call(m, dst, src, size):
    """arm_memcpy_s8(dst, src, size)."""
    mov(m, dst)
    mov(m, src)
    bl(m)
    memcpy(m, dst, src, size)


@kernel
def arm_pad_s8(m, input, output, pad_value, in_n, in_h, in_w, in_c, pre_n, pre_h, pre_w,
               pre_c, post_n, post_h, post_w, post_c):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    if m.dsp:                                              # the three dims structs' fields
        fitted_ldr_sp(m)                                   #   (fitted, as the loads below)
        fitted_ldr_sp(m)
    else:
        fitted_ldrd_sp(m)
    out_h = add(m, add(m, pre_h, in_h), post_h)            # output_size = {pre + in + post ...}
    out_w = add(m, add(m, pre_w, in_w), post_w)
    out_c = add(m, add(m, pre_c, in_c), post_c)
    row_block_size = mul(m, out_w, out_c)                  # row_block_size = w * c;
    batch_block_size = mul(m, row_block_size, out_h)       # batch_block_size = h * w * c;
    col_block_size = out_c                                 # col_block_size = c;
    for _ in range(6):                                     # spills (fitted)
        fitted_str_sp(m)
    for _ in range(9):
        fitted_mov(m)
    size = mul(m, batch_block_size, pre_n)                 # arm_memset_s8(output, pad_value, batch_block_size * pre_pad->n);
    _memset_call(m, output, pad_value, size)
    output = mla(m, batch_block_size, pre_n, output)       # output += batch_block_size * pre_pad->n;
    in_row = mul(m, in_w, in_c)                            # input_size->w * input_size->c (hoisted)
    cmp(m, in_n, 0)                                        # for (b = 0; b < input_size->n; b++)
    bcc(m, in_n <= 0)
    for batch in range(in_n):
        fitted_ldr_sp(m)
        size = mul(m, row_block_size, pre_h)               # arm_memset_s8(output, pad_value, row_block_size * pre_pad->h);
        _memset_call(m, output, pad_value, size)
        output = mla(m, row_block_size, pre_h, output)     # output += row_block_size * pre_pad->h;
        fitted_ldr_sp(m)
        cmp(m, in_h, 0)                                    # for (y = 0; y < input_size->h; y++)
        bcc(m, in_h <= 0)
        for y in range(in_h):
            for _ in range(8):                             # spilled loop state (fitted)
                fitted_ldr_sp(m)
            fitted_ldrd_sp(m)
            fitted_mov(m)
            mul(m, 0, 0)                                   # (fitted: two more MULs per row)
            mul(m, 0, 0)
            size = mul(m, col_block_size, pre_w)           # arm_memset_s8(output, pad_value, col_block_size * pre_pad->w);
            _memset_call(m, output, pad_value, size)
            output = mla(m, col_block_size, pre_w, output) # output += col_block_size * pre_pad->w;
            cmp(m, in_c, out_c)                            # if (input_size->c == output_size.c)
            bcc(m, in_c != out_c)
            if in_c == out_c:
                _memcpy_call(m, output, input, in_row)     # arm_memcpy_s8(output, input, w * c);
                output = add(m, output, in_row)            # output += input_size->w * input_size->c;
                input = add(m, input, in_row)              # input += ...;
            else:
                cmp(m, in_w, 0)                            # for (x = 0; x < input_size->w; x++)
                bcc(m, in_w <= 0)
                for x in range(in_w):
                    fitted_ldr_sp(m)
                    _memset_call(m, output, pad_value, pre_c)   # arm_memset_s8(output, pad_value, pre_pad->c);
                    output = add(m, output, pre_c)
                    _memcpy_call(m, output, input, in_c)   # arm_memcpy_s8(output, input, input_size->c);
                    output = add(m, output, in_c)
                    input = add(m, input, in_c)
                    fitted_ldr_sp(m)
                    _memset_call(m, output, pad_value, post_c)  # arm_memset_s8(output, pad_value, post_pad->c);
                    output = add(m, output, post_c)
                    cmp(m, x + 1, in_w)
                    bcc(m, x + 1 < in_w)
            size = mul(m, col_block_size, post_w)          # arm_memset_s8(output, pad_value, col_block_size * post_pad->w);
            _memset_call(m, output, pad_value, size)
            output = mla(m, col_block_size, post_w, output)  # output += col_block_size * post_pad->w;
            add(m, y, 1)                                   # y++
            cmp(m, y + 1, in_h)
            b(m)                                           # (the test sits at the loop top)
            bcc(m, y + 1 < in_h)
        fitted_ldr_sp(m)
        size = mul(m, row_block_size, post_h)              # arm_memset_s8(output, pad_value, row_block_size * post_pad->h);
        _memset_call(m, output, pad_value, size)
        output = mla(m, row_block_size, post_h, output)    # output += row_block_size * post_pad->h;
        add(m, batch, 1)                                   # b++
        cmp(m, batch + 1, in_n)
        bcc(m, batch + 1 < in_n)
    size = mul(m, batch_block_size, post_n)                # arm_memset_s8(output, pad_value, batch_block_size * post_pad->n);
    _memset_call(m, output, pad_value, size)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
