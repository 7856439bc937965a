"""tflite::EvalLstm<int8_t, int8_t, int16_t, int32_t> (micro/kernels/lstm_eval.h / lstm_eval.cc),
the int8x8_16 LSTM of TFLM's reference UNIDIRECTIONAL_SEQUENCE_LSTM, with the four int16
scratch buffers its Prepare requests (batch * hidden each) and the variable tensors it reads
and updates (hidden state int8, cell state int16).  `act_bytes` 2 runs the 16x8 instance
EvalLstm<int16_t, int8_t, int16_t, int64_t> (kernels/tflm/lstm_s16.py says where it differs).

Per step (LstmStep): for each gate (CalculateLstmGate), reference_integer_ops::FullyConnected
of the input (int8 -> int16, bias, input zero point) and of the hidden state (no bias,
hidden zero point) into buffer3, AddElementWise (saturating int16), then Logistic (int16,
sigmoid_table_uint16) or Tanh(-12); UpdateLstmCell: cell = Mul(forget, cell); buffer1 =
Mul(input, cell_gate); cell = AddElementWise(cell, buffer1), Clipping when cell_clip > 0 (a
float compare: libgcc's __aeabi_fcmpgt in the soft-float build); the output gate;
UpdateLstmHidden: Tanh(cell_state_scale_power) and Mul -> the int8 hidden state; memcpy to
the output.  MultiplyByQuantizedMultiplier is the called function (`common`).

Every function follows the disassembly of TFLM 90b983c's lstm_eval.cc, of
unidirectional_sequence_lstm.cc (where the templates are instantiated: EvalLstm is inlined
into the Eval, UpdateLstmCell<int16_t> stays out of line) and of kernel_util.cc's
GetTensorShape, compiled with arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -mthumb
-mfloat-abi=soft -DNDEBUG (as the other TFLM ports); the TFLITE_DCHECKs' operands (GetTensorShape of the input
and state tensors) are still evaluated in that build, so those calls are issued too.  There
is no measured count of this kernel in ../shared.  Loads of the params / step-manager structs
and of the stack frames are stack-slot ops (no memory traffic); the RuntimeShape copies that
GetTensorShape makes with newlib's memcpy (dims from the tensor to the caller's stack) are
done between two words of a small SRAM buffer (`shape_scratch`, standing in for the stack),
so their instructions count as in the firmware.  gcc's byte loads of struct flags (LDRB), LDM
of a 2-word shape and TEQ in libgcc's float compare are issued as stack-slot LDR and CMP.
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (
    adc,
    add,
    asr,
    b,
    bcc,
    bl,
    bx,
    carry_of_add,
    cbnz,
    cbz,
    cmn,
    cmp,
    eor,
    it,
    ldr,
    ldr_lit,
    ldr_sp,
    ldrd_sp,
    ldrh,
    ldrsb,
    ldrsh,
    ldrsh_sp,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    mvn,
    orr,
    pop,
    pop_pc,
    push,
    rsb,
    str_sp,
    strb,
    strd_sp,
    strh,
    sub,
    sxth,
    ubfx,
    uxtb,
)
from armsim.kernels.libc import memcpy
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.multiply_s64 import MultiplyByQuantizedMultiplier64

NAME = "tflite::EvalLstm<signed char, signed char, short, long>"
INT16_MIN, INT16_MAX = -32768, 32767
# gate tuple: (input fc multiplier, shift, weights, bias, recurrent fc multiplier, shift,
#              weights, tanh (1) or sigmoid (0))
GATE_IN_MULT, GATE_IN_SHIFT, GATE_IN_W, GATE_BIAS = 0, 1, 2, 3
GATE_REC_MULT, GATE_REC_SHIFT, GATE_REC_W, GATE_TANH = 4, 5, 6, 7
# params tuple (see run_reference)
P_INPUT_OFFSET, P_HIDDEN_ZP, P_INPUT_SIZE, P_STATE_SIZE = 0, 1, 2, 3
P_F2C_MULT, P_F2C_SHIFT, P_I2C_MULT, P_I2C_SHIFT, P_CLIP = 4, 5, 6, 7, 8
P_CELL_SCALE_POWER, P_OUT_MULT, P_OUT_SHIFT, P_TIME_MAJOR, P_BATCH, P_TIME_STEPS = (
    9, 10, 11, 12, 13, 14)
P_CLIP_ENABLED = 15       # the float cell_clip > 0 (the quantized clip may round to 0)


@kernel(inline=True)
def _flat_size(m, dims):
    """RuntimeShape::FlatSize over `dims` dimensions: LDR (pre-indexed), CMP, MUL, BNE each."""
    for k in range(dims):
        ldr_sp(m)
        cmp(m, k + 1, dims)
        mul(m, 1, 1)
        bcc(m, k + 1 < dims)


@kernel
def GetTensorShape(m, shape_scratch, dims):
    """tflite::micro::GetTensorShape: the RuntimeShape from the tensor's dims (memcpy of the
    dims words; a NULL tensor, dims 0: an empty shape)."""
    push(m, 2)                                                # push {r4, lr}
    mov(m, 0)
    cbz(m, dims == 0)                                         # if (tensor == nullptr)
    if dims == 0:
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        pop_pc(m, 2)
        return
    ldr_sp(m)                                                 # tensor->dims
    cbz(m, False)
    ldr_sp(m)                                                 # dims->size
    str_sp(m)
    n = lsl(m, dims, 2)
    bl(m)
    memcpy(m, shape_scratch + 16, shape_scratch, n)          # the dims words
    mov(m, 0)
    pop_pc(m, 2)


@kernel
def StateShape(m, time_major):
    """LstmStepManager::StateShape / InputShape: a 2-D RuntimeShape {batch or 1, size}."""
    ldr_sp(m)
    ldr_sp(m)                                                 # ldrb: size_info.time_major
    sub(m, 0, 0)
    mov(m, 0)
    cbz(m, not time_major)
    if time_major:
        ldr_sp(m)                                             # batch_size
    else:
        mov(m, 1)
        b(m)
    ldr_sp(m)
    strd_sp(m)
    mov(m, 0)
    ldr_sp(m)                                                 # ldmia r2!, {r0, r1}
    mov(m, 0)
    mov(m, 2)
    str_sp(m)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    add(m, 0, 0)
    bx(m)


@kernel(inline=True)
def _fully_connected_shapes(m, input_data, batches):
    """The part of both FullyConnected instances' prologues gcc emits alike: the params'
    output fields, FlatSizeSkipDim(output_shape, 1) and the two depths."""
    ldrd_sp(m)                                                # output_offset, output_multiplier
    ldr_sp(m)                                                 # output dims count
    str_sp(m)
    ldr_sp(m)                                                 # output_shift
    str_sp(m)
    cmp(m, 2, 0)
    ldr_sp(m)                                                 # quantized_activation_min
    ldr_sp(m)                                                 # quantized_activation_max
    ldr_sp(m)                                                 # filter dims count
    str_sp(m)
    mov(m, input_data)
    add(m, 2, -1)
    bcc(m, False)
    mov(m, 1)                                                 # FlatSizeSkipDim(output_shape, 1)
    mov(m, 0)
    add(m, 0, 4)
    for i in range(2):
        cmp(m, 1, i)
        it(m, i == 1)                                         # the skipped dim's LDRNE fails
        if i != 1:
            ldr_sp(m)
        add(m, i, 1)
        it(m, i == 1)
        if i != 1:
            mul(m, 1, batches)
        cmp(m, 2, i + 1)
        bcc(m, i + 1 != 2)
    add(m, 0, 0)
    cmp(m, batches, 0)
    ldr_sp(m)                                                 # accum_depth = filter dims[last]
    ldr_sp(m)                                                 # output_depth = output dims[last]
    bcc(m, batches <= 0)


@kernel
def FullyConnected16(m, input_offset, output_multiplier, output_shift, input_data,
                     filter_data, bias_data, batches, accum_depth, output_depth, output_data):
    """reference_integer_ops::FullyConnected<int8_t, int8_t, int16_t, int32_t>: output offset
    0, filter offset 0, activation range int16; a [batches, output_depth] output."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)
    mov(m, 0)
    for _ in range(2):
        ldr_sp(m)                                             # params.input_offset, weights_offset
        str_sp(m)
    ldr_sp(m)                                                 # output_shape
    _fully_connected_shapes(m, input_data, batches)
    if batches > 0:
        lsl(m, output_depth, 1)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        add(m, output_data, 2 * output_depth)
        for _ in range(6):
            mov(m, 0)
    for bi in range(batches):
        cmp(m, output_depth, 0)
        it(m, output_depth > 0)
        if output_depth <= 0:
            add(m, 0, 0)
        bcc(m, output_depth <= 0)
        if output_depth > 0:
            for _ in range(3):
                ldr_sp(m)                                     # output_data, bias_data, filter_data
            str_sp(m)
            strd_sp(m)
            add(m, output_data, 0)
            add(m, input_data, accum_depth)
            str_sp(m)
        for out_c in range(output_depth):
            cmp(m, accum_depth, 0)
            it(m, accum_depth > 0)
            acc = 0
            if accum_depth <= 0:
                acc = mov(m, 0)
            bcc(m, accum_depth <= 0)
            if accum_depth > 0:
                f_ptr = filter_data + out_c * accum_depth
                in_ptr = input_data + bi * accum_depth
                sub(m, f_ptr, 1)
                mov(m, in_ptr)
                acc = mov(m, 0)                               # int32_t acc = 0;
                for d in range(accum_depth):                  # acc += filter_val * (input_val + input_offset)
                    input_val = ldrsb(m, in_ptr + d)
                    ldr_sp(m)                                 # input_offset
                    ldr_sp(m)                                 # weights_offset
                    input_val = add(m, input_val, input_offset)
                    filter_val = ldrsb(m, f_ptr + d)
                    filter_val = add(m, filter_val, 0)        # + filter_offset (0)
                    acc = mla(m, input_val, filter_val, acc)
                    ldr_sp(m)                                 # the row's end
                    cmp(m, d + 1, accum_depth)
                    bcc(m, d + 1 < accum_depth)
            ldr_sp(m)                                         # bias_data
            cbz(m, bias_data == 0)                            # if (bias_data)
            if bias_data != 0:
                acc = add(m, acc, ldr(m, bias_data + 4 * out_c))   # acc += bias_data[out_c];
            ldrd_sp(m)
            bl(m)
            acc = MultiplyByQuantizedMultiplier(m, acc, output_multiplier, output_shift)
            ldr_sp(m)
            acc = add(m, acc, 0)                              # acc_scaled += output_offset;
            acc = max_lt(m, acc, INT16_MIN)                   # std::max(acc_scaled, activation_min)
            acc = min_ge(m, acc, INT16_MAX)                   # std::min(acc_scaled, activation_max)
            strh(m, output_data + 2 * (out_c + output_depth * bi), acc)
            cmp(m, out_c + 1, output_depth)
            add(m, 0, 4)
            add(m, 0, accum_depth)
            bcc(m, out_c + 1 < output_depth)
        if output_depth > 0:
            ldrd_sp(m)
            ldr_sp(m)
            ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        ldr_sp(m)
        add(m, bi, 1)
        cmp(m, batches, bi + 1)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, bi + 1 < batches)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def FullyConnected16x8(m, input_offset, output_multiplier, output_shift, input_data,
                       filter_data, bias_data, batches, accum_depth, output_depth,
                       output_data):
    """lstm_internal::FullyConnected(int16 input, int8 filter, int64 bias, int16 output):
    reference_integer_ops::FullyConnected<int16_t, int8_t, int16_t, int64_t> inlined, an
    int64 accumulator (each int32 product added with ADDS / ADC), the 64-bit
    MultiplyByQuantizedMultiplier called per output; output offset 0, activation range
    int16."""
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)
    mov(m, 0)
    ldr_sp(m)                                                 # params.input_offset
    str_sp(m)
    ldr_sp(m)                                                 # params.weights_offset
    ldr_sp(m)                                                 # output_shape
    str_sp(m)
    _fully_connected_shapes(m, input_data, batches)
    if batches > 0:
        lsl(m, output_depth, 1)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        add(m, output_data, 2 * output_depth)
        add(m, input_data, 2 * accum_depth)
        str_sp(m)
        lsl(m, accum_depth, 1)
        mov(m, 0)
    for bi in range(batches):
        cmp(m, output_depth, 0)
        bcc(m, output_depth <= 0)
        if output_depth > 0:
            for _ in range(3):
                ldr_sp(m)                                     # output_data, bias_data, filter_data
            strd_sp(m)
            strd_sp(m)
            add(m, output_data, 0)
        for out_c in range(output_depth):
            lo = mov(m, 0)                                    # int64_t acc = 0;
            hi = 0
            cmp(m, accum_depth, 0)
            it(m, accum_depth > 0)
            if accum_depth <= 0:
                hi = mov(m, 0)
            bcc(m, accum_depth <= 0)
            if accum_depth > 0:
                f_ptr = filter_data + out_c * accum_depth
                in_ptr = input_data + 2 * bi * accum_depth
                sub(m, f_ptr, 1)
                hi = mov(m, 0)
                str_sp(m)
                for d in range(accum_depth):                  # acc += filter_val * (input_val + input_offset)
                    ldr_sp(m)                                 # the input pointer
                    input_val = ldrsh(m, in_ptr + 2 * d)
                    str_sp(m)
                    ldr_sp(m)                                 # input_offset
                    input_val = add(m, input_val, input_offset)
                    filter_val = ldrsb(m, f_ptr + d)
                    ldr_sp(m)                                 # filter_offset
                    filter_val = add(m, filter_val, 0)
                    product = mul(m, input_val, filter_val)
                    carry = carry_of_add(product, lo)
                    lo = add(m, product, lo)                  # ADDS / ADC: the int64 sum
                    hi = adc(m, hi, product >> 31, carry)
                    ldr_sp(m)
                    ldr_sp(m)                                 # the row's end
                    cmp(m, d + 1, accum_depth)
                    bcc(m, d + 1 < accum_depth)
            ldr_sp(m)                                         # bias_data
            cbz(m, bias_data == 0)                            # if (bias_data)
            if bias_data != 0:
                b_lo = ldr(m, bias_data + 8 * out_c)          # acc += bias_data[out_c];
                carry = carry_of_add(lo, b_lo)
                lo = add(m, lo, b_lo)
                mov(m, lo)
                b_hi = ldr(m, bias_data + 8 * out_c + 4)
                hi = adc(m, hi, b_hi, carry)
            ldrd_sp(m)                                        # output_multiplier, output_shift
            bl(m)
            acc = MultiplyByQuantizedMultiplier64(m, lo, hi, output_multiplier, output_shift)
            ldr_sp(m)                                         # quantized_activation_min
            acc = add(m, acc, 0)                              # acc_scaled += output_offset;
            acc = max_lt(m, acc, INT16_MIN)                   # std::max(acc_scaled, activation_min)
            acc = min_ge(m, acc, INT16_MAX)                   # std::min(acc_scaled, activation_max)
            strh(m, output_data + 2 * (out_c + output_depth * bi), acc)
            cmp(m, out_c + 1, output_depth)
            add(m, 0, 8)
            add(m, 0, accum_depth)
            bcc(m, out_c + 1 < output_depth)
        if output_depth > 0:
            ldrd_sp(m)
            ldrd_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        ldr_sp(m)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        add(m, bi, 1)
        cmp(m, batches, bi + 1)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, bi + 1 < batches)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def AddElementWise(m, input_1, input_2, n_batch, n_input, output):
    """lstm_internal::AddElementWise(int16): saturating sum, batch by batch."""
    push(m, 9)
    mov(m, n_batch)
    sub(m, 0, 0)
    cmp(m, n_batch, 0)
    str_sp(m)
    bcc(m, n_batch <= 0)
    if n_batch > 0:
        mov(m, 0)
        ldr_lit(m)                                            # kInt16Min
        mov(m, n_input)
        lsl(m, n_input, 1)
        mov(m, input_1)
        add(m, input_1, 2 * n_input)
        mvn(m, 1)
        mov(m, 0)
        mov(m, INT16_MAX)
    for batch in range(n_batch):
        cmp(m, n_input, 0)
        bcc(m, n_input <= 0)
        if n_input > 0:
            ldr_sp(m)
            str_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            add(m, 0, 0)
            add(m, 0, 0)
        for i in range(n_input):
            index = batch * n_input + i
            total = add(m, ldrsh(m, input_2 + 2 * index), ldrsh(m, input_1 + 2 * index))
            total = min_ge(m, total, INT16_MAX)               # std::min(kInt16Max, ..)
            total = max_lt(m, total, INT16_MIN)               # std::max(kInt16Min, sum)
            cmp(m, i + 1, n_input)
            strh(m, output + 2 * index, total)
            bcc(m, i + 1 < n_input)
        if n_input > 0:
            ldr_sp(m)
        add(m, batch, 1)
        cmp(m, n_batch, batch + 1)
        add(m, 0, 0)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, batch + 1 < n_batch)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def Sigmoid(m, sigmoid_table, n, data):
    """lstm_internal::Sigmoid: reference_integer_ops::Logistic(0, 0, ..) inlined, in place.
    gcc proves |3 x| >> 9 < 255 for int16 x, so there is no saturation branch."""
    ldr_sp(m)                                                 # dims count
    cmp(m, 2, 0)
    push(m, 4)                                                # push {r4, r5, r6, lr}
    bcc(m, False)
    add(m, 0, 0)
    mov(m, 1)
    _flat_size(m, 2)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    if n > 0:
        ldr_lit(m)                                            # sigmoid_table_uint16
        ldr_lit(m)                                            # (1 << 25) + (1 << 9) - 1
        sub(m, data, 2)
        mov(m, 0)
    for i in range(n):
        x = ldrsh(m, data + 2 * i)
        x = add(m, x, x << 1)                                 # input_data * 3
        sign = x >> 31
        a = sub(m, eor(m, x, sign), sign)                     # abs(input_data)
        uh = lsr(m, a, 9)
        idx = add(m, uh, 1)
        ua = ldrh(m, sigmoid_table + 2 * uh)
        ub = ldrh(m, sigmoid_table + 2 * idx)
        ut = ubfx(m, a, 0, 9)
        diff = sub(m, ub, ua)
        result = lsl(m, ua, 9)
        result = mla(m, ut, diff, result)                     # (ua << 9) + ut * (ub - ua)
        cmp(m, x, 0)
        it(m, 1)                                              # ite ge: one arm fails
        if x >= 0:
            result = add(m, result, 1 << 9)
        else:
            result = sub(m, (1 << 25) + (1 << 9) - 1, result)   # sublt r3, r6, r3
        add(m, i, 1)
        result = lsr(m, result, 10)
        cmp(m, n, i + 1)
        strh(m, data + 2 * i, result)
        bcc(m, i + 1 < n)
    pop_pc(m, 4)


