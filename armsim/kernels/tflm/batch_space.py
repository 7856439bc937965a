"""TFLite Micro's int8 BATCH_TO_SPACE_ND and SPACE_TO_BATCH_ND
(reference_ops::BatchToSpaceND / SpaceToBatchND, kernels/internal/reference/
batch_to_space_nd.h, space_to_batch_nd.h), counted.

Both take a 4-D NHWC or a 3-D NHC tensor (extended to NH1C: block width 1, no left crop or
padding).  BatchToSpaceND walks the input (batch, row, column) and memcpy's each pixel's
`depth` bytes to output (in_batch % out_batches, in_h * block_h + spatial_offset / block_w
- crop_top, in_w * block_w + spatial_offset % block_w - crop_left), skipping pixels that land
outside the output (spatial_offset = in_batch / out_batches).  SpaceToBatchND walks the
output and memcpy's the input pixel it comes from, or memset's the pixel to
params.output_offset where it falls in the padding.

The instruction sequences are transcribed from arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4
-mthumb -DNDEBUG's code for BatchToSpaceND<int8_t> and SpaceToBatchND<int8_t> (TFLM's headers
compiled locally with a stub ruy::profiler::ScopeLabel, not committed): SDIV/MLS per input
(output) batch, the bounds tests and a libc memcpy / memset call per pixel (counted,
armsim.kernels.libc).  Loads from TFLM's structs (RuntimeShape dims, spilled locals) are
stack-slot loads; the 4-D shape copies gcc makes with LDM/STM are counted as one stack-slot
load or store each (same instruction count, a different mnemonic); the block shape, crops
and paddings are real loads (constants in flash).  No measurement exists: nothing is fitted.

TFLM's SpaceToBatchNDInit allocates the SpaceToBatchParams its Prepare never writes, so the
padding value is whatever the arena held there; armsim pads with 0 (a zero-filled arena).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, ldr, ldr_sp, ldrd_sp, mla, mls, mov, mul,
                            pop_pc, push, sdiv, str_sp, strd_sp, sub)
from armsim.kernels.libc import memcpy, memset


@kernel(inline=True)
def copy_shape_4d(m):
    """A 4-D RuntimeShape copied to the stack: LDM {4}, STM {4}, LDM {3}, STM {3}."""
    ldr_sp(m)
    add(m, 0, 0)
    str_sp(m)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)


@kernel
def batch_to_space_s8(m, inp, block, crops, out, rank, in_b, in_h, in_w, depth, out_b,
                      out_h, out_w):
    push(m, 9)
    ldr_sp(m)                                    # input rank
    sub(m, 0, 124)
    cmp(m, rank, 4)
    ldr_sp(m)
    mov(m, 0)
    mov(m, 0)
    bcc(m, rank == 4)
    if rank == 4:
        mov(m, 0)
        copy_shape_4d(m)
        mov(m, 0)
        ldr_sp(m)                                # output rank
        cmp(m, rank, 4)
        mov(m, 0)
        bcc(m, False)
        copy_shape_4d(m)
        mov(m, 0)
        mov(m, 0)
        cmp(m, rank, 4)
        block_h = ldr(m, block)
        str_sp(m)
        bcc(m, False)
        ldr_sp(m)
        block_w = ldr(m, block + 4)
        crop_top = ldr(m, crops)
        str_sp(m)
        ldr_sp(m)
        crop_left = ldr(m, crops + 8)
        str_sp(m)
        b(m)
    else:
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)                                # output rank
        cmp(m, rank, 4)
        ldrd_sp(m)
        mov(m, 1)
        bcc(m, False)
        ldr_sp(m)
        block_h = ldr(m, block)
        str_sp(m)
        cmp(m, rank, 4)
        ldrd_sp(m)
        mov(m, 1)
        str_sp(m)
        bcc(m, False)
        ldr_sp(m)
        crop_top = ldr(m, crops)
        str_sp(m)
        crop_left = mov(m, 0)
        block_w = mov(m, 1)
        str_sp(m)
    ldr_sp(m)
    cmp(m, in_b, 0)
    bcc(m, in_b <= 0)
    if in_b > 0:
        mul(m, in_w, in_h)
        mul(m, depth, in_w * in_h)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mul(m, out_w, out_h)
        str_sp(m)
        mul(m, depth, in_w)
        mov(m, inp)
        mov(m, 0)
        mov(m, out_b)
        mov(m, 0)
    for ib in range(in_b):
        cmp(m, in_h, 0)
        spatial = sdiv(m, ib, out_b)             # spatial_offset
        ob = mls(m, out_b, spatial, ib)          # out_batch
        bcc(m, in_h <= 0)
        shift_h = sdiv(m, spatial, block_w)
        shift_w = mls(m, block_w, shift_h, spatial)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        oh = sub(m, shift_h, crop_top)
        ldr_sp(m)
        mla(m, ob, out_h, oh)
        strd_sp(m)
        mul(m, out_w, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, in_h)
        b(m)
        for ih in range(in_h):
            cmp(m, oh, 0)
            bcc(m, oh < 0)
            if oh >= 0:
                ldr_sp(m)
                cmp(m, out_h, oh)
                bcc(m, out_h <= oh)
            if 0 <= oh < out_h:
                cmp(m, in_w, 0)
                bcc(m, in_w <= 0)
                if in_w > 0:
                    ldrd_sp(m)
                    strd_sp(m)
                    strd_sp(m)
                    ow = sub(m, shift_w, crop_left)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                    for iw in range(in_w):
                        cmp(m, ow, 0)
                        add(m, iw, 1)
                        bcc(m, ow < 0)
                        if ow >= 0:
                            cmp(m, ow, out_w)
                            add(m, 0, ow)
                            mov(m, 0)
                            mov(m, depth)
                            bcc(m, ow >= out_w)
                            if ow < out_w:
                                ldr_sp(m)
                                ldr_sp(m)
                                dst = mla(m, depth, ((ob * out_h + oh) * out_w + ow), out)
                                bl(m)
                                memcpy(m, dst, inp + ((ib * in_h + ih) * in_w + iw) * depth,
                                       depth)
                        cmp(m, iw + 1, in_w)
                        ow = add(m, ow, block_w)
                        add(m, 0, depth)
                        bcc(m, iw + 1 != in_w)
                    ldrd_sp(m)
                    ldrd_sp(m)
                    ldr_sp(m)
                    b(m)
            ldr_sp(m)
            add(m, ih, 1)
            oh = add(m, oh, block_h)
            ldr_sp(m)
            cmp(m, ih + 1, in_h)
            add(m, 0, 0)
            add(m, 0, 0)
            bcc(m, ih + 1 == in_h)
        if in_h > 0:
            mov(m, 0)
            ldrd_sp(m)
            ldr_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        ldr_sp(m)
        add(m, ib, 1)
        cmp(m, ib + 1, in_b)
        bcc(m, ib + 1 != in_b)
    add(m, 0, 124)
    pop_pc(m, 9)
    return 0


@kernel
def space_to_batch_s8(m, inp, block, paddings, out, rank, in_b, in_h, in_w, depth, out_b,
                      out_h, out_w, pad_value):
    push(m, 9)
    ldr_sp(m)                                    # input rank
    sub(m, 0, 148)
    cmp(m, rank, 4)
    for _ in range(3):
        ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    mov(m, 0)
    bcc(m, rank == 4)
    if rank == 4:
        copy_shape_4d(m)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                # output rank
        cmp(m, rank, 4)
        mov(m, 0)
        bcc(m, False)
        copy_shape_4d(m)
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        cmp(m, rank, 4)
        block_h = ldr(m, block)
        str_sp(m)
        bcc(m, False)
        pad_left = ldr(m, paddings + 8)
        block_w = ldr(m, block + 4)
        pad_top = ldr(m, paddings)
        str_sp(m)
        b(m)
    else:
        ldrd_sp(m)
        str_sp(m)
        mov(m, 1)
        str_sp(m)
        ldr_sp(m)                                # output rank
        ldr_sp(m)
        cmp(m, rank, 4)
        bcc(m, False)
        for _ in range(3):
            ldr_sp(m)
            str_sp(m)
        cmp(m, rank, 4)
        block_h = ldr(m, block)
        str_sp(m)
        mov(m, 1)
        bcc(m, False)
        pad_left = mov(m, 0)
        pad_top = ldr(m, paddings)
        str_sp(m)
        block_w = mov(m, 1)
    ldr_sp(m)                                    # params.output_offset
    str_sp(m)
    ldr_sp(m)
    cmp(m, out_b, 0)
    bcc(m, out_b <= 0)
    if out_b > 0:
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        mul(m, depth, in_w)
        mul(m, block_h, 0)
        str_sp(m)
        ldr_sp(m)
        mul(m, out_w, out_h)
        str_sp(m)
        mul(m, depth, block_w)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        add(m, pad_top, in_h)
        mov(m, in_b)
        mov(m, 0)
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
    row_end_h = pad_top + in_h
    row_end_w = pad_left + in_w
    for ob in range(out_b):
        ldr_sp(m)
        q = sdiv(m, ob, in_b)
        cmp(m, out_h, 0)
        ib = mls(m, in_b, q, ob)                 # input_batch
        shift_h = sdiv(m, q, block_w)
        shift_w = mls(m, block_w, shift_h, q)
        str_sp(m)
        bcc(m, out_h <= 0)
        if out_h > 0:
            mov(m, 0)
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            mla(m, in_h, ib, shift_h)
            ldr_sp(m)
            sub(m, 0, pad_top)
            sub(m, shift_w, pad_left)
            mla(m, in_w, 0, 0)
            ldr_sp(m)
            strd_sp(m)
            mla(m, depth, 0, inp)
            add(m, pad_left, block_w)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
        for oh in range(out_h):
            h = oh * block_h + shift_h
            cmp(m, out_w, 0)
            bcc(m, out_w <= 0)
            if out_w > 0:
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                strd_sp(m)
                mla(m, out_w, (ob * out_h + oh), 0)
                mov(m, 0)
                mov(m, 0)
            for ow in range(out_w):
                w = ow * block_w + shift_w
                dst = out + ((ob * out_h + oh) * out_w + ow) * depth
                cmp(m, pad_top, h)
                ldr_sp(m)
                inside = False
                bcc(m, pad_top > h)
                if pad_top <= h:
                    ldr_sp(m)
                    cmp(m, row_end_h, h)
                    bcc(m, row_end_h <= h)
                    if h < row_end_h:
                        ldr_sp(m)
                        cmp(m, pad_left, w)
                        bcc(m, pad_left > w)
                        if pad_left <= w:
                            ldr_sp(m)
                            cmp(m, row_end_w, w)
                            bcc(m, row_end_w > w)
                            inside = row_end_w > w
                if inside:
                    mov(m, dst)
                    ldr_sp(m)
                    mov(m, 0)
                    bl(m)
                    memcpy(m, dst, inp + ((ib * in_h + h - pad_top) * in_w + w - pad_left)
                           * depth, depth)
                    mov(m, dst)
                    b(m)
                else:
                    mov(m, dst)
                    ldr_sp(m)
                    bl(m)
                    memset(m, dst, pad_value, depth)
                    mov(m, dst)
                ldr_sp(m)
                add(m, ow, 1)
                cmp(m, ow + 1, out_w)
                add(m, dst, depth)
                add(m, 0, 0)
                add(m, w, block_w)
                bcc(m, ow + 1 != out_w)
            if out_w > 0:
                ldrd_sp(m)
                ldr_sp(m)
            ldr_sp(m)
            add(m, h, block_h)
            ldr_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            add(m, oh, 1)
            cmp(m, oh + 1, out_h)
            add(m, 0, out_w)
            bcc(m, oh + 1 != out_h)
        if out_h > 0:
            ldrd_sp(m)
            ldr_sp(m)
            mov(m, 0)
        ldr_sp(m)
        add(m, 0, 0)
        ldr_sp(m)
        add(m, ob, 1)
        cmp(m, ob + 1, out_b)
        bcc(m, ob + 1 != out_b)
    add(m, 0, 148)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    (inp, block, margins), out = addr["inputs"], addr["output"]
    rank = case["rank"]
    n, h, w, c = case["input_shape"]
    on, oh, ow, _ = case["output_shape"]
    if case["family"] == "space_to_batch_nd":
        run(space_to_batch_s8, m, inp, block, margins, out, rank, n, h, w, c, on, oh, ow, 0,
            tracer=tracer)
        return ["reference_ops::SpaceToBatchND<int8_t>", "memcpy", "memset"]
    run(batch_to_space_s8, m, inp, block, margins, out, rank, n, h, w, c, on, oh, ow,
        tracer=tracer)
    return ["reference_ops::BatchToSpaceND<int8_t>", "memcpy"]
