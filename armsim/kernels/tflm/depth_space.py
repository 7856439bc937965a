"""TFLite Micro's int8 DEPTH_TO_SPACE and SPACE_TO_DEPTH (reference_ops::DepthToSpace /
SpaceToDepth, kernels/internal/reference/depth_to_space.h, space_to_depth.h), counted.

DepthToSpace walks the output (b, h, w, d) and reads input[b][h / bs][w / bs][d + ((h % bs)
* bs + w % bs) * output_depth]; SpaceToDepth walks the input and writes
output[b][h / bs][w / bs][d + ((h % bs) * bs + w % bs) * input_depth].  Both Offset()s are
recomputed per element.  The sequence follows arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4's
code for DepthToSpace<int8_t> (compiled locally: SDIV/MLS for the / and % per row and per
column, four LDR / six MLA, LDRSB, STRB, ADDS, CMP, BNE per element); SpaceToDepth is taken to
compile to the same shape.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, ldr_sp, ldrsb, mla, mls, mov, mul, pop_pc, push,
                            sdiv, str_sp, strb, sub)


@kernel
def depth_space_s8(m, inp, out, to_space, bs, nb, nh, nw, nd, ih, iw, idp, oh, ow, odp):
    """The loop nest over (nb, nh, nw, nd) -- the output for DepthToSpace (`to_space`), the
    input for SpaceToDepth; (ih, iw, idp) and (oh, ow, odp) are the two tensors' dims."""
    bl(m)
    push(m, 9)
    sub(m, 0, 28)
    mov(m, 0)
    str_sp(m)
    for _ in range(3):
        ldr_sp(m)
    cmp(m, nb, 0)
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    bcc(m, nb <= 0)
    if nb > 0:
        cmp(m, nh, 0)
        bcc(m, nh <= 0)
    if nb > 0 and nh > 0:
        for _ in range(5):
            mov(m, 0)
        str_sp(m)
        str_sp(m)
    for b in range(nb if nh > 0 else 0):
        mov(m, b)
        for h in range(nh):
            ldr_sp(m)
            cmp(m, nw, 0)
            bcc(m, nw <= 0)
            if nw > 0:
                mov(m, 0)
            cmp(m, nd, 0)
            bcc(m, nd <= 0)
            if nd > 0 and nw > 0:
                q = sdiv(m, h, bs)             # h / block_size
                r = mls(m, bs, q, h)           # h % block_size
                mul(m, bs, r)
                mov(m, 0)
                str_sp(m)
                str_sp(m)
            hq = h // bs
            hr = h % bs
            for w in range(nw if nd > 0 else 0):
                ldr_sp(m)
                wq = sdiv(m, w, bs)            # w / block_size
                wr = mls(m, bs, wq, w)         # w % block_size
                add(m, wr, hr * bs)
                ldr_sp(m)
                str_sp(m)
                mla(m, nd, wr, 0)
                mov(m, 0)
                mov(m, wq)
                shift_d = (hr * bs + wr) * (odp if to_space else idp)
                for d in range(nd):
                    ldr_sp(m)                  # the shapes' dims
                    ldr_sp(m)
                    ldr_sp(m)
                    mla(m, b, 1, 0)
                    mla(m, 0, 1, wq)
                    ldr_sp(m)
                    mla(m, 0, 1, d)
                    ldr_sp(m)
                    if to_space:               # read the input block, write the output
                        src = ((b * ih + hq) * iw + wq) * idp + d + shift_d
                        dst = ((b * oh + h) * ow + w) * odp + d
                    else:
                        src = ((b * ih + h) * iw + w) * idp + d
                        dst = ((b * oh + hq) * ow + wq) * odp + d + shift_d
                    v = ldrsb(m, inp + src)
                    mla(m, b, 1, h)
                    mla(m, 0, 1, w)
                    ldr_sp(m)
                    mla(m, 0, 1, d)
                    strb(m, out + dst, v)
                    add(m, d, 1)
                    cmp(m, nd, d + 1)
                    bcc(m, d + 1 < nd)
                ldr_sp(m)
                ldr_sp(m)
                add(m, w, 1)
                cmp(m, nw, w + 1)
                bcc(m, w + 1 < nw)
            if nd > 0 and nw > 0:
                ldr_sp(m)
            add(m, h, 1)
            cmp(m, nh, h + 1)
            bcc(m, h + 1 < nh)
        mov(m, 0)
        ldr_sp(m)
        add(m, b, 1)
        cmp(m, nb, b + 1)
        bcc(m, b + 1 < nb)
    add(m, 0, 28)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    i, o = case["input_shape"], case["output_shape"]
    walk = o if case["to_space"] else i
    run(depth_space_s8, m, addr["input"], addr["output"], case["to_space"],
        case["block_size"], *walk, i[1], i[2], i[3], o[1], o[2], o[3], tracer=tracer)
    return ["reference_ops::DepthToSpace<int8_t>" if case["to_space"]
            else "reference_ops::SpaceToDepth<int8_t>"]