@kernel
def Tanh(m, sigmoid_table, cell_state_scale_power, n, input_data, output_data):
    """lstm_internal::Tanh(int16): reference_integer_ops::Tanh with input_left_shift
    15 + cell_state_scale_power - 3 (negative: multiplier 3 and a right shift)."""
    push(m, 9)
    shift = add(m, cell_state_scale_power, 12)
    ldr_sp(m)                                                 # output_data
    bcc(m, shift < 0)                                         # bmi
    if shift >= 0:
        ldr_sp(m)
        multiplier = lsl(m, mov(m, 3), shift)                 # 3 << input_left_shift
        right = mov(m, 0)
        cmp(m, 2, 0)
        rounding = mov(m, 0)
        bcc(m, False)
    else:
        mvn(m, 11)
        mvn(m, 12)
        right = sub(m, -12, cell_state_scale_power)           # -input_left_shift
        sub(m, 0, 0)
        ldr_sp(m)
        one = mov(m, 1)
        cmp(m, 2, 0)
        rounding = lsl(m, one, right - 1)                     # 1 << (input_left_shift - 1)
        multiplier = mov(m, 3)
        bcc(m, True)
    add(m, 0, 0)
    mov(m, 1)
    _flat_size(m, 2)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    if n > 0:
        ldr_lit(m)                                            # 0xFFFF << 8
        ldr_lit(m)                                            # sigmoid_table_uint16
        sub(m, input_data, 2)
        mov(m, 0)
    for i in range(n):
        x = ldrsh(m, input_data + 2 * i)
        x = mla(m, multiplier, x, rounding)
        x = asr(m, x, right)                                  # >> input_left_shift
        sign = x >> 31
        a = sub(m, eor(m, x, sign), sign)                     # abs(input_data)
        uh = lsr(m, a, 8)
        cmp(m, a, 0xFF00)                                     # uh >= 255
        ut = uxtb(m, a, 0)
        result = mov(m, 0xFFFF << 8)
        idx = add(m, uh, 1)
        bcc(m, uh >= 255)                                     # bcs: saturate
        if uh < 255:
            ua = ldrh(m, sigmoid_table + 2 * uh)
            ub = ldrh(m, sigmoid_table + 2 * idx)
            diff = sub(m, ub, ua)
            result = lsl(m, ua, 8)
            result = mla(m, ut, diff, result)                 # (ua << 8) + ut * (ub - ua)
        cmp(m, x, 0)
        pos = add(m, result, -(1 << 24))
        it(m, 1 if x < 0 else 2)                              # itet lt
        if x < 0:
            result = rsb(m, result, 1 << 23)                  # -result + (1 << 23)
            result = add(m, result, (1 << 7) - 1)
        else:
            result = add(m, pos, (1 << 23) + (1 << 7))        # result - (1 << 23) + (1 << 7)
        add(m, i, 1)
        result = asr(m, result, 8)                            # result >>= (9 - 1)
        cmp(m, i + 1, n)
        strh(m, output_data + 2 * i, result)
        bcc(m, i + 1 < n)
    pop_pc(m, 9)


