"""tflite::EvalLstm<int8_t, int8_t, int16_t, int32_t> (micro/kernels/lstm_eval.h / lstm_eval.cc),
the int8x8_16 LSTM of TFLM's reference UNIDIRECTIONAL_SEQUENCE_LSTM, with the four int16
scratch buffers its Prepare requests (batch * hidden each) and the variable tensors it reads
and updates (hidden state int8, cell state int16).

Per step (LstmStep): for each gate, reference_integer_ops::FullyConnected of the input
(int8 -> int16, bias, input zero point) and of the hidden state (no bias, hidden zero point)
into buffer3, AddElementWise (saturating int16), then Logistic (int16, LUT) or Tanh(-12);
UpdateLstmCell: cell = Mul(forget, cell); buffer1 = Mul(input, cell_gate); cell =
AddElementWise(cell, buffer1), Clipping when cell_clip > 0; the output gate, UpdateLstmHidden:
Tanh(cell_state_scale_power) and Mul -> the int8 hidden state; memcpy to the output.
MultiplyByQuantizedMultiplier is the called function (`common`).

The loop nests and per-element work are the C's; the stack traffic around calls and per
loop level is estimated: there is no measured count of this kernel in ../shared and it was
not read off a disassembly.  EvalLstm's time (and batch) loop is run_reference's Python loop
over LstmStep, which issues the loop's own instructions (UpdateTime, test, call) itself.
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (
    add,
    asr,
    bcc,
    bl,
    cbz,
    cmp,
    eor,
    ldr,
    ldr_sp,
    ldrh,
    ldrsb,
    ldrsh,
    lsl,
    lsr,
    mla,
    mov,
    mul,
    pop_pc,
    push,
    rsb,
    str_sp,
    strb,
    strh,
    sub,
    ubfx,
    uxtb,
)
from armsim.kernels.libc import memcpy
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::EvalLstm<signed char, signed char, short, long>"
INT16_MIN, INT16_MAX = -32768, 32767
# gate tuple: (input fc multiplier, shift, weights, bias, recurrent fc multiplier, shift,
#              weights, tanh (1) or sigmoid (0))
GATE_IN_MULT, GATE_IN_SHIFT, GATE_IN_W, GATE_BIAS = 0, 1, 2, 3
GATE_REC_MULT, GATE_REC_SHIFT, GATE_REC_W, GATE_TANH = 4, 5, 6, 7


@kernel
def FullyConnected16(m, input_offset, output_multiplier, output_shift, input_data,
                     filter_data, bias_data, batches, accum_depth, output_depth, output_data):
    """reference_integer_ops::FullyConnected<int8_t, int8_t, int16_t, int32_t>: output offset
    0, activation range int16 (an LSTM gate's fully connected part)."""
    push(m, 9)
    sub(m, 0, 0)
    for _ in range(8):
        ldr_sp(m)                                     # params and shapes
    for b in range(batches):
        for out_c in range(output_depth):
            acc = mov(m, 0)                           # int32_t acc = 0;
            in_ptr = input_data + b * accum_depth
            f_ptr = filter_data + out_c * accum_depth
            cmp(m, accum_depth, 0)
            bcc(m, accum_depth <= 0)
            for d in range(accum_depth):              # acc += filter_val * (input_val + input_offset)
                input_val = ldrsb(m, in_ptr + d)
                filter_val = ldrsb(m, f_ptr + d)
                input_val = add(m, input_val, input_offset)
                cmp(m, d + 1, accum_depth)
                acc = mla(m, filter_val, input_val, acc)
                bcc(m, d + 1 < accum_depth)
            cbz(m, bias_data == 0)                    # if (bias_data)
            if bias_data != 0:
                acc = add(m, acc, ldr(m, bias_data + 4 * out_c))
            ldr_sp(m)
            ldr_sp(m)
            bl(m)
            acc = MultiplyByQuantizedMultiplier(m, acc, output_multiplier, output_shift)
            ldr_sp(m)
            acc = add(m, acc, 0)                      # acc_scaled += output_offset;
            acc = max_lt(m, acc, INT16_MIN)           # std::max(acc_scaled, activation_min)
            acc = min_ge(m, acc, INT16_MAX)           # std::min(acc_scaled, activation_max)
            strh(m, output_data + 2 * (out_c + output_depth * b), acc)
            cmp(m, out_c + 1, output_depth)
            bcc(m, out_c + 1 < output_depth)
        ldr_sp(m)
        cmp(m, b + 1, batches)
        bcc(m, b + 1 < batches)
    pop_pc(m, 9)


@kernel
def AddElementWise(m, input_1, input_2, n, output):
    """lstm_internal::AddElementWise(int16): saturating sum."""
    push(m, 2)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    for i in range(n):
        total = add(m, ldrsh(m, input_1 + 2 * i), ldrsh(m, input_2 + 2 * i))
        total = max_lt(m, total, INT16_MIN)           # std::max(kInt16Min, sum)
        total = min_ge(m, total, INT16_MAX)           # std::min(kInt16Max, ..)
        strh(m, output + 2 * i, total)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)
    pop_pc(m, 2)


