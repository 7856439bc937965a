"""TFLite Micro's broadcast ADD, MUL (int8, int16) and SUB (int8), counted: the reference
kernels TFLM runs when ProcessBroadcastShapes finds the inputs' extended shapes differ -- in
the CMSIS-NN build too (cmsis_nn/add.cc and mul.cc call arm_elementwise_* only without a
broadcast):

    ADD int8   reference_integer_ops::BroadcastAdd4DSlow -> BroadcastBinaryFunction6DSlow
    ADD int16  reference_ops::BroadcastAdd4DSlow<int16_t> -> BroadcastAdd6DSlow (its lambda)
    MUL        reference_integer_ops::BroadcastMul4DSlow<T> -> BroadcastMul6DSlow (its lambda)
    SUB int8   reference_ops::BroadcastQuantSubSlow<int8_t> -> BroadcastSubCommon (a lambda)

all of which end in reference_ops::BroadcastBinaryOpSimple (broadcast_loop.h): over the
ranks extended to dims_count = max(ranks), from the innermost dim outwards, each dim gets
the strides (0 where an input is broadcast) and is fused into the previous loop when
CanFuseLoops holds for both inputs and the output; RunBinaryOp then recurses over the fused
loops, the innermost one running the element function with a hoisted scalar when one input
has stride 0 there.  The loop set-up is done on the host (`fused_loops`, the C's algorithm)
and its instructions are issued per dim in the kernel.

The element functions are the compiled ones of the elementwise reference kernels
(`elementwise_add.add_func`, `elementwise_mul.mul_func`, read off gcc 12.2 -O2 code; SUB's
is add_func with SUB, an estimate as kernels/tflm/sub.py says): the lambdas compute the same
thing with the same ArithmeticParams loads.  Everything else -- the set-up loop, the
ExtendedShape copies, RunBinaryOp's frames, pointer steps and loop tests -- is an estimate
from the C structure, not compiled, and no measurement exists: nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh, mov, mul,
                            pop_pc, push, str_sp, strb, strh)
from armsim.kernels.tflm.common import MBQM
from armsim.kernels.tflm.elementwise_add import add_func
from armsim.kernels.tflm.elementwise_mul import mul_func

MAX_RANK = 8                        # BroadcastBinaryOpSimple's kMaxRank
ADD, MUL, SUB = 0, 1, 2
NAMES = {(SUB, 1): "tflite::reference_ops::BroadcastQuantSubSlow<signed char>",
         (ADD, 1): "tflite::reference_integer_ops::BroadcastAdd4DSlow",
         (ADD, 2): "tflite::reference_ops::BroadcastAdd4DSlow<short>",
         (MUL, 1): "tflite::reference_integer_ops::BroadcastMul4DSlow<signed char>",
         (MUL, 2): "tflite::reference_integer_ops::BroadcastMul4DSlow<short>"}
LOOP = "tflite::reference_ops::BroadcastBinaryOpSimple > RunBinaryOp"


def needs_broadcast(shape1, shape2):
    """ProcessBroadcastShapes' answer: the shapes extended to one rank differ (so [1, 4]
    with [4] is elementwise)."""
    rank = max(len(shape1), len(shape2))
    return ([1] * (rank - len(shape1)) + list(shape1)) != \
        ([1] * (rank - len(shape2)) + list(shape2))


def fused_loops(shape1, shape2, out_shape):
    """BroadcastBinaryOpSimple's set-up: (dims_count, top, o_shape, a_strides, b_strides,
    o_strides, setup) with the loops innermost first, `top` = next_dim_idx, tuples padded to
    MAX_RANK; setup[j] (dim dims_count - 1 - j, the C's iteration order) = 2 * the
    CanFuseLoops calls made (they short-circuit) + 1 if that dim was fused."""
    dims = max(len(out_shape), len(shape1), len(shape2))
    ext = [[1] * (dims - len(s)) + [int(d) for d in s] for s in (shape1, shape2, out_shape)]
    a_strides, b_strides, o_strides, o_shape, setup = [], [], [], [], []
    a_acc = b_acc = o_acc = 1

    def can_fuse(output_dim, stride, expected, next_stride):
        if output_dim == 1:
            return True
        return stride == 0 if next_stride == 0 else stride == expected

    for i in range(dims - 1, -1, -1):
        d1, d2, do = ext[0][i], ext[1][i], ext[2][i]
        a = 0 if d1 == 1 and do != 1 else a_acc
        b = 0 if d2 == 1 and do != 1 else b_acc
        calls, fused = 0, bool(o_shape)
        for stride, expected, previous in ((a, a_acc, a_strides), (b, b_acc, b_strides),
                                           (o_acc, o_acc, o_strides)):
            if not fused:
                break
            calls += 1
            fused = can_fuse(do, stride, expected, previous[-1])
        if fused:
            o_shape[-1] *= do
        else:
            a_strides.append(a)
            b_strides.append(b)
            o_strides.append(o_acc)
            o_shape.append(do)
        setup.append(2 * calls + fused)
        a_acc, b_acc, o_acc = a_acc * d1, b_acc * d2, o_acc * do
    pad = [0] * (MAX_RANK - len(o_shape))
    return (dims, len(o_shape) - 1, tuple(o_shape + pad), tuple(a_strides + pad),
            tuple(b_strides + pad), tuple(o_strides + pad),
            tuple(setup + [0] * (MAX_RANK - dims)))


@kernel(inline=True)
def _load(m, address, element_bytes):
    if element_bytes == 1:
        return ldrsb(m, address)
    return ldrsh(m, address)


@kernel(inline=True)
def _element(m, func, element_bytes, a, b, x_hoisted, y_hoisted, x, y, p0, p1, p2, p3, p4, p5,
             p6, p7, p8, p9, p10, p11):
    """op(a[i], b[i]): the element loads (a hoisted scalar is not reloaded) and the inlined
    element function.  p0..p11: input1_offset, input2_offset, left_shift, input1 multiplier
    and shift, input2 multiplier and shift, output multiplier and shift, output_offset,
    activation min and max."""
    if func != MUL:
        ldrd_sp(m)                                      # input1_offset, input2_offset
        if not x_hoisted:
            x = _load(m, a, element_bytes)
        ldr_sp(m)                                       # left_shift
        if not y_hoisted:
            y = _load(m, b, element_bytes)
        return add_func(m, x, y, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11,
                        func == SUB)
    if not x_hoisted:
        x = _load(m, a, element_bytes)
    ldr_sp(m)                                           # params.input1_offset
    ldr_sp(m)                                           # params.input2_offset
    if not y_hoisted:
        y = _load(m, b, element_bytes)
    ldr_sp(m)                                           # params.output_offset
    return mul_func(m, x, y, p0, p1, p7, p8, p9, p10, p11)


@kernel(inline=True)
def _innermost(m, func, element_bytes, a, b, out, n, a_stride, b_stride, p0, p1, p2, p3, p4,
               p5, p6, p7, p8, p9, p10, p11):
    """RunBinaryOp at dim 0 (the callee after the caller's BL): which input is a scalar, then
    the element loop."""
    push(m, 8)
    ldrd_sp(m)                                          # output_shape[0], output_stride[0]
    ldr_sp(m)                                           # a_stride[0]
    ldr_sp(m)                                           # b_stride[0]
    cmp(m, 0, 0)                                        # dim == 0
    bcc(m, False)
    cmp(m, a_stride, 0)
    bcc(m, a_stride != 0)
    if a_stride != 0:
        cmp(m, b_stride, 0)
        bcc(m, b_stride != 0)
    x0 = 0
    y0 = 0
    if a_stride == 0:
        x0 = _load(m, a, element_bytes)                 # const auto a_0 = *a
    elif b_stride == 0:
        y0 = _load(m, b, element_bytes)                 # const auto b_0 = *b
    cmp(m, n, 0)
    bcc(m, n == 0)
    for i in range(n):
        r = _element(m, func, element_bytes, a + element_bytes * i * (a_stride != 0),
                     b + element_bytes * i * (b_stride != 0), a_stride == 0, b_stride == 0,
                     x0, y0, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11)
        if element_bytes == 1:
            strb(m, out + i, r)                         # output[i] = op(...)
        else:
            strh(m, out + 2 * i, r)
        add(m, i, 1)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)
    pop_pc(m, 8)


@kernel(inline=True)
def _enter(m):
    """RunBinaryOp at dim > 0: its frame, the dim's shape and strides, dim -= 1."""
    push(m, 9)
    ldrd_sp(m)                                          # output_shape[dim], output_stride[dim]
    ldrd_sp(m)                                          # a_stride[dim], b_stride[dim]
    cmp(m, 1, 0)                                        # dim == 0
    bcc(m, True)
    add(m, 0, -1)                                       # dim -= 1
    cmp(m, 1, 0)                                        # i < output_shape_0
    bcc(m, False)


@kernel(inline=True)
def _call(m):
    """The recursive call's arguments beyond r0-r3 (stacked) and the BL."""
    for _ in range(5):
        str_sp(m)
    bl(m)


@kernel(inline=True)
def _advance(m, i, n):
    """After the recursive call: a, b, output advanced by their strides, the loop test."""
    add(m, 0, 0)                                        # a += a_stride_0
    add(m, 0, 0)                                        # b += b_stride_0
    add(m, 0, 0)                                        # output += output_stride_0
    add(m, i, 1)
    cmp(m, i + 1, n)
    bcc(m, i + 1 < n)


@kernel
def broadcast_binary(m, func, element_bytes, input1_data, input2_data, output_data,
                     dims_count, top, o_shape, a_strides, b_strides, o_strides, setup, p0, p1,
                     p2, p3, p4, p5, p6, p7, p8, p9, p10, p11):
    """BroadcastBinaryOpSimple: the set-up per dim, then RunBinaryOp's recursion unrolled
    over the fused loops (digit k of the leaf counter is loop k's index)."""
    push(m, 9)
    for _ in range(3):                                  # DimensionsCount of the three shapes
        ldr_sp(m)
    cmp(m, 0, 0)                                        # std::max, twice
    it(m, True)
    cmp(m, 0, 0)
    it(m, True)
    cmp(m, dims_count, 0)
    bcc(m, dims_count <= 0)
    for _ in range(3):                                  # RuntimeShape::ExtendedShape x 3
        bl(m)
        for _ in range(dims_count):
            ldr_sp(m)
            str_sp(m)
            cmp(m, 0, 0)
            bcc(m, True)
    for j in range(dims_count):                         # the stride / fusion loop
        for _ in range(3):
            ldr_sp(m)                                   # the three extended dims
            cmp(m, 1, 0)
            bcc(m, False)                               # dim <= 0: empty operation
        for _ in range(2):                              # input_dim == 1 && output_dim != 1
            cmp(m, 1, 1)
            it(m, True)
            mov(m, 0)
        cmp(m, j, 0)                                    # next_dim_idx >= 0
        bcc(m, j == 0)
        for _ in range(setup[j] // 2):                  # CanFuseLoops, short-circuited
            cmp(m, 1, 1)                                # output_dim == 1
            bcc(m, True)
            ldr_sp(m)                                   # the previous loop's stride
            cmp(m, 0, 0)                                # next_stride == 0
            bcc(m, True)
            cmp(m, 0, 0)                                # stride == expected
            bcc(m, True)
        if setup[j] % 2:
            ldr_sp(m)                                   # o_shape[next_dim_idx] *= output_dim
            mul(m, 1, 1)
            str_sp(m)
        else:
            add(m, j, 1)                                # ++next_dim_idx
            for _ in range(4):                          # the new loop's strides and shape
                str_sp(m)
        for _ in range(3):                              # the accumulated strides
            mul(m, 1, 1)
        add(m, j, -1)
        cmp(m, j, 0)
        bcc(m, j + 1 < dims_count)
    bl(m)                                               # RunBinaryOp(..., next_dim_idx, op)
    outer = 1
    for k in range(1, top + 1):
        outer *= o_shape[k]
    n = o_shape[0]
    for t in range(outer):
        # digits of t, loop 1 fastest; `entered`: the loops whose call starts at this leaf
        a = input1_data
        b = input2_data
        out = output_data
        rest = t
        entered = 0
        still_zero = True
        for k in range(1, top + 1):
            d = rest % o_shape[k]
            rest //= o_shape[k]
            a += element_bytes * d * a_strides[k]
            b += element_bytes * d * b_strides[k]
            out += element_bytes * d * o_strides[k]
            if still_zero and d == 0:
                entered = k
            else:
                still_zero = False
        if t == 0:                                      # the first call: from above
            entered = top
        else:                                           # loop entered + 1 iterates again
            _call(m)
        for k in range(entered, 0, -1):
            _enter(m)
            _call(m)
        _innermost(m, func, element_bytes, a, b, out, n, a_strides[0], b_strides[0], p0, p1,
                   p2, p3, p4, p5, p6, p7, p8, p9, p10, p11)
        rest = t
        for k in range(1, top + 1):                     # the loops whose iteration ends
            d = rest % o_shape[k]
            rest //= o_shape[k]
            _advance(m, d, o_shape[k])
            if d != o_shape[k] - 1:
                break
            pop_pc(m, 9)                                # this loop's call returns
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    """A broadcast ADD / MUL / SUB case (operators/add.py, mul.py, sub.py): the operands at
    addr["inputs"]."""
    family = case["family"]
    func = SUB if family == "sub" else ADD if family.startswith("elementwise_add") else MUL
    element_bytes = case["element_bytes"]
    dims, top, o_shape, a_strides, b_strides, o_strides, setup = fused_loops(
        case["input1_shape"], case["input2_shape"], case["output_shape"])
    a, b = addr["inputs"]
    c = case
    params = (c["input_1_offset"], c["input_2_offset"], c.get("left_shift", 0),
              c.get("input_1_mult", 0), c.get("input_1_shift", 0), c.get("input_2_mult", 0),
              c.get("input_2_shift", 0), c["out_mult"], c["out_shift"], c["out_offset"],
              c["out_activation_min"], c["out_activation_max"])
    run(broadcast_binary, m, func, element_bytes, a, b, addr["output"], dims, top, o_shape,
        a_strides, b_strides, o_strides, setup, *params, tracer=tracer)
    names = [NAMES[func, element_bytes], LOOP]
    return names + [MBQM] if func == MUL else names
