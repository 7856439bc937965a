"""TFLite Micro's int16 LOGISTIC and TANH (logistic.cc / tanh.cc -> the int16
reference_integer_ops::Logistic / Tanh of kernels/internal/reference/integer_ops/logistic.h
and tanh.h), counted: linear interpolation in sigmoid_table_uint16 (in flash).

    multiplier == 0 (a power-of-two input scale): multiplier = 3 << left_shift, shift 0
    x = (in[i] * multiplier + round) >> left_shift      (round = 1 << (left_shift - 1) or 0)
    Logistic: uh = |x| >> 9, saturating at 255: (ua << 9) + (|x| & 0x1ff) (ub - ua),
              x >= 0 ? r + 2^9 : 2^25 - r + 2^9 - 1, then >> 10
    Tanh:     uh = |x| >> 8, saturating at 255: (ua << 8) + (|x| & 0xff) (ub - ua),
              x >= 0 ? r - 2^23 + 2^7 : -r + 2^23 + 2^7 - 1, then >> 8 (arithmetic)

Each function is transcribed from arm-none-eabi-gcc 12.2 -O2 -mthumb -mfloat-abi=soft
-DNDEBUG's disassembly of the two int16 functions compiled alone (the header's bodies) for
-mcpu=cortex-m4 (simd and reference paths: TFLM has no CMSIS-NN kernel for either op) and
-mcpu=cortex-m3 (scalar path), which differ only in the loop's layout (`table_branch`,
`loop_end`): an element costs LOGISTIC 23 / TANH 24 instructions on the M4 build (18 / 19
saturated), 22 / 23 on the M3 build (19 / 20 saturated).  Not transcribed: Tanh's
MatchingFlatSize over the two shapes (TFLM passes shapes to Tanh, a size to Logistic; the
loop bound is the element count here), and the inlining into LogisticEval / TanhEval (the
functions are compiled standalone; the Eval is the operators' EvalGlue).  Nothing is fitted,
and nothing is measured: ../shared has no 16x8 TFLM build, so the counts are unverified.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (
    add,
    asr,
    b,
    bcc,
    cbnz,
    cmp,
    eor,
    it,
    ldr_lit,
    ldr_sp,
    ldrh,
    ldrsh,
    lsl,
    lsr,
    mla,
    mov,
    pop_pc,
    push,
    strh,
    sub,
    ubfx,
    uxtb,
)

LOGISTIC_SATURATED = 0x7FFF << 10
LOGISTIC_NEGATIVE = (1 << 25) + (1 << 9) - 1
TANH_SATURATED = 0xFFFF << 8
TANH_NEGATIVE = (1 << 23) + (1 << 7) - 1


@kernel(inline=True)
def input_scaling(m, multiplier, left_shift):
    """The prologue both functions share: the power-of-two case (multiplier 0 -> 3 << shift,
    shift 0) or the rounding constant 1 << (shift - 1); returns (multiplier, shift, round)."""
    push(m, 9)                                            # stmdb {r4-r11, lr}
    ldr_sp(m)                                             # ptr_output_data (5th argument)
    cbnz(m, multiplier != 0)
    if multiplier == 0:
        scaled = lsl(m, mov(m, 3), left_shift)            # 3 << input_left_shift
        rounding = mov(m, 0)
        shift = mov(m, 0)
        mult = mov(m, scaled)
    else:
        cmp(m, left_shift, 0)
        it(m, 1 if left_shift > 0 else 3)                 # ittte gt
        if left_shift > 0:
            less = add(m, left_shift, -1)
            one = mov(m, 1)
            rounding = lsl(m, one, less)                  # 1 << (input_left_shift - 1)
        else:
            rounding = mov(m, 0)
        b(m)
        mult = multiplier
        shift = left_shift
    return mult, shift, rounding


@kernel(inline=True)
def scaled_input(m, inp, i, mult, shift, rounding):
    """((*ptr_input_data) * input_multiplier + round) >> input_left_shift and its abs."""
    v = ldrsh(m, inp + 2 * i)                             # ldrsh.w [lr, #2]!
    x = mla(m, mult, v, rounding)
    x = asr(m, x, shift)
    sign = x >> 31
    a = sub(m, eor(m, x, sign), sign)                     # abs(input_data)
    return x, a


@kernel(inline=True)
def table_branch(m, saturated, saturated_value):
    """The uh >= 255 test's branch.  M4 build: the saturated value was moved in before it and
    a BCS skips the table block; M3 build: the table block sits above the loop's load, a BCC
    goes there, the saturated arm is a MOV and a B back to the join."""
    if m.dsp:
        bcc(m, saturated)                                 # bcs over the table block
    else:
        bcc(m, not saturated)                             # bcc to the table block
        if saturated:
            mov(m, saturated_value)
            b(m)                                          # to the join


@kernel(inline=True)
def loop_end(m, i, size):
    """CMP of the output pointer with its end: M4 BNE back to the loop's top, M3 BEQ out
    (its loop enters at the load and falls through to it)."""
    cmp(m, 2 * i + 2, 2 * size)
    if m.dsp:
        bcc(m, i + 1 < size)                              # bne
    else:
        bcc(m, i + 1 == size)                             # beq


@kernel
def logistic_s16(m, table, inp, out, size, multiplier, left_shift):
    mult, shift, rounding = input_scaling(m, multiplier, left_shift)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        ldr_lit(m)                                        # 0x7FFF << 10
        ldr_lit(m)                                        # sigmoid_table_uint16
        ldr_lit(m)                                        # (1 << 25) + (1 << 9) - 1
        sub(m, inp, 2)
        add(m, out, size << 1)                            # the output's end
        if not m.dsp:
            b(m)                                          # M3: into the loop at its load
    for i in range(size):
        x, a = scaled_input(m, inp, i, mult, shift, rounding)
        uh = lsr(m, a, 9)
        cmp(m, a, 255 << 9)                               # uh >= 255
        result = LOGISTIC_SATURATED
        if m.dsp:
            mov(m, LOGISTIC_SATURATED)
        idx = add(m, uh, 1)
        ut = ubfx(m, a, 0, 9)                             # abs_input_data & 0x1ff
        saturated = (a & 0xFFFFFFFF) >= (255 << 9)
        table_branch(m, saturated, LOGISTIC_SATURATED)
        if not saturated:
            ua = ldrh(m, table + 2 * uh)
            ub = ldrh(m, table + 2 * idx)
            diff = sub(m, ub, ua)
            result = lsl(m, ua, 9)
            result = mla(m, ut, diff, result)             # (ua << 9) + ut * (ub - ua)
        cmp(m, x, 0)
        it(m, 1)                                          # ite ge: one arm fails
        if x >= 0:
            result = add(m, result, 1 << 9)
        else:
            result = sub(m, LOGISTIC_NEGATIVE, result)
        result = lsr(m, result, 10)
        strh(m, out + 2 * i, result)                      # strh.w [r4], #2
        loop_end(m, i, size)
    pop_pc(m, 9)
    return 0


@kernel
def tanh_s16(m, table, inp, out, size, multiplier, left_shift):
    mult, shift, rounding = input_scaling(m, multiplier, left_shift)
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        ldr_lit(m)                                        # 0xFFFF << 8
        ldr_lit(m)                                        # sigmoid_table_uint16
        ldr_lit(m)                                        # (1 << 23) + (1 << 7) - 1
        sub(m, inp, 2)
        add(m, out, size << 1)                            # the output's end
        if not m.dsp:
            b(m)                                          # M3: into the loop at its load
    for i in range(size):
        x, a = scaled_input(m, inp, i, mult, shift, rounding)
        uh = lsr(m, a, 8)
        cmp(m, a, 255 << 8)                               # uh >= 255
        result = TANH_SATURATED
        if m.dsp:
            mov(m, TANH_SATURATED)
        idx = add(m, uh, 1)
        ut = uxtb(m, a, 0)                                # (uint8_t)abs_input_data
        saturated = (a & 0xFFFFFFFF) >= (255 << 8)
        table_branch(m, saturated, TANH_SATURATED)
        if not saturated:
            ua = ldrh(m, table + 2 * uh)
            ub = ldrh(m, table + 2 * idx)
            diff = sub(m, ub, ua)
            result = lsl(m, ua, 8)
            result = mla(m, ut, diff, result)             # (ua << 8) + ut * (ub - ua)
        cmp(m, x, 0)
        shifted = add(m, result, -(1 << 24))
        it(m, 1)                                          # ite ge: one arm fails
        if x >= 0:
            result = add(m, shifted, (1 << 23) + (1 << 7))   # r - 2^23 + 2^7
        else:
            result = sub(m, TANH_NEGATIVE, result)
        result = asr(m, result, 8)                        # result >>= (9 - 1)
        strh(m, out + 2 * i, result)
        loop_end(m, i, size)
    pop_pc(m, 9)
    return 0


def run_logistic(m, case, addr, tracer=None):
    run(logistic_s16, m, addr["sigmoid_table"], addr["input"], addr["output"], case["size"],
        case["multiplier"], case["left_shift"], tracer=tracer)
    return ["reference_integer_ops::Logistic (int16)"]


def run_tanh(m, case, addr, tracer=None):
    run(tanh_s16, m, addr["sigmoid_table"], addr["input"], addr["output"], case["size"],
        case["multiplier"], case["left_shift"], tracer=tracer)
    return ["reference_integer_ops::Tanh (int16)"]