@kernel
def MulElementwise(m, n, output_offset, output_multiplier, output_shift, activation_min,
                   activation_max, input1, input2, output, out_bytes):
    """lstm_internal::Mul: reference_integer_ops::MulElementwise<int16_t, int8_t or int16_t>
    (offsets 0), one MultiplyByQuantizedMultiplier call per element."""
    push(m, 9)
    ldr_sp(m)                                                 # dims count
    if out_bytes == 1:
        ldr_sp(m)                                             # output_data
    cmp(m, 2, 0)
    mov(m, 0)
    bcc(m, False)
    add(m, 0, 0)
    mov(m, 1)
    _flat_size(m, 2)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    if n > 0:
        sub(m, input1, 2)
        sub(m, input2, 2)
        if out_bytes == 1:
            add(m, output, -1)
        else:
            ldr_sp(m)
            sub(m, output, 2)
            mov(m, 0)
    for i in range(n):
        ldr_sp(m)                                             # params.input1_offset
        ldr_sp(m)                                             # params.input2_offset
        a = ldrsh(m, input1 + 2 * i)
        c = ldrsh(m, input2 + 2 * i)
        ldr_sp(m)                                             # params.output_offset
        a = add(m, a, 0)
        c = add(m, c, 0)
        product = mul(m, a, c)
        ldrd_sp(m)                                            # output_multiplier, output_shift
        bl(m)
        value = MultiplyByQuantizedMultiplier(m, product, output_multiplier, output_shift)
        ldrd_sp(m)                                            # quantized_activation_min / max
        value = add(m, value, output_offset)
        if out_bytes == 1:
            cmp(m, value, activation_min)
            mov(m, 0)
            clamp = value < activation_min
            it(m, not clamp)
            if clamp:
                value = mov(m, activation_min)
            add(m, 0, 2)
            cmp(m, value, activation_max)
            sub(m, 0, 0)
            clamp = value >= activation_max
            it(m, not clamp)
            if clamp:
                value = mov(m, activation_max)
            cmp(m, i + 1, n)
            strb(m, output + i, value)
        else:
            value = max_lt(m, value, activation_min)
            cmp(m, value, activation_max)
            add(m, i, 1)
            clamp = value >= activation_max
            it(m, not clamp)
            if clamp:
                value = mov(m, activation_max)
            cmp(m, i + 1, n)
            strh(m, output + 2 * i, value)
        bcc(m, i + 1 < n)
    pop_pc(m, 9)


