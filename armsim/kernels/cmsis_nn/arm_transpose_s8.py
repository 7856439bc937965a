"""arm_transpose_s8 (Source/TransposeFunctions/arm_transpose_s8.c), non-MVE code.

    arm_cmsis_nn_status arm_transpose_s8(const int8_t *input, int8_t *const output,
        const cmsis_nn_dims *const input_dims, const cmsis_nn_dims *const output_dims,
        const cmsis_nn_transpose_params *const transpose_params)

num_dims 1: arm_memcpy_s8 (newlib memcpy); 2: the static arm_transpose_s8_nhcw on dims
{1, 1, n, h} (a plain row/column swap: it never reads the permutation); 3: the static
arm_transpose_s8_default on {1, n, h, w} with strides from perm + 1; 4: the default on
{n, h, w, c}.  Without MVE the nhcw fast path of a (0, 1, x, x) permutation is not taken.
There is no ARM_MATH_DSP code: both builds run the same C (measured dsp_O2 and scalar_O2
differ by one or two instructions).  gcc -O2 inlines both static helpers and
strength-reduces the index arithmetic: in_strides[3] = 1 is a constant, so the innermost
loop is LDRSB with post-increment, STRB, ADD of the output stride, CMP, BNE.

Calibration (../shared/reference, gcc -O2): transpose_s8_2x6x8x16_p0312 and
transpose_s8_1x12x10x24_p0213 (4-D).  The per-loop-level overheads (stack reloads of the
spilled strides and pointers, pointer set-up, loop guards) are FITTED to those two cases'
mnemonic histograms (per x, y and n iteration, plus the constant part), not read off a
disassembly; with two cases the split of the y-level and constant LDR/STR counts is one of
several that fit equally.  The 1-, 2- and 3-D paths have no measured case: their set-up is
written by analogy with the 4-D path.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, bcc, bl, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, ldrb, ldrsb, mov, mul,
                            pop_pc, push, strb, sub)

from ..libc import memcpy

ARG_ERROR = -1


@kernel(inline=True)
def _out_stride(k, p0, p1, p2, p3, s0, s1, s2, s3):
    """out_strides[k] after out_strides[p_j] = s_j (j = 0..3, later ones win), from {0}; a
    p_j of -1 takes no slot.  Host-side: the compiled code stores into a stack array."""
    v = 0
    if p0 == k:
        v = s0
    if p1 == k:
        v = s1
    if p2 == k:
        v = s2
    if p3 == k:
        v = s3
    return v


@kernel(inline=True)
def arm_transpose_s8_default(m, input, output, n, h, w, c, in_s0, in_s1, in_s2, out_s0,
                             out_s1, out_s2, out_s3):
    """output[i*os0 + y*os1 + x*os2 + z*os3] = input[i*is0 + y*is1 + x*is2 + z]."""
    cmp(m, n, 0)                                           # for (i = 0; i < n; i++)
    bcc(m, n <= 0)
    for i in range(n):
        for _ in range(5):                                 # reload strides / bases (fitted)
            fitted_ldr_sp(m)
            fitted_mov(m)
        for _ in range(2):
            fitted_ldrd_sp(m)
        for _ in range(3):
            fitted_strd_sp(m)
        cmp(m, h, 0)                                       # for (y = 0; y < h; y++)
        bcc(m, h <= 0)
        for y in range(h):
            fitted_ldr_sp(m)                               # (fitted)
            fitted_ldr_sp(m)
            fitted_str_sp(m)
            fitted_mov(m)
            fitted_mov(m)
            fitted_add(m)
            fitted_add(m)
            fitted_add(m)
            cmp(m, w, 0)                                   # for (x = 0; x < w; x++)
            bcc(m, w <= 0)
            for x in range(w):
                fitted_ldr_sp(m)                           # (fitted)
                fitted_ldr_sp(m)
                fitted_mov(m)
                fitted_mov(m)
                fitted_str_sp(m)
                src = add(m, input + i * in_s0 + y * in_s1, x * in_s2)      # from_index at z = 0
                dst = add(m, output + i * out_s0 + y * out_s1, x * out_s2)  # to_index at z = 0
                fitted_add(m)                        # loop end pointer
                cmp(m, c, 0)                               # for (z = 0; z < c; z++)
                bcc(m, c <= 0)
                for z in range(c):
                    v = ldrsb(m, src)                      # input[from_index]  (LDRSB r, [src], #1)
                    src += 1
                    strb(m, dst, v)                        # output[to_index] = ...
                    dst = add(m, dst, out_s3)              # to_index += out_strides[3]
                    cmp(m, z + 1, c)
                    bcc(m, z + 1 < c)
                add(m, x, 1)                               # x++
                cmp(m, x + 1, w)
                bcc(m, x + 1 < w)
            add(m, y, 1)                                   # y++
            fitted_add(m)
            cmp(m, y + 1, h)
            bcc(m, y + 1 < h)
        add(m, i, 1)                                       # i++
        fitted_add(m)
        fitted_add(m)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)


@kernel(inline=True)
def arm_transpose_s8_nhcw(m, input, output, w, c):
    """The 2-D path: dims {1, 1, w, c}; src_rows = w, src_cols = c (uint16_t), one pass."""
    src_rows = w & 0xFFFF                                  # const uint16_t src_rows = w;
    src_cols = c & 0xFFFF                                  # const uint16_t src_cols = c;
    input_w = input
    cmp(m, src_rows, 0)                                    # for (src_row_i ...)
    bcc(m, src_rows <= 0)
    for src_row_i in range(src_rows):
        output_w = add(m, output, src_row_i)               # output_w = output + src_row_i;
        fitted_add(m)                                # loop end pointer
        cmp(m, src_cols, 0)                                # for (x = 0; x < src_cols; x++)
        bcc(m, src_cols <= 0)
        for x in range(src_cols):
            v = ldrb(m, input_w)                           # *output_w = *input_w++;  (uint8_t)
            input_w += 1
            strb(m, output_w, v)
            output_w = add(m, output_w, src_rows)          # output_w += src_rows;
            cmp(m, x + 1, src_cols)
            bcc(m, x + 1 < src_cols)
        add(m, src_row_i, 1)
        cmp(m, src_row_i + 1, src_rows)
        bcc(m, src_row_i + 1 < src_rows)


@kernel
def arm_transpose_s8(m, input, output, n, h, w, c, out_n, out_h, out_w, out_c, num_dims,
                     perm0, perm1, perm2, perm3):
    """Returns 0 (ARM_CMSIS_NN_SUCCESS) or -1 (ARM_CMSIS_NN_ARG_ERROR)."""
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(3):                                     # struct fields, stacked arguments
        fitted_ldrd_sp(m)
    fitted_ldr_sp(m)
    for _ in range(2):
        fitted_strd_sp(m)
    hw = mul(m, h, w)
    in_s0 = mul(m, hw, c)                                  # in_strides[0] = h * w * c;
    in_s1 = mul(m, w, c)                                   # in_strides[1] = w * c;
    in_s2 = c                                              # in_strides[2] = c;
    for _ in range(4):                                     # in_strides[], out_strides[] = {0}
        fitted_str_sp(m)
        fitted_mov(m)
    cmp(m, num_dims, 1)                                    # if (num_dims == 1)
    bcc(m, num_dims == 1)
    if num_dims == 1:
        mov(m, output)
        mov(m, input)
        mov(m, n)
        bl(m)                                              # arm_memcpy_s8(output, input, n);
        memcpy(m, output, input, n)
        fitted_mov(m)
        fitted_add(m)
        pop_pc(m, 9)
        return 0
    cmp(m, num_dims, 2)                                    # else if (num_dims == 2)
    bcc(m, num_dims == 2)
    if num_dims == 2:                                      # smaller_input_dims = {1, 1, n, h}
        mov(m, 1)
        fitted_str_sp(m)
        arm_transpose_s8_nhcw(m, input, output, n, h)
        fitted_mov(m)
        fitted_add(m)
        pop_pc(m, 9)
        return 0
    cmp(m, num_dims, 3)                                    # else if (num_dims == 3)
    bcc(m, num_dims == 3)
    if num_dims == 3:                                      # smaller_input_dims = {1, n, h, w}
        for p in (perm0, perm1, perm2):                    # if (perm[k] > 2) return ARG_ERROR;
            fitted_ldr_sp(m)
            cmp(m, p, 2)
            bcc(m, p > 2)
            if p > 2:
                mov(m, ARG_ERROR)
                fitted_add(m)
                pop_pc(m, 9)
                return ARG_ERROR
        s = mul(m, out_h, out_w)                           # out_strides[perm[0] + 1] = oh * ow;
        fitted_str_sp(m)
        fitted_str_sp(m)                                   # out_strides[perm[1] + 1] = ow;
        fitted_str_sp(m)                                   # out_strides[perm[2] + 1] = 1;
        for _ in range(3):
            fitted_ldr_sp(m)
        arm_transpose_s8_default(m, input, output, 1, n, h, w, 0, mul(m, h, w), w,
                                 _out_stride(0, -1, perm0 + 1, perm1 + 1, perm2 + 1, 0, s, out_w, 1),
                                 _out_stride(1, -1, perm0 + 1, perm1 + 1, perm2 + 1, 0, s, out_w, 1),
                                 _out_stride(2, -1, perm0 + 1, perm1 + 1, perm2 + 1, 0, s, out_w, 1),
                                 _out_stride(3, -1, perm0 + 1, perm1 + 1, perm2 + 1, 0, s, out_w, 1))
        fitted_mov(m)
        fitted_add(m)
        pop_pc(m, 9)
        return 0
    for p in (perm0, perm1, perm2, perm3):                 # if (perm[k] > 3) return ARG_ERROR;
        fitted_ldr_sp(m)
        cmp(m, p, 3)
        bcc(m, p > 3)
        if p > 3:
            mov(m, ARG_ERROR)
            fitted_add(m)
            pop_pc(m, 9)
            return ARG_ERROR
    ohw = mul(m, out_h, out_w)
    s0 = mul(m, ohw, out_c)                                # out_strides[perm[0]] = oh * ow * oc;
    s1 = mul(m, out_w, out_c)                              # out_strides[perm[1]] = ow * oc;
    mul(m, 0, 0)                                           # (fitted)
    for _ in range(4):                                     # out_strides[perm[k]] = ...;
        fitted_add(m)                                #   ADD rX, sp, perm[k], LSL #2
        fitted_str_sp(m)                                   #   STR
    fitted_add(m)                                    # (fitted from here)
    fitted_str_sp(m)
    for _ in range(8):                                     # reloads into registers
        fitted_ldr_sp(m)
    for _ in range(4):
        fitted_mov(m)
    arm_transpose_s8_default(m, input, output, n, h, w, c, in_s0, in_s1, in_s2,
                             _out_stride(0, perm0, perm1, perm2, perm3, s0, s1, out_c, 1),
                             _out_stride(1, perm0, perm1, perm2, perm3, s0, s1, out_c, 1),
                             _out_stride(2, perm0, perm1, perm2, perm3, s0, s1, out_c, 1),
                             _out_stride(3, perm0, perm1, perm2, perm3, s0, s1, out_c, 1))
    if not m.dsp:
        fitted_add(m)                                # (the M3 build: one ADD more)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
