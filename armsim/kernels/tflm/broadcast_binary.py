"""TFLite Micro's broadcast ADD, MUL, SUB and SQUARED_DIFFERENCE (int8, int16), counted: the reference
kernels TFLM runs when ProcessBroadcastShapes finds the inputs' extended shapes differ -- in
the CMSIS-NN build too (cmsis_nn/add.cc and mul.cc call arm_elementwise_* only without a
broadcast):

    ADD int8   reference_integer_ops::BroadcastAdd4DSlow -> BroadcastBinaryFunction6DSlow
    ADD int16  reference_ops::BroadcastAdd4DSlow<int16_t> -> BroadcastAdd6DSlow (its lambda)
    MUL        reference_integer_ops::BroadcastMul4DSlow<T> -> BroadcastMul6DSlow (its lambda)
    SUB        reference_ops::BroadcastQuantSubSlow<T> -> BroadcastSubCommon (a lambda)
    SQUARED_DIFFERENCE  reference_integer_ops::BroadcastBinaryFunction4DSlow<T> (-> 6DSlow)
               with SquaredDifference<T> (kernels/tflm/squared_difference.py's compiled
               callee), when its Prepare found the input shapes differ

all of which end in reference_ops::BroadcastBinaryOpSimple (broadcast_loop.h): over the
ranks extended to dims_count = max(ranks), from the innermost dim outwards, each dim gets
the strides (0 where an input is broadcast) and is fused into the previous loop when
CanFuseLoops holds for both inputs and the output; RunBinaryOp then recurses over the fused
loops, the innermost one running the element function with a hoisted scalar when one input
has stride 0 there.  The loop set-up is done on the host (`fused_loops`, the C's algorithm)
and its instructions are issued per dim in the kernel.

RunBinaryOp (its frames, the per-call argument copies, the three innermost loops) and the
element functions are transcribed from gcc's disassembly of broadcast_loop.h and the int8
ADD / MUL reference code (retyped with TFLM's RuntimeShape / ArithmeticParams, not
committed) compiled with arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4 -mthumb -DNDEBUG: ADD's
AddFunc stays out of line and is called through the lambda's function pointer (BLX, PUSH
{r4, r5}, its three MultiplyByQuantizedMultiplierSmallerThanOneExp in squared_difference.py's
compiled sequence, SXTB, POP, BX); MUL's lambda is inlined around TFLM's out-of-line
MultiplyByQuantizedMultiplier.  The LDM / STM copying the ADD lambda are counted as LDRD /
STRD of the stack.  Run on unicorn's Cortex-M4 with the same operands the compiled code
executes, for ADD / MUL of (2,3,1)+(1,3,4), (1,4,4,3)+(3), (1)+(2,5), (2,1,3,1,2)+(1,4,1,5,1),
(1,8,8,16)+(1,1,1,16), (1,8,8,16)+(1,8,8,1): ADD 3133, 6107, 1222, 31816, 107225, 105648;
MUL 1880, 3674, 763, 19332, 55302, 54140 instructions, and this port counts ADD 2896, 5881,
1056, 31487, 106962, 105385; MUL 1644, 3442, 606, 18857, 54985, 53823: the loops match, the
remaining 160-330 instructions are BroadcastBinaryOpSimple's set-up (ExtendedShape copies,
the stride / fusion loop), still an estimate from the C.  SUB's element function (AddFunc
with SUB), SQUARED_DIFFERENCE's call of its element function and the int16 instances (LDRSH
/ STRH / SXTH) take the same code, not compiled.
Nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, blx, bx, cbnz, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh,
                            lsl, mov, mul, pop, pop_pc, push, str_sp, strb, strd_sp, strh, sub,
                            sxtb, sxth)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.squared_difference import (_divide_by_pot, _high_mul,
                                                    _squared_difference)
from armsim.kernels.tflm.squared_difference import params as squared_difference_params

MAX_RANK = 8                        # BroadcastBinaryOpSimple's kMaxRank
INT32_MIN = -(2**31)
ADD, MUL, SUB, SQUARED_DIFFERENCE = 0, 1, 2, 3
NAMES = {(SQUARED_DIFFERENCE, 1): "tflite::reference_integer_ops::BroadcastBinaryFunction4DSlow"
                                  "<int8_t> (SquaredDifference)",
         (SQUARED_DIFFERENCE, 2): "tflite::reference_integer_ops::BroadcastBinaryFunction4DSlow"
                                  "<int16_t> (SquaredDifference)",
         (SUB, 1): "tflite::reference_ops::BroadcastQuantSubSlow<signed char>",
         (SUB, 2): "tflite::reference_ops::BroadcastQuantSubSlow<short>",
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
def _store(m, address, value, element_bytes):
    if element_bytes == 1:
        strb(m, address, value)
    else:
        strh(m, address, value)


@kernel(inline=True)
def _scaled(m, x, multiplier, shift):
    """MultiplyByQuantizedMultiplierSmallerThanOneExp inside AddFunc, after its CMP / BEQ of
    x against the multiplier: the INT32_MIN test when they are equal (never both INT32_MIN
    for 8- or 16-bit inputs), squared_difference.py's compiled SMULL / nudge / UBFX and
    RoundingDivideByPOT sequences (the same gcc output)."""
    if x == multiplier:
        cmp(m, multiplier, INT32_MIN)
        bcc(m, True)                                    # bne.w back
    high, sign = _high_mul(m, x, multiplier, True)
    return _divide_by_pot(m, high, shift, sign, True)


@kernel(inline=True)
def _add_func(m, x, y, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, subtract,
              element_bytes):
    """AddFunc(x, y, params) as gcc compiles it out of line (BroadcastBinaryFunction6DSlow's
    lambda calls it through the function pointer: the caller's BLX); SUB's function the same
    with SUB for the ADD (not compiled: an estimate)."""
    ldr_sp(m)                                           # params.input1_offset
    push(m, 2)                                          # push {r4, r5}
    ldr_sp(m)                                           # params.left_shift
    ldr_sp(m)                                           # params.input1_multiplier
    input1_val = add(m, x, p0)
    ldr_sp(m)                                           # params.input2_offset
    shifted_input1_val = lsl(m, input1_val, p2)
    input2_val = add(m, y, p1)
    cmp(m, p3, shifted_input1_val)
    ldr_sp(m)                                           # params.input1_shift
    shifted_input2_val = lsl(m, input2_val, p2)
    bcc(m, p3 == shifted_input1_val)                    # beq.w: the overflow test
    scaled_input1_val = _scaled(m, shifted_input1_val, p3, p4)
    ldrd_sp(m)                                          # input2_multiplier, input2_shift
    cmp(m, p5, shifted_input2_val)
    bcc(m, p5 == shifted_input2_val)
    scaled_input2_val = _scaled(m, shifted_input2_val, p5, p6)
    ldr_sp(m)                                           # params.output_multiplier
    if subtract:
        raw = sub(m, scaled_input1_val, scaled_input2_val)
    else:
        raw = add(m, scaled_input2_val, scaled_input1_val)
    cmp(m, p7, raw)
    ldr_sp(m)                                           # params.output_shift
    bcc(m, p7 == raw)
    raw_output = _scaled(m, raw, p7, p8)
    ldr_sp(m)                                           # params.output_offset
    ldrd_sp(m)                                          # quantized_activation_min, _max
    raw_output = add(m, raw_output, p9)
    raw_output = max_lt(m, raw_output, p10)             # std::max
    raw_output = min_ge(m, raw_output, p11)             # std::min
    if element_bytes == 1:
        raw_output = sxtb(m, raw_output, 0)             # static_cast<int8_t>
    else:
        raw_output = sxth(m, raw_output, 0)             # static_cast<int16_t>
    pop(m, 2)
    bx(m)
    return raw_output


@kernel(inline=True)
def _mul_element(m, x, y, x_hoisted, y_hoisted, a, b, element_bytes, p0, p1, p7, p8, p9, p10,
                 p11):
    """BroadcastMul6DSlow's lambda, inlined into RunBinaryOp's loop; the three loops (a
    scalar first, second, none) order the loads and the params fields differently."""
    if x_hoisted:
        ldrd_sp(m)                                      # input1_offset, input2_offset
        y = _load(m, b, element_bytes)
        ldr_sp(m)                                       # output_offset
        input2_val = add(m, y, p1)
        input1_val = add(m, x, p0)
        ldrd_sp(m)                                      # output_multiplier, output_shift
    elif y_hoisted:
        x = _load(m, a, element_bytes)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        input1_val = add(m, x, p0)
        input2_val = add(m, y, p1)
        ldrd_sp(m)
    else:
        x = _load(m, a, element_bytes)
        ldr_sp(m)
        y = _load(m, b, element_bytes)
        ldr_sp(m)
        input1_val = add(m, x, p0)
        ldr_sp(m)
        input2_val = add(m, y, p1)
    product = mul(m, input1_val, input2_val)
    if not x_hoisted and not y_hoisted:
        ldrd_sp(m)
    bl(m)
    acc = MultiplyByQuantizedMultiplier(m, product, p7, p8)
    if x_hoisted:
        ldrd_sp(m)                                      # quantized_activation_min, _max
        acc = add(m, p9, acc)
        acc = max_lt(m, acc, p10)
        acc = min_ge(m, acc, p11)
    else:
        ldr_sp(m)                                       # quantized_activation_min
        acc = add(m, p9, acc)
        acc = max_lt(m, acc, p10)
        ldr_sp(m)                                       # quantized_activation_max
        acc = min_ge(m, acc, p11)
    return acc


@kernel(inline=True)
def _frame(m, func):
    """RunBinaryOp's entry: its frame, output_shape / output_stride / a_stride / b_stride at
    dim loaded (from the caller's arrays), the dim == 0 test (CBNZ)."""
    push(m, 9)
    sub(m, 0, 52)
    if func == MUL:
        mov(m, 0)
        ldrd_sp(m)
        mov(m, 0)
        for _ in range(5):
            ldr_sp(m)
        mov(m, 0)
        ldr_sp(m)
    else:
        ldrd_sp(m)
        mov(m, 0)
        for _ in range(2):
            ldr_sp(m)
        ldr_sp(m)                                       # output_shape[dim]
        ldr_sp(m)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)                                       # output_stride[dim]
        ldr_sp(m)                                       # a_stride[dim]
        mov(m, 0)
        ldr_sp(m)                                       # b_stride[dim]


@kernel(inline=True)
def _enter(m, func, n):
    """RunBinaryOp at dim > 0: the frame, CBNZ taken, dim -= 1, the empty-loop test and the
    values kept for the loop."""
    _frame(m, func)
    cbnz(m, True)
    sub(m, 0, 1)                                        # dim -= 1
    cmp(m, n, 0)
    bcc(m, n == 0)
    if func == MUL:
        strd_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
    else:
        add(m, 0, 16)
        strd_sp(m)
        str_sp(m)
        str_sp(m)
        for _ in range(4):
            mov(m, 0)
        str_sp(m)


@kernel(inline=True)
def _call(m, func):
    """One iteration's call RunBinaryOp(a, b, output, ..., dim, op): the stacked arguments
    (the lambda copied by value for ADD: LDM / STM, counted as LDRD / STRD of the stack)."""
    if func == MUL:
        for _ in range(5):
            ldr_sp(m)
            str_sp(m)
        for _ in range(3):
            mov(m, 0)
        ldr_sp(m)
        add(m, 0, 1)
    else:
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, 0, 104)
        ldrd_sp(m)                                      # ldmia r1, {r0, r1}: the lambda
        ldr_sp(m)
        ldr_sp(m)
        strd_sp(m)                                      # stmia ip, {r0, r1}
        for _ in range(4):
            ldr_sp(m)
            str_sp(m)
        for _ in range(3):
            mov(m, 0)
        add(m, 0, 1)
    bl(m)