@kernel
def Clipping(m, n, clip, vector):
    """lstm_internal::Clipping(int16): clamp to +-quantized_cell_clip."""
    cmp(m, n, 0)
    bcc(m, n <= 0)
    if n <= 0:
        bx(m)
        return
    push(m, 1)
    sub(m, vector, 2)
    add(m, vector, 2 * n)
    for i in range(n):
        v = ldrsh(m, vector + 2 * i)
        ldrsh_sp(m)                                           # quantized_cell_clip
        v = min_ge(m, v, clip)                                # std::min(quantized_cell_clip, v)
        neg = rsb(m, clip, 0)
        neg = sxth(m, neg, 0)
        v = max_lt(m, v, neg)                                 # std::max(.., -quantized_cell_clip)
        cmp(m, i + 1, n)
        strh(m, vector + 2 * i, v)
        bcc(m, i + 1 < n)
    pop_pc(m, 1)


@kernel
def aeabi_fcmpgt(m, positive):
    """libgcc's __aeabi_fcmpgt(cell_clip, 0.0f) (soft-float build) through
    __aeabi_cfrcmple, __aeabi_cfcmpeq and __cmpsf2, for a positive or a zero clip."""
    str_sp(m)                                                 # str lr, [sp, #-8]!
    bl(m)
    mov(m, 0)                                                 # __aeabi_cfrcmple: swap, b
    mov(m, 0)
    mov(m, 0)
    b(m)
    push(m, 5)                                                # __aeabi_cfcmpeq
    bl(m)
    mov(m, 1)                                                 # __cmpsf2(0.0f, clip)
    str_sp(m)
    lsl(m, 0, 1)
    lsl(m, 0, 1)
    mvn(m, 0)
    it(m, 0)
    mvn(m, 0)
    bcc(m, False)
    add(m, 0, 0)
    orr(m, 0, 0)
    if positive:
        it(m, 0)
        cmp(m, 0, 0)                                          # teqne
        it(m, 0)
        sub(m, 0, 0)                                          # subspl: negative, borrow
        it(m, 1)                                              # asrhi fails
        it(m, 0)
        mvn(m, 0)                                             # mvncc
        it(m, 0)
        orr(m, 0, 1)                                          # orrne: -1
    else:
        it(m, 1)                                              # teqne fails
        it(m, 0)
        sub(m, 0, 0)                                          # subspl: 0
        it(m, 1)
        it(m, 1)
        it(m, 1)
    bx(m)
    cmp(m, 0, 0)                                              # __aeabi_cfcmpeq
    it(m, 0 if positive else 1)
    if positive:
        cmn(m, 0, 0)
    pop_pc(m, 5)
    it(m, 1)                                                  # ite cc
    mov(m, 1 if positive else 0)
    ldr_sp(m)                                                 # ldr pc, [sp], #8
    return positive


