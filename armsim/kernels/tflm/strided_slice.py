"""TFLite Micro's int8 and int16 STRIDED_SLICE (strided_slice.cc StridedSliceEval ->
reference_ops::StridedSlice<T>, kernels/internal/reference/strided_slice.h), counted.

The Eval pads the params to 5 dims (StridedSlicePadIndices), extends both shapes to 5-D,
derives start/stop per axis (StridedSliceStartForAxis / EndForAxis: negative indices wrap,
clamped by the stride's sign, masks), then walks the 5 loops with `lc(stop, stride, index)`
(index < stop, or > stop for a negative stride).  With strides[4] == 1 the innermost axis is
one SequentialTensorWriter::WriteN -- newlib's memcpy of stop_4 - start_4 bytes -- else
one Write per element.

The loop nest follows arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4's code for it (compiled
locally: per level a stride-sign test, the ITE-materialised condition and its CBZ/BEQ, the
flattened index recomputed with MUL/MLA per write); the setup before the nest (padding,
ExtendedShape, the ten Start/EndForAxis calls) is an estimate of the same shape.  int16
(`elem` 2) is the int8 port's structure with halfword accesses (LDRSH, STRH), 2-byte steps
and WriteN's memcpy of twice the bytes.  Not calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, mla, mov,
                            mul, pop_pc, push, str_sp, strb, strh, sub)
from armsim.kernels.libc import memcpy


@kernel(inline=True)
def _lc(m, index, stop, stride):
    """lc(stop, stride, index) as compiled: CMP, ITE materialising the bool (one of its two
    MOVs fails), a branch back for the negative-stride copy, then CMP/BEQ on the bool."""
    cmp(m, index, stop)
    it(m, 1)
    mov(m, 0)
    if stride < 0:
        b(m)
        going = index > stop
    else:
        going = index < stop
    cmp(m, 1 if going else 0, 0)
    bcc(m, not going)
    return going


@kernel(inline=True)
def _stride_test(m, stride, spills):
    """A level's `ldr stride; cmp stride, #0; blt` with the moves/reloads gcc puts there."""
    ldr_sp(m)
    cmp(m, stride, 0)
    for _ in range(spills):
        ldr_sp(m)
    bcc(m, stride < 0)


@kernel
def setup(m, rank):
    """StridedSliceEval to the loop nest: params copy, two ExtendedShape(5), the padding, ten
    Start/EndForAxis (estimate: the shape of the code, no listing)."""
    bl(m)
    push(m, 9)
    sub(m, 0, 28)
    for _ in range(10):                        # params_copy = op_params (struct copy)
        ldrd_sp(m)
        str_sp(m)
        str_sp(m)
    for _ in range(2):                         # RuntimeShape::ExtendedShape(5, ...)
        bl(m)
        push(m, 3)
        for d in range(5):
            cmp(m, d, 5 - rank)
            ldr_sp(m)
            str_sp(m)
            bcc(m, d + 1 < 5)
        pop_pc(m, 3)
    for i in range(rank):                      # StridedSlicePadIndices: move the indices
        for _ in range(3):
            ldr_sp(m)
            str_sp(m)
        sub(m, i, 1)
        cmp(m, i, 0)
        bcc(m, i + 1 < rank)
    for i in range(5 - rank):                  # pad with start 0, stop 1, stride 1
        str_sp(m)
        str_sp(m)
        str_sp(m)
        add(m, i, 1)
        cmp(m, i + 1, 5 - rank)
        bcc(m, i + 1 < 5 - rank)
    for _ in range(5):                         # the masks shifted, begin/end masks or'ed
        ldr_sp(m)
        mov(m, 0)
        str_sp(m)
    for axis in range(5):                      # StridedSliceStartForAxis + EndForAxis
        for _ in range(4):
            ldr_sp(m)
        for _ in range(4):
            cmp(m, axis, 0)
            bcc(m, False)
        it(m, 1)
        mov(m, 0)
        for _ in range(4):
            ldr_sp(m)
        for _ in range(5):
            cmp(m, axis, 0)
            bcc(m, False)
        it(m, 1)
        mov(m, 0)
        str_sp(m)
        str_sp(m)
    for _ in range(8):                         # the loop registers and stack arguments
        ldr_sp(m)
    return 0