@kernel
def SigmoidTanh16(m, sigmoid_table, input_multiplier, input_left_shift, n, input, output,
                  tanh):
    """reference_integer_ops::Logistic (tanh False, input shift 9 on |x|) and Tanh (True,
    8) for int16, the sigmoid_table_uint16 interpolation."""
    push(m, 8)
    abs_shift = 8 if tanh else 9
    cbz(m, input_multiplier == 0)                     # if (input_multiplier == 0)
    if input_multiplier == 0:
        input_multiplier = lsl(m, mov(m, 3), input_left_shift)   # 3 << input_left_shift
        input_left_shift = mov(m, 0)
    cmp(m, input_left_shift, 0)
    bcc(m, input_left_shift <= 0)
    rounding = 0
    if input_left_shift > 0:
        rounding = lsl(m, mov(m, 1), input_left_shift - 1)
    else:
        mov(m, 0)
    for i in range(n):
        x = ldrsh(m, input + 2 * i)
        data = mla(m, x, input_multiplier, rounding)
        data = asr(m, data, input_left_shift)
        sign = data >> 31
        a = sub(m, eor(m, data, sign), sign)          # abs(input_data)
        uh = lsr(m, a, abs_shift)
        cmp(m, uh, 254)
        bcc(m, uh <= 254)
        if uh <= 254:
            ua = ldrh(m, sigmoid_table + 2 * uh)
            ub = ldrh(m, sigmoid_table + 2 * uh + 2)
            ut = uxtb(m, a, 0) if tanh else ubfx(m, a, 0, 9)
            result = mla(m, ut, sub(m, ub, ua), lsl(m, ua, abs_shift))
        else:
            result = mov(m, (0xFFFF << 8) if tanh else (0x7FFF << 10))
        cmp(m, data, 0)
        bcc(m, data < 0)
        if tanh:
            if data >= 0:
                result = add(m, result, -(1 << 23) + (1 << 7))
            else:
                result = add(m, rsb(m, result, 1 << 23), (1 << 7) - 1)
            result = asr(m, result, 8)                # result >>= (9 - 1)  (int32_t)
        else:
            if data >= 0:
                result = add(m, result, 1 << 9)
            else:
                result = add(m, rsb(m, result, 1 << 25), (1 << 9) - 1)
            result = lsr(m, result, 10)               # result >>= 10  (uint32_t)
        strh(m, output + 2 * i, result)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)
    pop_pc(m, 8)


@kernel
def MulElementwise(m, n, output_offset, output_multiplier, output_shift, activation_min,
                   activation_max, input1, input2, output, out_bytes):
    """reference_integer_ops::MulElementwise<int16_t, int16_t or int8_t> (offsets 0)."""
    push(m, 9)
    for _ in range(4):
        ldr_sp(m)
    cmp(m, n, 0)
    bcc(m, n <= 0)
    for i in range(n):
        product = mul(m, ldrsh(m, input1 + 2 * i), ldrsh(m, input2 + 2 * i))
        ldr_sp(m)
        ldr_sp(m)
        bl(m)
        value = MultiplyByQuantizedMultiplier(m, product, output_multiplier, output_shift)
        value = add(m, value, output_offset)
        ldr_sp(m)
        value = max_lt(m, value, activation_min)
        ldr_sp(m)
        value = min_ge(m, value, activation_max)
        if out_bytes == 1:
            strb(m, output + i, value)
        else:
            strh(m, output + 2 * i, value)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)
    pop_pc(m, 9)