@kernel
def CalculateLstmGate(m, sigmoid_table, shape_scratch, gate, input_offset, hidden_offset,
                      input_ptr, hidden_ptr, n_batch, n_input, n_state, time_major,
                      gate_output, fc_buffer, act_bytes):
    """CalculateLstmGate<int8 or int16 activations, ..>: the two instances compile to the
    same instructions (gcc 12.2 -O2), but for the FullyConnected overload they call."""
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(5):
        mov(m, 0)
    add(m, 0, 0)
    ldr_sp(m)
    ldr_sp(m)                                                 # ldrb: activation
    ldrd_sp(m)
    bl(m)
    StateShape(m, time_major)                                 # gate_output_shape
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)                                 # step_info.InputShape()
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 3)                       # (DCHECK) input
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    ldr_sp(m)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # (DCHECK) recurrent
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)                                 # step_info.InputShape()
    ldr_sp(m)
    ldr_sp(m)
    mov(m, 0)
    add(m, 0, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # input_weight
    mov(m, 0)
    add(m, 0, 0)
    ldr_sp(m)
    bl(m)
    GetTensorShape(m, shape_scratch, 1)                       # input_bias
    cbz(m, False)
    ldr_sp(m)                                                 # input_bias->data
    str_sp(m)
    add(m, 0, 0)
    str_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    mov(m, 0)
    str_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    str_sp(m)
    str_sp(m)
    bl(m)
    if act_bytes == 2:
        FullyConnected16x8(m, input_offset, gate[GATE_IN_MULT], gate[GATE_IN_SHIFT], input_ptr,
                           gate[GATE_IN_W], gate[GATE_BIAS], n_batch, n_input, n_state,
                           gate_output)
    else:
        FullyConnected16(m, input_offset, gate[GATE_IN_MULT], gate[GATE_IN_SHIFT], input_ptr,
                         gate[GATE_IN_W], gate[GATE_BIAS], n_batch, n_input, n_state,
                         gate_output)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    for _ in range(4):
        ldr_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # recurrent_weight
    ldr_sp(m)
    mov(m, 0)
    add(m, 0, 0)
    ldr_sp(m)
    add(m, 0, 40)
    bl(m)
    GetTensorShape(m, shape_scratch, 0)                       # recurrent_bias (nullptr)
    cbz(m, True)
    str_sp(m)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    strd_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    mov(m, 0)
    str_sp(m)
    bl(m)
    if act_bytes == 2:
        FullyConnected16x8(m, hidden_offset, gate[GATE_REC_MULT], gate[GATE_REC_SHIFT],
                           hidden_ptr, gate[GATE_REC_W], 0, n_batch, n_state, n_state,
                           fc_buffer)
    else:
        FullyConnected16(m, hidden_offset, gate[GATE_REC_MULT], gate[GATE_REC_SHIFT],
                         hidden_ptr, gate[GATE_REC_W], 0, n_batch, n_state, n_state,
                         fc_buffer)
    for _ in range(3):
        ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    bl(m)
    AddElementWise(m, gate_output, fc_buffer, n_batch, n_state, gate_output)
    cmp(m, gate[GATE_TANH], 0)                                # activation == kTfLiteActTanh
    bcc(m, gate[GATE_TANH] != 0)
    if gate[GATE_TANH]:                                       # Tanh(-12, ..): left shift 0
        add(m, 0, 0)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        mvn(m, 11)
        bl(m)
        Tanh(m, sigmoid_table, -12, n_batch * n_state, gate_output, gate_output)
    else:                                                     # == kTfLiteActSigmoid
        cmp(m, 6, 6)
        bcc(m, False)
        mov(m, 0)
        mov(m, 0)
        bl(m)
        Sigmoid(m, sigmoid_table, n_batch * n_state, gate_output)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def UpdateLstmCell(m, shape_scratch, params, cell_ptr, forget, input_gate, cell_gate, buffer,
                   n_batch):
    """lstm_internal::UpdateLstmCell<int16_t> (out of line in unidirectional_sequence_lstm.cc,
    shared by the int8 and int16 LSTMs)."""
    time_major, n_state = params[P_TIME_MAJOR], params[P_STATE_SIZE]
    n = n_batch * n_state
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(3):
        mov(m, 0)
    add(m, 0, 8)
    mov(m, 0)
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    bl(m)
    StateShape(m, time_major)                                 # cell_state_shape
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # (DCHECK) cell state
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    ldr_sp(m)
    ldr_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)
    add(m, 0, 0)
    bl(m)
    MulElementwise(m, n, 0, params[P_F2C_MULT], params[P_F2C_SHIFT], INT16_MIN, INT16_MAX,
                   forget, cell_ptr, cell_ptr, 2)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    MulElementwise(m, n, 0, params[P_I2C_MULT], params[P_I2C_SHIFT], INT16_MIN, INT16_MAX,
                   input_gate, cell_gate, buffer, 2)
    ldr_sp(m)
    ldr_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    str_sp(m)
    ldrd_sp(m)
    bl(m)
    AddElementWise(m, cell_ptr, buffer, n_batch, n_state, cell_ptr)
    ldr_sp(m)                                                 # cell_state_info.cell_clip
    mov(m, 0)
    bl(m)
    clip = aeabi_fcmpgt(m, params[P_CLIP_ENABLED] != 0)       # if (cell_clip > 0)
    cbz(m, not clip)
    if clip:
        ldr_sp(m)
        cmp(m, 2, 0)
        bcc(m, False)
        add(m, 0, 0)
        add(m, 0, 0)
        mov(m, 1)
        _flat_size(m, 2)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        add(m, 0, 0)
        bl(m)
        Clipping(m, n, params[P_CLIP], cell_ptr)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def LstmStep(m, sigmoid_table, shape_scratch, params, forget_gate, input_gate, cell_gate,
             output_gate, input_ptr, hidden_ptr, cell_ptr, output_ptr, n_batch, buffer0,
             buffer1, buffer2, buffer3, act_bytes):
    """One step over `n_batch` rows (the batch in time-major order, 1 in batch-major);
    `act_bytes` 1: LstmStep<int8_t, ..>, 2: LstmStep<int16_t, ..> (the same instructions but
    for the int16 hidden state's Mul and the memcpy's byte count)."""
    input_offset, hidden_zp = params[P_INPUT_OFFSET], params[P_HIDDEN_ZP]
    n_input, n_state, time_major = params[P_INPUT_SIZE], params[P_STATE_SIZE], params[P_TIME_MAJOR]
    n = n_batch * n_state
    push(m, 9)
    sub(m, 0, 0)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    mov(m, 0)
    mov(m, 6)
    ldr_sp(m)
    str_sp(m)
    str_sp(m)
    str_sp(m)
    for _ in range(3):
        ldr_sp(m)
        str_sp(m)
    mov(m, 0)
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    add(m, 0, 36)
    mov(m, 0)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, shape_scratch, forget_gate, input_offset, -hidden_zp,
                      input_ptr, hidden_ptr, n_batch, n_input, n_state, time_major, buffer0,
                      buffer3, act_bytes)
    strd_sp(m)
    str_sp(m)
    for _ in range(4):
        ldr_sp(m)
        str_sp(m)
    ldrd_sp(m)
    mov(m, 0)
    str_sp(m)
    add(m, 0, 0)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, shape_scratch, input_gate, input_offset, -hidden_zp,
                      input_ptr, hidden_ptr, n_batch, n_input, n_state, time_major, buffer1,
                      buffer3, act_bytes)
    str_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)                                                 # ldrb: cell_gate_nonlinear_type
    for _ in range(4):
        str_sp(m)
        ldr_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    ldr_sp(m)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, shape_scratch, cell_gate, input_offset, -hidden_zp,
                      input_ptr, hidden_ptr, n_batch, n_input, n_state, time_major, buffer2,
                      buffer3, act_bytes)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    for _ in range(3):
        add(m, 0, 0)                                          # the gate buffers' addresses
        str_sp(m)
    ldrd_sp(m)
    mov(m, 0)
    ldr_sp(m)
    bl(m)
    UpdateLstmCell(m, shape_scratch, params, cell_ptr, buffer0, buffer1, buffer2, buffer1,
                   n_batch)
    strd_sp(m)
    str_sp(m)
    for _ in range(3):
        ldr_sp(m)
        str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, shape_scratch, output_gate, input_offset, -hidden_zp,
                      input_ptr, hidden_ptr, n_batch, n_input, n_state, time_major, buffer1,
                      buffer3, act_bytes)
    # UpdateLstmHidden
    for _ in range(4):
        ldr_sp(m)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # (DCHECK) cell state
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 2)                       # (DCHECK) hidden state
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    mov(m, 0)
    mov(m, 0)
    bl(m)
    Tanh(m, sigmoid_table, params[P_CELL_SCALE_POWER], n, cell_ptr, buffer0)
    ldr_sp(m)
    add(m, 0, 0)
    ldr_sp(m)
    add(m, 0, 0)
    mov(m, 0)
    mov(m, 0)
    str_sp(m)
    add(m, 0, 0)
    bl(m)
    if act_bytes == 2:
        MulElementwise(m, n, hidden_zp, params[P_OUT_MULT], params[P_OUT_SHIFT], INT16_MIN,
                       INT16_MAX, buffer0, buffer1, hidden_ptr, 2)
    else:
        MulElementwise(m, n, hidden_zp, params[P_OUT_MULT], params[P_OUT_SHIFT], -128, 127,
                       buffer0, buffer1, hidden_ptr, 1)
    # std::memcpy(output + OutputOffset(), hidden_state + HiddenStateOffset(), n)
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    ldr_sp(m)
    add(m, 0, 0)
    bl(m)
    GetTensorShape(m, shape_scratch, 3)                       # (DCHECK) output
    for _ in range(5):
        ldr_sp(m)
    add(m, 0, 0)
    ldr_sp(m)
    mov(m, 0)
    add(m, 0, 0)
    add(m, 0, 0)
    bl(m)
    StateShape(m, time_major)
    ldr_sp(m)
    cmp(m, 2, 0)
    bcc(m, False)
    add(m, 0, 0)
    add(m, 0, 0)
    mov(m, 1)
    _flat_size(m, 2)
    if act_bytes == 2:
        lsl(m, n, 1)                                          # * sizeof(int16_t)
    mov(m, 0)
    mov(m, 0)
    bl(m)
    memcpy(m, output_ptr, hidden_ptr, n * act_bytes)
    add(m, 0, 0)
    pop_pc(m, 9)


