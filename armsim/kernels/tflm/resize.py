"""TFLite Micro's int8 RESIZE_NEAREST_NEIGHBOR (reference_ops::ResizeNearestNeighbor<int8_t>,
kernels/internal/reference/resize_nearest_neighbor.h), counted.

For every output row y (per batch) and column x, GetNearestNeighbor maps the output index
to an input index in float:

    scale  = align_corners && out > 1 ? (in - 1) / (float)(out - 1) : in / (float)out
    offset = half_pixel_centers ? 0.5f : 0.0f
    v = min(align_corners ? (int)roundf((i + offset) * scale)
                          : (int)floorf((i + offset) * scale), in - 1)
    if half_pixel_centers: v = max(0, v)

and memcpy copies the input pixel's `depth` bytes to the output.  The instruction sequence
is transcribed from arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4 -mthumb -DNDEBUG's code for
ResizeNearestNeighbor<int8_t> (TFLM's header compiled locally, not committed): both
GetNearestNeighbor calls inline, the scale recomputed at every call, the float arithmetic
soft-float (-mcpu=cortex-m4 without an FPU: __aeabi_i2f, __aeabi_fdiv, __aeabi_fadd,
__aeabi_fmul, newlib's roundf / floorf, __aeabi_f2iz), the two ExtendedShape copies
(bl memcpy of the 4 dims) and the pixel copy through libc memcpy (counted, armsim.kernels.libc).
Loads from TFLM's structs (params, shapes, spilled locals) are stack-slot loads.

Estimate, not transcribed: the soft-float helpers' bodies (`SOFT_FLOAT`, each a call of a
fixed instruction count read off the normal path of libgcc's ieee754-sf.S / newlib's
sf_floor.c, sf_round.c disassembly; their data-dependent branches are not followed) and
the ExtendedShape dims copy (a call of 4 loads and 4 stores).  The index values themselves
are exact: float32 arithmetic on the host (`nearest_index`), as the C computes them.  No
measurement exists: nothing is fitted.
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bic, bl, bx, cbz, cmp, it, ldr, ldr_sp, mla, mov, mul,
                            pop_pc, push, str_sp, sub)
from armsim.kernels.libc import memcpy

# instructions per call of a soft-float helper, bl and return included (estimate: normal
# path of the disassembled libgcc / newlib routine, see the module docstring)
I2F, FADD, FMUL, FDIV, F2IZ, ROUNDF, FLOORF = 22, 30, 30, 110, 12, 16, 18


@kernel(inline=True)
def soft_float_call(m, length):
    """One call of a soft-float helper of `length` instructions (an estimate)."""
    bl(m)
    for _ in range(length - 2):
        mov(m, 0)
    bx(m)


@kernel(inline=True)
def extended_shape(m):
    """RuntimeShape::ExtendedShape(4, shape) of a 4-D shape: the dims copy (estimate)."""
    mov(m, 4)
    str_sp(m)
    ldr_sp(m)
    cmp(m, 4, 4)
    bcc(m, False)
    bl(m)
    for _ in range(4):
        ldr_sp(m)
        str_sp(m)
    bx(m)


@kernel(inline=True)
def nearest_neighbor(m, index, out_size, align, half):
    """GetNearestNeighbor's inlined code (the scale and the rounding in soft float); `index`
    is the value it returns (`nearest_index`)."""
    if align:
        cmp(m, out_size, 1)
        bcc(m, out_size == 1)
    if align and out_size == 1:
        soft_float_call(m, I2F)                  # in / 1.0f: the division folds away
        mov(m, 0)
    else:
        soft_float_call(m, I2F)                  # (float)(in - 1) or (float)in
        mov(m, 0)
        ldr_sp(m)
        soft_float_call(m, I2F)                  # (float)(out - 1) or (float)out
        mov(m, 0)
        mov(m, 0)
        soft_float_call(m, FDIV)
        mov(m, 0)
    cmp(m, half, 0)
    bcc(m, half == 0)
    mov(m, 0)                                    # offset 0.5f or 0.0f
    mov(m, 0)
    str_sp(m)
    soft_float_call(m, I2F)
    ldr_sp(m)
    soft_float_call(m, FADD)
    mov(m, 0)
    soft_float_call(m, FMUL)
    soft_float_call(m, ROUNDF if align else FLOORF)
    soft_float_call(m, F2IZ)
    cmp(m, index, 0)                             # min(v, in - 1)
    it(m)
    mov(m, index)
    cbz(m, half == 0)
    if half:
        bic(m, index, 0)                         # max(0, v)
    return index


@kernel
def resize_nearest_neighbor_s8(m, inp, size, out, align, half, batches, in_h, in_w, depth,
                               rows, cols):
    """The loop nest; `rows` / `cols` hold GetNearestNeighbor's value per output row /
    column (float32 on the host, `nearest_index`)."""
    push(m, 9)
    sub(m, 0, 124)
    extended_shape(m)
    extended_shape(m)
    out_h = ldr(m, size)                         # output_size_data[0]
    out_w = ldr(m, size + 4)                     # output_size_data[1]
    for _ in range(4):
        ldr_sp(m)
    str_sp(m)
    cmp(m, in_h, out_h)
    it(m)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)
    cmp(m, 0, 0)
    it(m)
    mov(m, 0)
    mul(m, in_w, depth)                          # row_offset, batch_offset (int64)
    cmp(m, batches, 0)
    ldr_sp(m)
    str_sp(m)
    row_offset = in_w * depth
    mul(m, in_h, row_offset)
    bcc(m, batches <= 0)
    if batches > 0:
        mul(m, depth, out_w)
        mov(m, 0)
        str_sp(m)
        sub(m, in_h, 1)
        for _ in range(2):
            str_sp(m)
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        str_sp(m)
    dst = out
    for b in range(batches):
        src_batch = inp + b * in_h * row_offset
        ldr_sp(m)
        cmp(m, out_h, 0)
        bcc(m, out_h <= 0)
        if out_h > 0:
            mov(m, 0)
            str_sp(m)
            str_sp(m)
        for y in range(out_h):
            ldr_sp(m)                            # params->align_corners
            ldr_sp(m)                            # params->half_pixel_centers
            cmp(m, align, 0)
            bcc(m, align == 0)
            ldr_sp(m)
            in_y = nearest_neighbor(m, rows[y], out_h, align, half)
            ldr_sp(m)
            cmp(m, out_w, 0)
            y_base = mul(m, row_offset, in_y)
            bcc(m, out_w <= 0)
            if out_w > 0:
                ldr_sp(m)
                str_sp(m)
                add(m, in_w, -1)
                mov(m, align)
                sub(m, out_w, 1)
                ldr_sp(m)
                str_sp(m)
                mov(m, 0)
                cmp(m, align, 0)
                bcc(m, align == 0)
            for x in range(out_w):
                ldr_sp(m)
                in_x = nearest_neighbor(m, cols[x], out_w, align, half)
                ldr_sp(m)
                ldr_sp(m)
                src = mla(m, depth, in_x, y_base)
                ldr_sp(m)
                mov(m, dst)
                add(m, src, src_batch)
                add(m, x, 1)
                mov(m, depth)
                memcpy(m, dst, src_batch + src, depth)
                cmp(m, out_w, x + 1)
                dst = add(m, dst, depth)
                bcc(m, x + 1 == out_w)
                if x + 1 < out_w:
                    ldr_sp(m)                    # params reloaded after the call
                    ldr_sp(m)
                    cmp(m, align, 0)
                    bcc(m, align != 0)
            if out_w > 0:
                for _ in range(2):
                    ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            add(m, y, 1)
            cmp(m, out_h, y + 1)
            str_sp(m)
            bcc(m, y + 1 < out_h)
        if out_h > 0:
            ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        add(m, b, 1)
        cmp(m, batches, b + 1)
        bcc(m, b + 1 < batches)
    add(m, 0, 124)
    pop_pc(m, 9)
    return 0


def nearest_index(out_size, in_size, align, half):
    """GetNearestNeighbor for every output index, in float32 as the C computes it
    (roundf: half away from zero; the products are never negative)."""
    f = np.float32
    if align and out_size > 1:
        scale = f(in_size - 1) / f(out_size - 1)
    else:
        scale = f(in_size) / f(out_size)
    offset = f(0.5) if half else f(0.0)
    values = np.empty(out_size, np.int32)
    for i in range(out_size):
        p = (f(i) + offset) * scale
        v = np.floor(p)
        if align and p - v >= f(0.5):
            v += f(1)
        v = min(int(v), in_size - 1)
        values[i] = max(0, v) if half else v
    return values


def run_reference(m, case, addr, tracer=None):
    (inp, size), out = addr["inputs"], addr["output"]
    n, ih, iw, c = case["input_shape"]
    oh, ow = case["size"]
    align, half = case["align_corners"], case["half_pixel_centers"]
    run(resize_nearest_neighbor_s8, m, inp, size, out, align, half, n, ih, iw, c,
        nearest_index(oh, ih, align, half), nearest_index(ow, iw, align, half), tracer=tracer)
    return ["reference_ops::ResizeNearestNeighbor<int8_t>", "memcpy"]
