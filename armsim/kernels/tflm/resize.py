"""TFLite Micro's int8 and int16 RESIZE_NEAREST_NEIGHBOR (reference_ops::ResizeNearestNeighbor
<int8_t> / <int16_t>, kernels/internal/reference/resize_nearest_neighbor.h) and RESIZE_BILINEAR
(reference_ops::ResizeBilinearInteger<int8_t>, resize_bilinear.h), counted.

RESIZE_NEAREST_NEIGHBOR:

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
are exact: float32 arithmetic on the host (`nearest_index`), as the C computes them.  The
estimate dominates the count: GetNearestNeighbor runs per output column, ~266 of the ~343
instructions per output pixel of an 8x8x16 -> 16x16 resize are soft-float helper bodies.
No measurement exists: nothing is fitted.

RESIZE_BILINEAR is integer only: scale_10 = ((in << 10) + out / 2) / out (align_corners
with out > 1: ((in - 1) << 10) + (out - 1) / 2) / (out - 1)); per output row / column the
scaled coordinate (y * scale_10, or + scale_10 / 2 - 512 for half_pixel_centers, which gcc
keeps as a running sum), its bounds (C division by 1024: an add-1023-if-negative and asr),
and per channel four LDRSB taps weighted in 64 bits (SMULL, then MUL/MLA/UMULL for the
64 x 32 products, ADDS/ADC sums), rounded half away from zero and divided by 2^20 (TFLM's
default build, without TFLITE_SINGLE_ROUNDING: an ITEET choosing +/-2^19, a 0xFFFFF bias when
negative, LSR 20, STRB).  Transcribed from the same compiler's code for
ResizeBilinearInteger<int8_t> (the three ExtendedShape copies estimated as above).  The
64-bit sum is formed in Python from the loaded taps; the MUL/UMULL/ADC ops carry their
operands' low words only (their count and order are the disassembly's).
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, asr, b, bcc, bic, bl, bx, cbz, cmp, it, ldr, ldr_lit, ldr_sp,
                            ldrd, ldrd_sp, ldrsb, lsl, lsr, mla, mov, mul, pop_pc, push, rsb,
                            sbc, sdiv, smull, str_sp, strb, strd_sp, sub, umull)
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
def extended_shape(m, rank):
    """RuntimeShape::ExtendedShape(4, shape) of a rank-`rank` shape: the size check, the
    leading 1s stored, then the dims copied (bl memcpy of rank words: an estimate)."""
    ldr_sp(m)                                    # shape.size_
    mov(m, 4)
    cmp(m, rank, 4)
    str_sp(m)
    bcc(m, False)                                # > 4: abort
    sub(m, 4, rank)
    bcc(m, rank == 4)
    if rank < 4:
        add(m, 0, 0)
        lsl(m, 4 - rank, 2)
        mov(m, 1)
        add(m, 0, 0)
        for k in range(4 - rank):
            str_sp(m)
            cmp(m, k, 3 - rank)
            bcc(m, k < 3 - rank)
    add(m, 0, 0)
    lsl(m, rank, 2)
    add(m, 0, 0)
    add(m, 0, 4)
    bl(m)
    for _ in range(rank):
        ldr_sp(m)
        str_sp(m)
    bx(m)


@kernel(inline=True)
def nearest_neighbor(m, index, in_size, out_size, align, half):
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
    clamped = index == in_size - 1               # min(v, in - 1) took in - 1
    cmp(m, index, in_size - 1)
    it(m, 0 if clamped else 1)
    if clamped:
        mov(m, index)
    cbz(m, half == 0)
    if half:
        bic(m, index, 0)                         # max(0, v)
    return index


@kernel
def resize_nearest_neighbor(m, inp, size, out, align, half, batches, in_h, in_w, depth,
                            rows, cols, elem):
    """The loop nest; `rows` / `cols` hold GetNearestNeighbor's value per output row /
    column (float32 on the host, `nearest_index`); `elem` the element size (int16: the same
    code, memcpy of depth * 2 bytes and pointers advanced in halfwords)."""
    push(m, 9)
    sub(m, 0, 124)
    extended_shape(m, 4)
    extended_shape(m, 4)
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
    for batch in range(batches):
        src_batch = inp + elem * batch * in_h * row_offset
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
            in_y = nearest_neighbor(m, rows[y], in_h, out_h, align, half)
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
                in_x = nearest_neighbor(m, cols[x], in_w, out_w, align, half)
                ldr_sp(m)
                ldr_sp(m)
                src = mla(m, depth, in_x, y_base)
                ldr_sp(m)
                mov(m, dst)
                add(m, src, src_batch)
                add(m, x, 1)
                mov(m, depth)
                bl(m)
                memcpy(m, dst, src_batch + elem * src, elem * depth)
                cmp(m, out_w, x + 1)
                dst = add(m, dst, elem * depth)
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
        add(m, batch, 1)
        cmp(m, batches, batch + 1)
        bcc(m, batch + 1 < batches)
    add(m, 0, 124)
    pop_pc(m, 9)
    return 0


@kernel(inline=True)
def interpolation_bounds(m, scaled, in_size, half):
    """ComputeInterpolationValuesInteger's bounds of a scaled coordinate (10 fraction bits):
    (max(scaled / 1024, 0), min((scaled + 1023) / 1024, in_size - 1)), C division."""
    if half:
        ldr_lit(m)                               # -1023
        mov(m, scaled)
    else:
        ldr_sp(m)
        rsb(m, 0, 512)                           # undo the half-pixel offset
        ldr_lit(m)
        add(m, 0, 0)
    cmp(m, scaled, -1023)
    bcc(m, (scaled < -1023) == (half != 0))
    if scaled < -1023:
        lower = mov(m, 0)
        add(m, scaled, 1023)
        b(m)
    else:
        add(m, scaled, 1023)
        cmp(m, scaled, 0)
        mov(m, scaled)
        it(m, 0 if scaled < 0 else 1)
        if scaled < 0:
            mov(m, scaled + 1023)
        lower = asr(m, scaled + 1023 if scaled < 0 else scaled, 10)
    upper = scaled + 1023
    cmp(m, upper, 0)
    ldr_sp(m)
    it(m, 0 if upper < 0 else 1)
    if upper < 0:
        upper = add(m, scaled, 2046)
    upper = asr(m, upper, 10)
    cmp(m, upper, in_size - 1)
    it(m, 0 if upper >= in_size - 1 else 1)
    if upper >= in_size - 1:
        upper = mov(m, in_size - 1)
    return lower, upper


@kernel
def resize_bilinear_s8(m, inp, size, out, align, half, batches, in_h, in_w, depth):
    """ResizeBilinearInteger<int8_t>: the scales, then per output row and column the
    interpolation bounds and per channel the four-tap 64-bit sum, rounded half away from
    zero and divided by 2^20 (TFLM's default build, without TFLITE_SINGLE_ROUNDING)."""
    push(m, 9)
    sub(m, 0, 244)
    ldr_sp(m)
    str_sp(m)
    extended_shape(m, 4)                         # input
    extended_shape(m, 1)                         # output size
    extended_shape(m, 4)                         # output
    for _ in range(3):
        ldr_sp(m)
    str_sp(m)
    out_h, out_w = ldrd(m, size)                 # output_size_data[0], [1]
    cmp(m, 0, 0)
    it(m)
    mov(m, batches)
    mov(m, batches)
    add(m, out_h, 0)
    ldr_sp(m)
    str_sp(m)
    ldrd_sp(m)
    asr(m, out_h, 1)
    add(m, 0, 0)
    h_scale = sdiv(m, (in_h << 10) + out_h // 2, out_h)
    str_sp(m)
    add(m, out_w, 0)
    asr(m, out_w, 1)
    add(m, 0, 0)
    w_scale = sdiv(m, (in_w << 10) + out_w // 2, out_w)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)                                    # params.align_corners
    cmp(m, depth, depth)
    it(m)
    mov(m, depth)
    str_sp(m)
    lsl(m, in_h, 10)
    lsl(m, in_w, 10)
    cbz(m, align == 0)
    if align:
        cmp(m, out_h, 1)
        bcc(m, out_h <= 1)
        if out_h > 1:
            add(m, out_h, -1)
            sub(m, in_h << 10, 1024)
            add(m, 0, 0)
            h_scale = sdiv(m, ((in_h - 1) << 10) + (out_h - 1) // 2, out_h - 1)
            str_sp(m)
        ldr_sp(m)
        cmp(m, out_w, 1)
        bcc(m, out_w <= 1)
        if out_w > 1:
            sub(m, out_w, 1)
            sub(m, in_w << 10, 1024)
            add(m, 0, 0)
            w_scale = sdiv(m, ((in_w - 1) << 10) + (out_w - 1) // 2, out_w - 1)
            str_sp(m)
    cmp(m, batches, 0)
    bcc(m, batches <= 0)
    if batches > 0:
        ldrd_sp(m)
        ldr_sp(m)
        mul(m, in_h, in_w)
        mul(m, in_h * in_w, depth)
        mul(m, depth, in_w)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        add(m, h_scale, 0)
        asr(m, h_scale, 1)
        str_sp(m)
        ldr_sp(m)
        add(m, w_scale, 0)
        asr(m, w_scale, 1)
        mov(m, 0)
        str_sp(m)
        mov(m, batches)
        mov(m, 0)
    h_offset = h_scale // 2                      # scale_10 / 2 (the scales are positive)
    w_offset = w_scale // 2
    for batch in range(batches):
        cmp(m, out_h, 0)
        bcc(m, out_h <= 0)
        if out_h > 0:
            ldr_sp(m)
            str_sp(m)
            add(m, in_h, -1)
            strd_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            sub(m, h_offset, 512)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            str_sp(m)
            str_sp(m)
            str_sp(m)
        for y in range(out_h):
            sy = y * h_scale + (h_offset - 512 if half else 0)
            ldr_sp(m)
            ldr_sp(m)                            # params.half_pixel_centers
            cmp(m, half, 0)
            bcc(m, half == 0)
            y0, y1 = interpolation_bounds(m, sy, in_h, half)
            ldr_sp(m)
            cmp(m, out_w, 0)
            bcc(m, out_w <= 0)
            if out_w > 0:
                add(m, y1, batch * in_h)
                mul(m, in_w, y1)
                str_sp(m)
                add(m, y0, batch * in_h)
                mul(m, in_w, y0)
                str_sp(m)
                rsb(m, sy, y0 << 10)
                sub(m, sy, y0 << 10)
                str_sp(m)
                add(m, 0, 1024)
                str_sp(m)
                add(m, in_w, -1)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)
                sub(m, w_offset, 512)
                mov(m, 0)
                strd_sp(m)
                mov(m, 0)
                strd_sp(m)
                mov(m, 0)
                str_sp(m)
                mov(m, 0)
            wy1 = sy - (y0 << 10)
            wy0 = 1024 - wy1
            row0 = (batch * in_h + y0) * in_w
            row1 = (batch * in_h + y1) * in_w
            for x in range(out_w):
                sx = x * w_scale + (w_offset - 512 if half else 0)
                if x == 0:
                    cmp(m, half, 0)
                    bcc(m, half == 0)
                x0, x1 = interpolation_bounds(m, sx, in_w, half)
                ldr_sp(m)
                cmp(m, depth, 0)
                bcc(m, depth <= 0)
                wx1 = sx - (x0 << 10)
                wx0 = 1024 - wx1
                if depth > 0:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, row0, x0)
                    mla(m, depth, row0 + x0, 0)
                    sub(m, 0, 1)
                    str_sp(m)
                    add(m, row0, x1)
                    add(m, 0, 0)
                    mla(m, depth, row1 + x0, 0)
                    sub(m, 0, 1)
                    str_sp(m)
                    ldr_sp(m)
                    sub(m, sx, x0 << 10)
                    add(m, 0, 0)
                    mul(m, depth, row1 + x1)
                    mla(m, depth, row0 + x1, 0)
                    add(m, 0, 0)
                    sub(m, 0, 1)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    strd_sp(m)
                    ldr_sp(m)
                    str_sp(m)
                    strd_sp(m)
                    rsb(m, wx1, 1024)
                    str_sp(m)
                    asr(m, wx0, 31)
                    asr(m, wx1, 31)
                    add(m, 0, -1)
                    mov(m, 0)
                obase = ((batch * out_h + y) * out_w + x) * depth
                for c in range(depth):
                    ldr_sp(m)
                    ldr_sp(m)
                    ll = ldrsb(m, inp + (row0 + x0) * depth + c)
                    str_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    ru = ldrsb(m, inp + (row1 + x1) * depth + c)
                    rl = ldrsb(m, inp + (row0 + x1) * depth + c)
                    str_sp(m)
                    ldr_sp(m)
                    smull(m, ll, wy0)
                    smull(m, rl, wy0)
                    lu = ldrsb(m, inp + (row1 + x0) * depth + c)
                    str_sp(m)
                    smull(m, ru, wy1)
                    mul(m, ll * wy0, wx0 >> 31)
                    mla(m, wx0, ll, 0)
                    mul(m, rl * wy0, wx0 >> 31)
                    mla(m, wx0, rl, 0)
                    ldr_sp(m)
                    smull(m, lu, wy1)
                    str_sp(m)
                    umull(m, ll * wy0, wx0)
                    add(m, 0, 0)
                    umull(m, rl * wy0, wx0)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    mul(m, ru * wy1, wx1 >> 31)
                    adc(m, 0, 0, 0)
                    mla(m, wx1, ru, 0)
                    umull(m, ru * wy1, wx1)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    adc(m, 0, 0, 0)
                    ldr_sp(m)
                    mul(m, lu * wy1, wx1 >> 31)
                    mla(m, wx1, lu, 0)
                    umull(m, lu * wy1, wx1)
                    add(m, 0, 0)
                    add(m, 0, 0)
                    output_20 = (ll * wy0 * wx0 + lu * wy1 * wx0 + rl * wy0 * wx1
                                 + ru * wy1 * wx1)
                    adc(m, 0, 0, 0)
                    cmp(m, output_20, 1)
                    sbc(m, 0, 0, 1)
                    it(m, 2)                     # ITEET: two of its four execute
                    if output_20 <= 0:
                        ldr_lit(m)               # -(1 << 19)
                        mov(m, -1)
                        rounded = output_20 - (1 << 19)
                    else:
                        mov(m, 1 << 19)
                        mov(m, 0)
                        rounded = output_20 + (1 << 19)
                    add(m, 0, 0)
                    adc(m, 0, 0, 0)
                    cmp(m, rounded >> 32, 0)
                    add(m, c, 1)
                    bcc(m, rounded >= 0)
                    if rounded < 0:
                        ldr_lit(m)               # (1 << 20) - 1
                        rounded = add(m, rounded & 0xFFFFFFFF, (1 << 20) - 1)
                    ldr_sp(m)
                    q = lsr(m, rounded & 0xFFFFFFFF, 20)
                    cmp(m, depth, c + 1)
                    strb(m, out + obase + c, q)
                    bcc(m, c + 1 < depth)
                if depth > 0:
                    ldrd_sp(m)
                    ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, depth)
                str_sp(m)
                ldr_sp(m)
                add(m, sx, w_scale)
                ldr_sp(m)
                add(m, x, 1)
                cmp(m, out_w, x + 1)
                bcc(m, x + 1 == out_w)
                if x + 1 < out_w:
                    ldr_sp(m)
                    ldr_sp(m)                    # params.half_pixel_centers
                    cmp(m, half, 0)
                    bcc(m, half != 0)
            if out_w > 0:
                ldrd_sp(m)
                ldrd_sp(m)
                ldr_sp(m)
                mov(m, 0)
            ldr_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            add(m, sy, h_scale)
            ldr_sp(m)
            add(m, y, 1)
            cmp(m, out_h, y + 1)
            bcc(m, y + 1 < out_h)
        if out_h > 0:
            mov(m, 0)
            ldrd_sp(m)
            ldrd_sp(m)
            ldr_sp(m)
            mov(m, 0)
        add(m, batch, 1)
        cmp(m, batches, batch + 1)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, batch + 1 < batches)
    add(m, 0, 244)
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
    if case["family"] == "resize_bilinear":
        run(resize_bilinear_s8, m, inp, size, out, align, half, n, ih, iw, c, tracer=tracer)
        return ["reference_ops::ResizeBilinearInteger<int8_t>"]
    elem = case["elem"]
    run(resize_nearest_neighbor, m, inp, size, out, align, half, n, ih, iw, c,
        nearest_index(oh, ih, align, half), nearest_index(ow, iw, align, half), elem,
        tracer=tracer)
    return [f"reference_ops::ResizeNearestNeighbor<int{8 * elem}_t>", "memcpy"]