@kernel
def Clipping(m, n, clip, vector):
    """lstm_internal::Clipping(int16): clamp to +-quantized_cell_clip."""
    neg = rsb(m, clip, 0)
    for i in range(n):
        v = ldrsh(m, vector + 2 * i)
        v = min_ge(m, v, clip)                        # std::min(quantized_cell_clip, v)
        v = max_lt(m, v, neg)                         # std::max(.., -quantized_cell_clip)
        strh(m, vector + 2 * i, v)
        cmp(m, i + 1, n)
        bcc(m, i + 1 < n)


@kernel
def CalculateLstmGate(m, sigmoid_table, gate, input_offset, hidden_offset, input_ptr,
                      hidden_ptr, n_batch, n_input, n_state, gate_output, fc_buffer):
    push(m, 9)
    for _ in range(6):
        ldr_sp(m)
        str_sp(m)
    bl(m)
    FullyConnected16(m, input_offset, gate[GATE_IN_MULT], gate[GATE_IN_SHIFT], input_ptr,
                     gate[GATE_IN_W], gate[GATE_BIAS], n_batch, n_input, n_state, gate_output)
    for _ in range(6):
        ldr_sp(m)
        str_sp(m)
    bl(m)
    FullyConnected16(m, hidden_offset, gate[GATE_REC_MULT], gate[GATE_REC_SHIFT], hidden_ptr,
                     gate[GATE_REC_W], 0, n_batch, n_state, n_state, fc_buffer)
    bl(m)
    AddElementWise(m, gate_output, fc_buffer, n_batch * n_state, gate_output)
    cmp(m, gate[GATE_TANH], 0)
    bcc(m, gate[GATE_TANH] != 0)
    bl(m)
    if gate[GATE_TANH]:                               # Tanh(-12, ..): left shift 0
        SigmoidTanh16(m, sigmoid_table, 0, 0, n_batch * n_state, gate_output, gate_output,
                      True)
    else:                                             # Sigmoid: Logistic(0, 0, ..)
        SigmoidTanh16(m, sigmoid_table, 0, 0, n_batch * n_state, gate_output, gate_output,
                      False)
    pop_pc(m, 9)


@kernel
def LstmStep(m, sigmoid_table, params, forget_gate, input_gate, cell_gate, output_gate,
             input_ptr, hidden_ptr, cell_ptr, output_ptr, n_batch, buffer0, buffer1, buffer2,
             buffer3):
    """One step over `n_batch` rows (the batch in time-major order, 1 in batch-major);
    `params` = (input_offset, hidden zero point, input size, state size,
    forget_cell mult, shift, input_mul mult, shift, quantized_cell_clip,
    cell_state_scale_power, output_mul mult, shift)."""
    input_offset, hidden_zp, n_input, n_state = params[0], params[1], params[2], params[3]
    n = n_batch * n_state
    # EvalLstm's loop around the step: LstmStepManager::UpdateTime (current time, input and
    # output offsets, the time-major stride), the loop test and the call (estimated)
    for _ in range(4):
        add(m, 0, 0)
    ldr_sp(m)
    cmp(m, 0, 0)
    bcc(m, True)
    bl(m)
    push(m, 9)
    for _ in range(8):
        ldr_sp(m)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, forget_gate, input_offset, -hidden_zp, input_ptr,
                      hidden_ptr, n_batch, n_input, n_state, buffer0, buffer3)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, input_gate, input_offset, -hidden_zp, input_ptr,
                      hidden_ptr, n_batch, n_input, n_state, buffer1, buffer3)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, cell_gate, input_offset, -hidden_zp, input_ptr,
                      hidden_ptr, n_batch, n_input, n_state, buffer2, buffer3)
    # UpdateLstmCell
    for _ in range(4):
        ldr_sp(m)
    bl(m)
    MulElementwise(m, n, 0, params[4], params[5], INT16_MIN, INT16_MAX, buffer0, cell_ptr,
                   cell_ptr, 2)
    bl(m)
    MulElementwise(m, n, 0, params[6], params[7], INT16_MIN, INT16_MAX, buffer1, buffer2,
                   buffer1, 2)
    bl(m)
    AddElementWise(m, cell_ptr, buffer1, n, cell_ptr)
    cmp(m, params[8], 0)                              # if (cell_state_info.cell_clip > 0)
    bcc(m, params[8] <= 0)
    if params[8] > 0:
        bl(m)
        Clipping(m, n, params[8], cell_ptr)
    bl(m)
    CalculateLstmGate(m, sigmoid_table, output_gate, input_offset, -hidden_zp, input_ptr,
                      hidden_ptr, n_batch, n_input, n_state, buffer1, buffer3)
    # UpdateLstmHidden: Tanh(cell_state_scale_power) then Mul -> int8 hidden state
    shift = 15 + params[9] - 3
    multiplier = 0
    cmp(m, shift, 0)
    bcc(m, shift >= 0)
    if shift < 0:
        shift = rsb(m, shift, 0)
        multiplier = mov(m, 3)
    bl(m)
    SigmoidTanh16(m, sigmoid_table, multiplier, shift, n, cell_ptr, buffer0, True)
    bl(m)
    MulElementwise(m, n, hidden_zp, params[10], params[11], -128, 127, buffer0, buffer1,
                   hidden_ptr, 1)
    # std::memcpy(output_ptr + OutputOffset(), hidden_state + HiddenStateOffset(), n)
    ldr_sp(m)
    bl(m)
    memcpy(m, output_ptr, hidden_ptr, n)
    pop_pc(m, 9)