@kernel
def write_row(m, inp, out, d1, d2, d3, d4, o0, o1, o2, o3, start4, stop4, stride4, elem):
    """The innermost axis for one (o0..o3): WriteN (stride 1) or the Write loop; returns
    the output pointer after it."""
    cmp(m, stride4, 1)                         # inner_stride_is_1
    bcc(m, stride4 != 1)
    row = (((o0 * d1 + o1) * d2 + o2) * d3 + o3) * d4
    if stride4 == 1:
        n = stop4 - start4
        ldr_sp(m)                              # len
        cmp(m, n, 0)
        bcc(m, n > 0)
        if n > 0:
            ldrd_sp(m)
            str_sp(m)
            ldr_sp(m)
            mul(m, o0, d1)
            ldr_sp(m)
            ldrd_sp(m)
            mul(m, d1, d2)
            mul(m, o1, d2)
            ldr_sp(m)
            mul(m, d2, d3)
            mul(m, d3, d3)
            mul(m, o2, d3)
            mla(m, o3, d4, start4)             # index = start_4 + offset_3 * shape[4] + ...
            mla(m, d4, o2, 0)
            mla(m, d4, o1, 0)
            mla(m, d4, o0, 0)
            ldr_sp(m)                          # writer->input_data_, output_ptr_
            ldr_sp(m)
            add(m, inp, elem * (row + start4))
            ldr_sp(m)
            bl(m)
            memcpy(m, out, inp + elem * (row + start4), elem * n)   # WriteN: memcpy(.., len)
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            add(m, out, elem * n)
            str_sp(m)                          # output_ptr_ += len
            out += elem * n
        return out
    for _ in range(5):
        ldr_sp(m)
        mov(m, 0)
    o4 = start4
    while _lc(m, o4, stop4, stride4):
        ldr_sp(m)                              # shape[] and offsets reloaded per element
        ldr_sp(m)
        mul(m, o1, d2)
        ldr_sp(m)
        ldr_sp(m)
        ldrd_sp(m)
        mul(m, d1, d2)
        ldr_sp(m)
        mul(m, d2, d3)
        mul(m, o3, d4)
        mul(m, o2, d4)
        mul(m, d4, d4)
        ldr_sp(m)                              # writer->input_data_
        ldr_sp(m)
        add(m, o4, inp)
        mla(m, o3, d4, o4)
        mla(m, o2, d4, 0)
        mul(m, o0, d4)
        ldr_sp(m)                              # output_ptr_
        mla(m, o1, d4, 0)
        add(m, out, elem)
        if elem == 1:
            v = ldrsb(m, inp + row + o4)       # input_data_[position]
            str_sp(m)                          # output_ptr_++
            strb(m, out, v)
        else:
            v = ldrsh(m, inp + 2 * (row + o4))
            str_sp(m)
            strh(m, out, v)
        out += elem
        ldr_sp(m)                              # stride[4]
        cmp(m, stride4, 0)
        o4 = add(m, o4, stride4)
        bcc(m, stride4 >= 0)
    return out


@kernel
def level_step(m, index, stop, stride, spills, enter):
    """One level's loop test (`enter`: with its stride test before the first) or its
    increment and test; returns whether the loop goes on."""
    if enter:
        _stride_test(m, stride, spills)
    else:
        ldr_sp(m)                              # stride[level]
        add(m, index, stride)
        for _ in range(spills):
            ldr_sp(m)
        cmp(m, stride, 0)
        bcc(m, stride >= 0)
    return _lc(m, index, stop, stride)


@kernel
def finish(m):
    add(m, 0, 28)
    pop_pc(m, 9)
    return 0


def _range(start, stop, stride):
    """The offsets lc() lets through."""
    out = []
    k = start
    while (k < stop) if stride > 0 else (k > stop):
        out.append(k)
        k += stride
    return out


def run_reference(m, case, addr, tracer=None):
    d = case["ext_shape"]
    st, sp, sd = case["start"], case["stop"], case["strides"]
    run(setup, m, case["rank"], tracer=tracer)
    out = addr["output"]
    spills = (4, 3, 3, 2)

    def level(k, offsets):
        first = True
        for o in _range(st[k], sp[k], sd[k]) + [None]:
            index = sp[k] if o is None else o
            going = run(level_step, m, index, sp[k], sd[k], spills[k], first, tracer=tracer)
            first = False
            if not going:
                return
            if k == 3:
                nonlocal_out[0] = run(write_row, m, addr["input"], nonlocal_out[0], d[1],
                                      d[2], d[3], d[4], *offsets, o, st[4], sp[4], sd[4],
                                      case["elem"], tracer=tracer)
            else:
                level(k + 1, offsets + [o])

    nonlocal_out = [out]
    level(0, [])
    run(finish, m, tracer=tracer)
    return [f"reference_ops::StridedSlice<int{8 * case['elem']}_t>",
            "memcpy" if sd[4] == 1 else "Write"]
