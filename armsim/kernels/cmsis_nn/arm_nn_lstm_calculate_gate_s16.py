"""arm_nn_lstm_calculate_gate_s16 (Source/NNSupportFunctions/arm_nn_lstm_calculate_gate_s16.c):
one gate of one time step of the int16 LSTM (int16 data and hidden state, int8 weights, int64
effective biases), into an int16 buffer.

    memset(output, 0, hidden_size * batch_size * 2);
    arm_nn_vec_mat_mul_result_acc_s16(data_in, input_weights, input_effective_bias, output,
        input_multiplier, input_shift, input_size, hidden_size, batch_size, batch_offset);
    if (hidden_in)
        arm_nn_vec_mat_mul_result_acc_s16(hidden_in, hidden_weights, hidden_effective_bias,
            output, hidden_multiplier, hidden_shift, hidden_size, hidden_size, batch_size,
            batch_offset);
    arm_nn_activation_s16(output, output, hidden_size * batch_size, 0, activation_type);

A gate is the tuple (input_multiplier, input_shift, input_weights, input_effective_bias,
hidden_multiplier, hidden_shift, hidden_weights, hidden_effective_bias, activation_type) of
cmsis_nn_lstm_gate (addresses as simulated addresses).  gcc 12.2 -O2 compiles this file to the very
instructions of arm_nn_lstm_calculate_gate_s8_s16 (the objects' disassemblies differ only in
the callee's name, Cortex-M4 and M3 alike), so the argument marshalling is that port's,
measured there (53.8 instructions per call in both ../shared/reference lstm cases).  The struct fields are loads from the params struct in
gcc's code, stack-slot loads here (no memory traffic; `ldrb_sp` for the byte
`gate->activation_type`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    bl,
    cbz,
    ldr_sp,
    ldrb_sp,
    ldrd_sp,
    lsl,
    mov,
    mul,
    pop_pc,
    push,
    str_sp,
    strd_sp,
    sub,
)
from armsim.kernels.libc import memset

from .arm_nn_activation_s16 import arm_nn_activation_s16
from .arm_nn_vec_mat_mul_result_acc_s16 import arm_nn_vec_mat_mul_result_acc_s16

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

GATE_INPUT_MULTIPLIER, GATE_INPUT_SHIFT, GATE_INPUT_WEIGHTS, GATE_INPUT_BIAS = 0, 1, 2, 3
GATE_HIDDEN_MULTIPLIER, GATE_HIDDEN_SHIFT, GATE_HIDDEN_WEIGHTS, GATE_HIDDEN_BIAS = 4, 5, 6, 7
GATE_ACTIVATION = 8


@kernel
def arm_nn_lstm_calculate_gate_s16(m, sigmoid_table, data_in, hidden_in, gate, input_size,
                                   hidden_size, batch_size, output, batch_offset):
    """`gate`: the 9-tuple above; `hidden_in` 0 is NULL.  Returns 0."""
    push(m, 7)                                                # stmdb sp!, {r4-r9, lr}
    sub(m, 0, 0)                                              # sub sp, #28
    mov(m, 0)
    mov(m, 0)
    ldr_sp(m)                                                 # params->batch_size, hidden_size
    ldr_sp(m)
    ldr_sp(m)                                                 # output, batch_offset (stacked)
    ldr_sp(m)
    count = mul(m, hidden_size, batch_size)
    mov(m, data_in)
    mov(m, hidden_in)
    nbytes = lsl(m, count, 1)                                 # * sizeof(int16_t)
    mov(m, 0)
    mov(m, output)
    bl(m)
    memset(m, output, 0, nbytes)                              # memset(output, 0, ..)
    for _ in range(5):                                        # the stacked arguments
        ldr_sp(m)
        str_sp(m)
    str_sp(m)
    ldrd_sp(m)                                                # gate->input_weights, effective bias
    mov(m, data_in)
    mov(m, output)
    bl(m)
    arm_nn_vec_mat_mul_result_acc_s16(
        m, data_in, gate[GATE_INPUT_WEIGHTS], gate[GATE_INPUT_BIAS], output,
        gate[GATE_INPUT_MULTIPLIER], gate[GATE_INPUT_SHIFT], input_size, hidden_size,
        batch_size, batch_offset)
    cbz(m, hidden_in == 0)                                    # if (hidden_in)
    if hidden_in != 0:
        str_sp(m)
        for _ in range(3):
            ldr_sp(m)
            str_sp(m)
        ldr_sp(m)
        strd_sp(m)
        mov(m, output)
        ldrd_sp(m)
        mov(m, hidden_in)
        bl(m)
        arm_nn_vec_mat_mul_result_acc_s16(
            m, hidden_in, gate[GATE_HIDDEN_WEIGHTS], gate[GATE_HIDDEN_BIAS], output,
            gate[GATE_HIDDEN_MULTIPLIER], gate[GATE_HIDDEN_SHIFT], hidden_size, hidden_size,
            batch_size, batch_offset)
    ldr_sp(m)                                                 # params->batch_size, hidden_size
    ldr_sp(m)
    ldrb_sp(m)                                                # ldrb gate->activation_type
    str_sp(m)
    count = mul(m, hidden_size, batch_size)
    mov(m, 0)
    mov(m, output)
    mov(m, output)
    bl(m)
    arm_nn_activation_s16(m, sigmoid_table, output, output, count, 0, gate[GATE_ACTIVATION])
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 7)
    return 0