def reference_buffer_sizes(case):
    """TFLM's reference Prepare requests four int16 buffers of batch * hidden."""
    p = case["lstm_params"]
    return (2 * p["batch_size"] * p["hidden_size"],) * 4


def reference_buffer_size(case):
    return sum(reference_buffer_sizes(case))


def _gate(case, addr, g):
    gp = case["lstm_params"][f"{g}_gate"]
    return (int(gp["input_multiplier"]), int(gp["input_shift"]),
            addr[f"{g}_gate_input_weights"], addr[f"{g}_gate_bias"],
            int(gp["hidden_multiplier"]), int(gp["hidden_shift"]),
            addr[f"{g}_gate_hidden_weights"], int(gp["activation_type"] == "ARM_TANH"))


def run_reference(m, case, addr, tracer):
    """EvalLstm: the time (and, batch major, batch) loop over LstmStep, the hidden state
    (`hidden_state`, initially the zero point or `hidden_state_init`) and the cell state
    (`cell_state_tensor`, zero) updated in memory as TFLM's variable tensors."""
    p = case["lstm_params"]
    n_b, n_t, n_in, n_h = p["batch_size"], p["time_steps"], p["input_size"], p["hidden_size"]
    size = 2 * n_b * n_h
    buffers = [addr["scratch"] + k * size for k in range(4)]
    params = tuple(int(v) for v in (
        p["input_offset"], p["output_offset"], n_in, n_h, p["forget_to_cell_multiplier"],
        p["forget_to_cell_shift"], p["input_to_cell_multiplier"], p["input_to_cell_shift"],
        p["cell_clip"], p["cell_scale_power"], p["output_multiplier"], p["output_shift"]))
    gates = [_gate(case, addr, g) for g in ("forget", "input", "cell", "output")]
    hidden, cell = addr["hidden_state"], addr["cell_state_tensor"]
    if p["time_major"]:
        for t in range(n_t):
            run(LstmStep, m, addr["sigmoid_table"], params, *gates,
                addr["input"] + t * n_b * n_in, hidden, cell, addr["output"] + t * n_b * n_h,
                n_b, *buffers, tracer=tracer)
    else:
        for b in range(n_b):
            for t in range(n_t):
                run(LstmStep, m, addr["sigmoid_table"], params, *gates,
                    addr["input"] + (b * n_t + t) * n_in, hidden + b * n_h, cell + 2 * b * n_h,
                    addr["output"] + (b * n_t + t) * n_h, 1, *buffers, tracer=tracer)
    return [NAME, "tflite::lstm_internal::LstmStep", MBQM]


def state_arrays(case):
    """The variable tensors TFLM's reference kernel updates: hidden state (int8, the zero
    point after ResetVariableTensors, or the case's `hidden_state_init`), cell state (int16 0)."""
    p = case["lstm_params"]
    init = case.get("hidden_state_init")
    n = p["batch_size"] * p["hidden_size"]
    hidden = (np.full(n, p["output_offset"], np.int8) if init is None
              else np.asarray(init, np.int8))
    return {"hidden_state": ("sram", hidden), "cell_state_tensor": ("sram", np.zeros(n, np.int16))}