@kernel
def UpdateTime(m, time_major):
    """LstmStepManager::UpdateTime: the time and the input / output offsets."""
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    push(m, 2)                                                # push {r4, r5}
    ldr_sp(m)                                                 # ldrb: time_major
    ldr_sp(m)
    add(m, 0, 1)
    str_sp(m)
    cbz(m, not time_major)
    if time_major:
        ldr_sp(m)
        mul(m, 1, 1)                                          # input_step * batch_size
        mul(m, 1, 1)                                          # output_step * batch_size
    ldrd_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    pop(m, 2)
    strd_sp(m)
    bx(m)


@kernel
def UpdateBatch(m):
    """LstmStepManager::UpdateBatch (batch major): the hidden and cell state offsets."""
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)                                                 # ldrb: time_major
    add(m, 0, 1)
    str_sp(m)
    bcc(m, False)                                             # cbnz
    ldr_sp(m)
    ldrd_sp(m)
    add(m, 0, 0)
    add(m, 0, 0)
    strd_sp(m)
    bx(m)


@kernel
def EvalLstm(m, sigmoid_table, shape_scratch, params, forget_gate, input_gate, cell_gate,
             output_gate, input_data, hidden_state, cell_state, output_data, buffer0, buffer1,
             buffer2, buffer3, act_bytes):
    """tflite::EvalLstm, which gcc inlines into UnidirectionalSequenceLstmEval (whose own
    frame and epilogue are the operator's Eval glue): the step manager set up on the
    stack, the time-major or batch-major loop over LstmStep and UpdateTime / UpdateBatch.
    `act_bytes` 2 is the int16 instance: the same code but for a CBNZ where the int8 one
    has CMP / BNE on time_major."""
    n_b, n_t, time_major = params[P_BATCH], params[P_TIME_STEPS], params[P_TIME_MAJOR]
    n_in, n_h = params[P_INPUT_SIZE], params[P_STATE_SIZE]
    ldr_sp(m)                                                 # ldrb: size_info.time_major
    str_sp(m)
    for _ in range(3):
        mov(m, 0)
    for _ in range(3):
        strd_sp(m)
    if act_bytes == 2:
        cbnz(m, time_major != 0)
    else:
        cmp(m, time_major, 0)
        bcc(m, time_major != 0)                               # bne
    if time_major:
        ldr_sp(m)
        cmp(m, n_t, 0)
        bcc(m, n_t <= 0)
        if n_t > 0:
            add(m, 0, 16)
        for t in range(n_t):
            for _ in range(3):
                mov(m, 0)
            add(m, 0, 44)
            bl(m)
            LstmStep(m, sigmoid_table, shape_scratch, params, forget_gate, input_gate,
                     cell_gate, output_gate, input_data + act_bytes * t * n_b * n_in,
                     hidden_state, cell_state, output_data + act_bytes * t * n_b * n_h, n_b,
                     buffer0, buffer1, buffer2, buffer3, act_bytes)
            mov(m, 0)
            bl(m)
            UpdateTime(m, True)
            ldr_sp(m)
            add(m, t, 1)
            cmp(m, t + 1, n_t)
            bcc(m, t + 1 < n_t)
    else:
        ldr_sp(m)
        cmp(m, n_b, 0)
        bcc(m, n_b <= 0)
        if n_b > 0:
            mov(m, 0)
            add(m, 0, 16)
            mov(m, 0)
        for bi in range(n_b):
            ldr_sp(m)
            cmp(m, n_t, 0)
            it(m, n_t <= 0)                                   # movgt r6, #0
            if n_t > 0:
                mov(m, 0)
            bcc(m, n_t <= 0)
            for t in range(n_t):
                for _ in range(3):
                    mov(m, 0)
                add(m, 0, 44)
                bl(m)
                LstmStep(m, sigmoid_table, shape_scratch, params, forget_gate, input_gate,
                         cell_gate, output_gate,
                         input_data + act_bytes * (bi * n_t + t) * n_in,
                         hidden_state + act_bytes * bi * n_h, cell_state + 2 * bi * n_h,
                         output_data + act_bytes * (bi * n_t + t) * n_h, 1, buffer0, buffer1,
                         buffer2, buffer3, act_bytes)
                mov(m, 0)
                bl(m)
                UpdateTime(m, False)
                ldr_sp(m)
                add(m, t, 1)
                cmp(m, t + 1, n_t)
                bcc(m, t + 1 < n_t)
            mov(m, 0)
            bl(m)
            UpdateBatch(m)
            ldr_sp(m)
            str_sp(m)
            add(m, bi, 1)
            cmp(m, bi + 1, n_b)
            bcc(m, bi + 1 < n_b)
    b(m)                                                      # to the Eval's epilogue
    return 0


