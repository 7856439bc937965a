"""TFLite Micro's reference MAXIMUM / MINIMUM for int8 and int16
(reference_ops::MaximumMinimumBroadcastSlow<T>, maximum_minimum.h, with broadcast_loop.h).

    if (input1_shape == input2_shape)                    // same rank and dims
      for (i < flat_size) output[i] = op(input1[i], input2[i]);
    else
      BroadcastBinaryOpSimple(...)                       // fuse dims, then RunBinaryOp

MaximumOp is `el1 > el2 ? el1 : el2`, MinimumOp `el1 < el2 ? el1 : el2`.
BroadcastBinaryOpSimple walks the dims from the innermost, fusing a dimension into the
previous loop when the strides allow (CanFuseLoops), then RunBinaryOp recurses over the
fused loops; the innermost one has three forms (input 1 broadcast, input 2 broadcast,
none).  The fusing is computed on the host exactly as the C does (`fused_loops`); the
counted code is the loops, with a BL/PUSH/POP frame per recursive call.

There is no measured reference-kernel case: the instruction sequence is written from the
C as gcc -O2 compiles such loops (LDRSB, LDRSB, CMP, IT, MOV, STRB, CMP, BNE per element;
a few instructions of stride/shape arithmetic per dimension), not fitted.  int16 (`elem`
2) is the same structure with LDRSH / STRH and strides in bytes.
"""
import math

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrsb, ldrsh, mov, mul, pop_pc, push,
                            str_sp, strb, strh, sub)


@kernel(inline=True)
def _load(m, address, elem):
    return ldrsb(m, address) if elem == 1 else ldrsh(m, address)


@kernel(inline=True)
def _store(m, address, value, elem):
    if elem == 1:
        strb(m, address, value)
    else:
        strh(m, address, value)


@kernel(inline=True)
def _op(m, el1, el2, is_max):
    """MaximumOp: el1 > el2 ? el1 : el2 (CMP; IT LE; MOVLE el1, el2); MinimumOp:
    el1 < el2 ? el1 : el2 (CMP; IT GE; MOVGE el1, el2)."""
    cmp(m, el1, el2)
    take = el1 <= el2 if is_max else el1 >= el2
    it(m, not take)
    if take:
        el1 = mov(m, el2)
    return el1


@kernel(inline=True)
def _row(m, a, b, out, n, a_stride, b_stride, is_max, elem):
    """RunBinaryOp at dim 0: a_stride 0 (a broadcast), b_stride 0, or both 1."""
    cmp(m, a_stride, 0)
    bcc(m, a_stride == 0)
    if a_stride != 0:
        cmp(m, b_stride, 0)
        bcc(m, b_stride == 0)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    a0 = 0
    b0 = 0
    if a_stride == 0:
        a0 = _load(m, a, elem)                             # const auto a_0 = *a;
    elif b_stride == 0:
        b0 = _load(m, b, elem)                             # const auto b_0 = *b;
    for i in range(n):
        x = a0 if a_stride == 0 else _load(m, a + elem * i, elem)
        y = b0 if b_stride == 0 else _load(m, b + elem * i, elem)
        _store(m, out + elem * i, _op(m, x, y, is_max), elem)   # output[i] = op(a[i], b[i]);
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)


@kernel(inline=True)
def _call(m, enter):
    """A recursive RunBinaryOp call's BL and frame, or its return."""
    if enter:
        bl(m)
        push(m, 9)
        for _ in range(4):                                 # the stacked arguments, dim - 1
            ldr_sp(m)
        sub(m, 0, 1)
        cmp(m, 0, 0)                                       # dim == 0
        bcc(m, True)
    else:
        pop_pc(m, 9)


@kernel
def flat(m, a, b, out, n, is_max, elem):
    """The equal-shape loop (MatchingElementsSize, then the element loop)."""
    push(m, 4)
    for _ in range(4):                                     # FlatSize() of the three shapes
        mul(m, 0, 0)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    for i in range(n):
        x = _load(m, a + elem * i, elem)
        y = _load(m, b + elem * i, elem)
        _store(m, out + elem * i, _op(m, x, y, is_max), elem)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)
    pop_pc(m, 4)
    return 0


