"""arm_nn_lstm_step_s8 (Source/NNSupportFunctions/arm_nn_lstm_step_s8.c): one time step of the
int8 LSTM (int16 gates and cell state), as TFLM's CMSIS-NN kernel runs it.

    forget = gate(forget) -> temp1
    cell_state = cell_state * forget           (arm_elementwise_mul_s16, in place)
    input = gate(input) -> temp1;  cell = gate(cell) -> temp2
    cell_state = clamp(cell_state + input * cell, +-cell_clip)   (arm_elementwise_mul_acc_s16)
    output = gate(output) -> temp1
    temp2 = tanh(cell_state)                   (arm_nn_activation_s16, left shift
                                                cell_scale_power + 12)
    hidden_out = output * temp2 -> int8        (arm_elementwise_mul_s16_s8)

`params` is the scalar part of cmsis_nn_lstm_params (see arm_lstm_unidirectional_s8), `gates`
the four gate tuples (forget, input, cell, output) of arm_nn_lstm_calculate_gate_s8_s16, `buffers`
(temp1, temp2, cell_state) addresses.  Argument marshalling: the disassembly of the measured
build (gcc 12.2 -O2; Cortex-M4 and M3 differ by a few moves).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    bl,
    ldr_lit,
    ldr_sp,
    ldrd_sp,
    mov,
    mul,
    pop_pc,
    push,
    rsb,
    str_sp,
    strd_sp,
    sub,
)

from .arm_elementwise_mul_acc_s16 import arm_elementwise_mul_acc_s16
from .arm_elementwise_mul_s16 import arm_elementwise_mul_s16
from .arm_elementwise_mul_s16_s8 import arm_elementwise_mul_s16_s8
from .arm_nn_activation_s16 import ARM_TANH, arm_nn_activation_s16
from .arm_nn_lstm_calculate_gate_s8_s16 import arm_nn_lstm_calculate_gate_s8_s16

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

# indices into `params` (the scalar fields of cmsis_nn_lstm_params)
TIME_MAJOR, BATCH_SIZE, TIME_STEPS, INPUT_SIZE, HIDDEN_SIZE, INPUT_OFFSET = 0, 1, 2, 3, 4, 5
FORGET_TO_CELL_MULTIPLIER, FORGET_TO_CELL_SHIFT = 6, 7
INPUT_TO_CELL_MULTIPLIER, INPUT_TO_CELL_SHIFT = 8, 9
CELL_CLIP, CELL_SCALE_POWER = 10, 11
OUTPUT_MULTIPLIER, OUTPUT_SHIFT, OUTPUT_OFFSET = 12, 13, 14
Q15_MIN, Q15_MAX = -32768, 32767


@kernel
def arm_nn_lstm_step_s8(m, sigmoid_table, data_in, hidden_in, hidden_out, params, forget_gate,
                        input_gate, cell_gate, output_gate, temp1, temp2, cell_state,
                        batch_size, batch_offset):
    """`batch_size`: the step's (params->batch_size, 1 in the batch-major loop).  Returns 0."""
    input_size = params[INPUT_SIZE]
    hidden_size = params[HIDDEN_SIZE]
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #44
    if m.dsp:
        mov(m, 0)
        ldr_sp(m)                                             # buffers, batch_offset (stacked)
        ldr_sp(m)
        ldr_sp(m)                                             # buffers->temp1
        str_sp(m)
        str_sp(m)
        ldrd_sp(m)                                            # buffers->temp2, cell_state
        str_sp(m)
        add(m, 0, 0)                                          # &params->forget_gate
        mov(m, 0)
        mov(m, 0)
    else:
        ldrd_sp(m)                                            # 6: buffers, batch_offset
        str_sp(m)
        ldr_sp(m)                                             # c: buffers->temp1
        mov(m, 0)
        str_sp(m)
        str_sp(m)
        add(m, 0, 0)                                          # 14: &params->forget_gate
        ldrd_sp(m)                                            # 18: buffers->temp2, cell_state
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
    bl(m)
    arm_nn_lstm_calculate_gate_s8_s16(m, sigmoid_table, data_in, hidden_in, forget_gate,
                                      input_size, hidden_size, batch_size, temp1, batch_offset)
    # arm_elementwise_mul_s16(forget_gate, cell_state, 0, 0, cell_state, 0,
    #     forget_to_cell_multiplier, forget_to_cell_shift, NN_Q15_MIN, NN_Q15_MAX, n)
    if m.dsp:
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        ldr_lit(m)                                            # NN_Q15_MIN
        str_sp(m)
        mov(m, Q15_MAX)                                       # movw #32767
        strd_sp(m)
        for _ in range(4):
            mov(m, 0)
    else:
        mov(m, Q15_MAX)                                       # 26: movw r3, #32767
        strd_sp(m)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        str_sp(m)
        ldr_lit(m)                                            # 48: NN_Q15_MIN
        str_sp(m)
        mov(m, 0)
    bl(m)
    arm_elementwise_mul_s16(m, temp1, cell_state, 0, 0, cell_state, 0,
                            params[FORGET_TO_CELL_MULTIPLIER], params[FORGET_TO_CELL_SHIFT],
                            Q15_MIN, Q15_MAX, n)
    mov(m, 0)
    add(m, 0, 0)                                              # &params->input_gate
    mov(m, 0)
    strd_sp(m)
    mov(m, 0)
    bl(m)
    arm_nn_lstm_calculate_gate_s8_s16(m, sigmoid_table, data_in, hidden_in, input_gate,
                                      input_size, hidden_size, batch_size, temp1, batch_offset)
    mov(m, 0)
    add(m, 0, 0)                                              # &params->cell_gate
    mov(m, 0)
    strd_sp(m)
    mov(m, 0)
    bl(m)
    arm_nn_lstm_calculate_gate_s8_s16(m, sigmoid_table, data_in, hidden_in, cell_gate,
                                      input_size, hidden_size, batch_size, temp2, batch_offset)
    # arm_elementwise_mul_acc_s16(input_gate, cell_gate, 0, 0, cell_state, 0,
    #     input_to_cell_multiplier, input_to_cell_shift, -cell_clip, cell_clip, n)
    strd_sp(m)
    if m.dsp:
        ldr_sp(m)
        str_sp(m)
        neg_clip = rsb(m, params[CELL_CLIP], 0)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        n = mul(m, hidden_size, batch_size)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        for _ in range(4):
            mov(m, 0)
    else:
        ldr_sp(m)                                             # 7a: params->batch_size
        ldr_sp(m)
        mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        str_sp(m)
        ldr_sp(m)                                             # 86: params->cell_clip
        mov(m, 0)
        str_sp(m)
        neg_clip = rsb(m, params[CELL_CLIP], 0)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
    bl(m)
    arm_elementwise_mul_acc_s16(m, temp1, temp2, 0, 0, cell_state, 0,
                                params[INPUT_TO_CELL_MULTIPLIER], params[INPUT_TO_CELL_SHIFT],
                                neg_clip, params[CELL_CLIP], n)
    mov(m, 0)
    mov(m, 0)
    add(m, 0, 0)
    strd_sp(m)
    mov(m, 0)
    bl(m)
    arm_nn_lstm_calculate_gate_s8_s16(m, sigmoid_table, data_in, hidden_in, output_gate,
                                      input_size, hidden_size, batch_size, temp1, batch_offset)
    # arm_nn_activation_s16(cell_state, hidden_temp, n, cell_scale_power + 12, ARM_TANH)
    if m.dsp:
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        n = mul(m, hidden_size, batch_size)
        mov(m, ARM_TANH)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        shift = add(m, params[CELL_SCALE_POWER], 12)
    else:
        mov(m, ARM_TANH)                                      # b2: movs r3, #1
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        shift = add(m, params[CELL_SCALE_POWER], 12)
        mov(m, 0)
    bl(m)
    arm_nn_activation_s16(m, sigmoid_table, cell_state, temp2, n, shift, ARM_TANH)
    # arm_elementwise_mul_s16_s8(output_gate, hidden_temp, hidden_out, output_offset,
    #     output_multiplier, output_shift, hidden_size, batch_size, batch_offset)
    str_sp(m)
    for _ in range(4):
        ldr_sp(m)
        str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    mov(m, 0)
    mov(m, 0)
    bl(m)
    arm_elementwise_mul_s16_s8(m, temp1, temp2, hidden_out, params[OUTPUT_OFFSET],
                               params[OUTPUT_MULTIPLIER], params[OUTPUT_SHIFT], hidden_size,
                               batch_size, batch_offset)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