SCRATCH_ALIGN = 16       # MicroArenaBufferAlignment(): TFLM hands out every scratch buffer aligned


def _aligned(size):
    return -(-size // SCRATCH_ALIGN) * SCRATCH_ALIGN


def scratch_addresses(base, sizes):
    """The addresses of scratch buffers of `sizes` bytes placed in one block from `base`, each
    aligned as TFLM's arena aligns the buffers it hands out (an odd batch x hidden would
    otherwise misalign the next buffer, and memset / memcpy take their unaligned paths)."""
    addresses, offset = [], 0
    for size in sizes:
        addresses.append(base + offset)
        offset += _aligned(size)
    return addresses


def scratch_block(sizes):
    """The bytes of the block `scratch_addresses` lays out."""
    return sum(_aligned(size) for size in sizes)


def reference_buffer_sizes(case):
    """TFLM's reference Prepare requests four int16 buffers of batch * hidden."""
    p = case["lstm_params"]
    return (2 * p["batch_size"] * p["hidden_size"],) * 4


def reference_buffer_size(case):
    return scratch_block(reference_buffer_sizes(case))


def _gate(case, addr, g):
    gp = case["lstm_params"][f"{g}_gate"]
    return (int(gp["input_multiplier"]), int(gp["input_shift"]),
            addr[f"{g}_gate_input_weights"], addr[f"{g}_gate_bias"],
            int(gp["hidden_multiplier"]), int(gp["hidden_shift"]),
            addr[f"{g}_gate_hidden_weights"], int(gp["activation_type"] == "ARM_TANH"))


def run_eval(m, case, addr, tracer, act_bytes):
    """EvalLstm over the hidden state (`hidden_state`, initially the zero point or
    `hidden_state_init`) and the cell state (`cell_state_tensor`, zero), updated in memory as
    TFLM's variable tensors; `act_bytes` 1: the int8 LSTM, 2: the 16x8 one."""
    p = case["lstm_params"]
    n_b, n_h = p["batch_size"], p["hidden_size"]
    buffers = scratch_addresses(addr["scratch"], reference_buffer_sizes(case))
    params = tuple(int(v) for v in (
        p["input_offset"], p["output_offset"], p["input_size"], n_h,
        p["forget_to_cell_multiplier"], p["forget_to_cell_shift"],
        p["input_to_cell_multiplier"], p["input_to_cell_shift"], p["cell_clip"],
        p["cell_scale_power"], p["output_multiplier"], p["output_shift"], p["time_major"],
        n_b, p["time_steps"], p.get("cell_clip_enabled", p["cell_clip"] > 0)))
    gates = [_gate(case, addr, g) for g in ("forget", "input", "cell", "output")]
    run(EvalLstm, m, addr["sigmoid_table"], addr["shape_scratch"], params, *gates,
        addr["input"], addr["hidden_state"], addr["cell_state_tensor"], addr["output"],
        *buffers, act_bytes, tracer=tracer)


def run_reference(m, case, addr, tracer):
    run_eval(m, case, addr, tracer, 1)
    return [NAME, "tflite::lstm_internal::LstmStep", MBQM]


def state_arrays(case):
    """What TFLM's reference kernel reads besides the case's arrays: the variable tensors
    (hidden state int8: the zero point after ResetVariableTensors, or the case's
    `hidden_state_init`; cell state int16 0) and `shape_scratch`, the 32 bytes standing in
    for the stack the RuntimeShape copies go to."""
    p = case["lstm_params"]
    init = case.get("hidden_state_init")
    n = p["batch_size"] * p["hidden_size"]
    hidden = (np.full(n, p["output_offset"], np.int8) if init is None
              else np.asarray(init, np.int8))
    return {"hidden_state": ("sram", hidden), "cell_state_tensor": ("sram", np.zeros(n, np.int16)),
            "shape_scratch": ("sram", np.zeros(32, np.uint8))}