@kernel
def broadcast(m, a, b, out, dims_count, loops, s0, s1, s2, s3, as0, as1, as2, as3, bs0, bs1,
              bs2, bs3, os1, os2, os3, is_max, elem):
    """BroadcastBinaryOpSimple: the fusing pass (per dim: dims, strides, CanFuseLoops
    compares), then RunBinaryOp over `loops` fused loops (shape s, strides as/bs/os in
    bytes; index 0 innermost)."""
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(3):                                     # ExtendedShape x 3
        ldr_sp(m)
        str_sp(m)
    for _ in range(dims_count):                            # the fusing loop, per dim
        for _ in range(3):
            ldr_sp(m)                                      # Dims(i) x 3
        for _ in range(3):
            cmp(m, 0, 0)                                   # <= 0, == 1 tests
            bcc(m, False)
        for _ in range(3):
            mul(m, 0, 0)                                   # accum strides *= dim
        for _ in range(2):
            str_sp(m)
        add(m, 0, 0)
        cmp(m, 0, 0)
        bcc(m, True)
    _call(m, True)
    if loops == 1:
        _row(m, a, b, out, s0, as0, bs0, is_max, elem)
    else:
        for i3 in range(s3 if loops == 4 else 1):
            if loops == 4:
                _call(m, True)
            a3, b3, o3 = a + i3 * as3, b + i3 * bs3, out + i3 * os3
            for i2 in range(s2 if loops >= 3 else 1):
                if loops >= 3:
                    _call(m, True)
                a2, b2, o2 = a3 + i2 * as2, b3 + i2 * bs2, o3 + i2 * os2
                for i1 in range(s1):
                    _call(m, True)
                    _row(m, a2 + i1 * as1, b2 + i1 * bs1, o2 + i1 * os1, s0, as0, bs0, is_max,
                         elem)
                    _call(m, False)
                    add(m, 0, as1)                         # a = a + a_stride_0; ...
                    add(m, 0, bs1)
                    add(m, 0, os1)
                    cmp(m, i1 + 1, s1)
                    bcc(m, i1 + 1 < s1)
                if loops >= 3:
                    _call(m, False)
                    add(m, 0, as2)
                    add(m, 0, bs2)
                    add(m, 0, os2)
                    cmp(m, i2 + 1, s2)
                    bcc(m, i2 + 1 < s2)
            if loops == 4:
                _call(m, False)
                add(m, 0, as3)
                add(m, 0, bs3)
                add(m, 0, os3)
                cmp(m, i3 + 1, s3)
                bcc(m, i3 + 1 < s3)
    _call(m, False)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


def fused_loops(shape1, shape2, out_shape):
    """BroadcastBinaryOpSimple's loop fusing: (shape, a_strides, b_strides, o_strides) of the
    fused loops, innermost first."""
    n = max(len(out_shape), len(shape1), len(shape2))
    ext = [[1] * (n - len(s)) + list(s) for s in (shape1, shape2, out_shape)]
    a_acc = b_acc = o_acc = 1
    loops = []                                             # [shape, a, b, o]

    def can_fuse(out_dim, stride, expected, next_stride):
        if out_dim == 1:
            return True
        return stride == 0 if next_stride == 0 else stride == expected
    for i in range(n - 1, -1, -1):
        d1, d2, do = ext[0][i], ext[1][i], ext[2][i]
        a_s = 0 if d1 == 1 and do != 1 else a_acc
        b_s = 0 if d2 == 1 and do != 1 else b_acc
        o_s = o_acc
        if loops and can_fuse(do, a_s, a_acc, loops[-1][1]) and \
                can_fuse(do, b_s, b_acc, loops[-1][2]) and can_fuse(do, o_s, o_acc, loops[-1][3]):
            loops[-1][0] *= do
        else:
            loops.append([do, a_s, b_s, o_s])
        a_acc *= d1
        b_acc *= d2
        o_acc *= do
    return loops, n


def run_max_min(m, is_max, shape1, shape2, out_shape, a, b, out, tracer=None, elem=1):
    """`elem` bytes per value: int8 (1) or int16 (2)."""
    if list(shape1) == list(shape2):
        run(flat, m, a, b, out, math.prod(out_shape), is_max, elem, tracer=tracer)
    else:
        loops, n = fused_loops(shape1, shape2, out_shape)
        loops = [[d, elem * sa, elem * sb, elem * so] for d, sa, sb, so in loops]
        pad = [[1, 0, 0, 0]] * (4 - len(loops))
        s, as_, bs, os_ = zip(*(loops + pad))
        run(broadcast, m, a, b, out, n, len(loops), *s, *as_, *bs, *os_[1:], is_max, elem,
            tracer=tracer)
    return [f"tflite::reference_ops::MaximumMinimumBroadcastSlow<int{8 * elem}_t, "
            f"{'MaximumOp' if is_max else 'MinimumOp'}>"]


def shapes(case):
    """(input 1, input 2, output) shapes of a max/min case (4-D cmsis_nn_dims; a model's
    case keeps the tensors' own ranks in `tensor_shapes`, which the reference kernel
    compares)."""
    if "tensor_shapes" in case:
        return [list(s) for s in case["tensor_shapes"]]
    return [[case[k][d] for d in "nhwc"] for k in ("input_1_dims", "input_2_dims", "output_dims")]


def run_reference(m, case, addr, tracer=None):
    s1, s2, so = shapes(case)
    return run_max_min(m, case["family"] == "maximum", s1, s2, so, addr["input"],
                       addr["input2"], addr["output"], tracer)