@kernel(inline=True)
def _advance(m, i, n):
    """After the call: the loop test and a, b, output advanced by their strides."""
    cmp(m, n, i + 1)
    add(m, 0, 0)
    add(m, 0, 0)
    add(m, 0, 0)
    bcc(m, i + 1 < n)


@kernel(inline=True)
def _innermost(m, func, element_bytes, a, b, out, n, a_stride, b_stride, p0, p1, p2, p3, p4,
               p5, p6, p7, p8, p9, p10, p11):
    """RunBinaryOp at dim 0 (called with BL): which input is a scalar, then the element
    loop; ADD / SUB call AddFunc through the pointer (BLX), MUL's lambda is inlined."""
    _frame(m, func)
    cbnz(m, False)
    x0 = 0
    y0 = 0
    if func == MUL:
        cmp(m, a_stride, 0)
        bcc(m, a_stride != 0)
        if a_stride != 0:
            cbnz(m, b_stride != 0)
    else:
        cmp(m, a_stride, 0)
        bcc(m, a_stride != 0)
        if a_stride != 0:
            cbnz(m, b_stride != 0)
    if a_stride == 0:
        x0 = _load(m, a, element_bytes)                 # const auto a_0 = *a
    elif b_stride == 0:
        y0 = _load(m, b, element_bytes)                 # const auto b_0 = *b
    cmp(m, n, 0)
    bcc(m, n == 0)
    sub(m, 0, 1)
    sub(m, 0, 1)
    if a_stride != 0 and b_stride != 0:
        sub(m, 0, 1)
    add(m, 0, n)
    if func != MUL:
        mov(m, 0)                                       # the function pointer
    for i in range(n):
        ai = a + element_bytes * i
        bi = b + element_bytes * i
        if func == MUL:
            r = _mul_element(m, x0, y0, a_stride == 0, b_stride == 0, ai, bi, element_bytes,
                             p0, p1, p7, p8, p9, p10, p11)
        else:
            x = x0
            y = y0
            if a_stride != 0:
                x = _load(m, ai, element_bytes)
            if b_stride != 0:
                y = _load(m, bi, element_bytes)
            if a_stride == 0 or b_stride == 0:
                mov(m, 0)
            mov(m, 0)                                   # r2 = &params
            blx(m)
            if func == SQUARED_DIFFERENCE:
                r = _squared_difference(m, x, y, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9,
                                        element_bytes)
            else:
                r = _add_func(m, x, y, p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11,
                              func == SUB, element_bytes)
        cmp(m, i + 1, n)
        _store(m, out + element_bytes * i, r, element_bytes)
        bcc(m, i + 1 < n)
    add(m, 0, 52)
    pop_pc(m, 9)


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
            _call(m, func)
        for k in range(entered, 0, -1):
            _enter(m, func, o_shape[k])
            _call(m, func)
        _innermost(m, func, element_bytes, a, b, out, n, a_strides[0], b_strides[0], p0, p1,
                   p2, p3, p4, p5, p6, p7, p8, p9, p10, p11)
        rest = t
        for k in range(1, top + 1):                     # the loops whose iteration ends
            d = rest % o_shape[k]
            rest //= o_shape[k]
            _advance(m, d, o_shape[k])
            if d != o_shape[k] - 1:
                break
            add(m, 0, 52)                               # this loop's call returns
            pop_pc(m, 9)
    pop_pc(m, 9)
    return 0


def run_broadcast(m, func, element_bytes, inputs, output, shapes, params, tracer=None):
    """BroadcastBinaryOpSimple of `func` over the operands at `inputs` (two addresses) with
    `shapes` (input1, input2, output) and the 12 ArithmeticParams values `params`; returns
    the kernel chain."""
    dims, top, o_shape, a_strides, b_strides, o_strides, setup = fused_loops(*shapes)
    a, b = inputs
    run(broadcast_binary, m, func, element_bytes, a, b, output, dims, top, o_shape,
        a_strides, b_strides, o_strides, setup, *params, tracer=tracer)
    names = [NAMES[func, element_bytes], LOOP]
    return names + [MBQM] if func in (MUL, SQUARED_DIFFERENCE) else names


def run_reference(m, case, addr, tracer=None):
    """A broadcast ADD / MUL / SUB / SQUARED_DIFFERENCE case (operators/add.py, mul.py, sub.py,
    squared_difference.py): the operands at addr["inputs"]."""
    family = case["family"]
    if family == "squared_difference":
        q_max = 127 if case["elem"] == 1 else 32767
        return run_broadcast(m, SQUARED_DIFFERENCE, case["elem"], addr["inputs"], addr["output"],
                             (case["input1_shape"], case["input2_shape"], case["output_shape"]),
                             squared_difference_params(case) + (-q_max - 1, q_max), tracer)
    func = SUB if family == "sub" else ADD if family.startswith("elementwise_add") else MUL
    c = case
    params = (c["input_1_offset"], c["input_2_offset"], c.get("left_shift", 0),
              c.get("input_1_mult", 0), c.get("input_1_shift", 0), c.get("input_2_mult", 0),
              c.get("input_2_shift", 0), c["out_mult"], c["out_shift"], c["out_offset"],
              c["out_activation_min"], c["out_activation_max"])
    return run_broadcast(m, func, case["element_bytes"], addr["inputs"], addr["output"],
                         (c["input1_shape"], c["input2_shape"], c["output_shape"]), params,
                         tracer)
