"""arm_lstm_unidirectional_s8 (Source/LSTMFunctions/arm_lstm_unidirectional_s8.c): the int8 LSTM
over all time steps, TFLM's UNIDIRECTIONAL_SEQUENCE_LSTM with its CMSIS-NN kernel.

    arm_cmsis_nn_status arm_lstm_unidirectional_s8(const int8_t *input, int8_t *output,
        const cmsis_nn_lstm_params *params, cmsis_nn_lstm_context *buffers)

hidden_state NULL: the int16 cell state is cleared (memset) and the first step has no
recurrent input (the hidden matmuls are skipped).  Time major: one arm_nn_lstm_step_s8 per
time step over all batches (batch_offset 1), the output of a step is the next step's hidden
input.  Batch major: a copy of the params with batch_size 1 (the 220-byte
cmsis_nn_lstm_params copied to the stack with newlib's memcpy, once per call; the stack is no
region of the machine, so the copy runs between the two halves of `params_copy`, an SRAM
buffer standing in for the struct and its stack copy: its instructions count as in the
firmware), then per batch its cell state and time steps.
With a hidden state given, its last value is copied back (memcpy).

`params`: the scalar fields of cmsis_nn_lstm_params in order (time_major, batch_size,
time_steps, input_size, hidden_size, input_offset, forget_to_cell multiplier/shift,
input_to_cell multiplier/shift, cell_clip, cell_scale_power, output multiplier/shift/
offset); the four gate tuples as in arm_nn_lstm_calculate_gate_s8_s16.  Control flow and
argument marshalling: the disassembly of the measured build (gcc 12.2 -O2).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    b,
    bcc,
    bl,
    cbz,
    cmp,
    ldr_sp,
    lsl,
    mla,
    mov,
    mul,
    pop_pc,
    push,
    str_sp,
    strd_sp,
    sub,
)
from armsim.kernels.libc import memcpy, memset

from .arm_nn_lstm_step_s8 import (
    BATCH_SIZE,
    HIDDEN_SIZE,
    INPUT_SIZE,
    TIME_MAJOR,
    TIME_STEPS,
    arm_nn_lstm_step_s8,
)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

PARAMS_BYTES = 220                # sizeof(cmsis_nn_lstm_params), 32-bit target
PARAMS_BYTES_ALIGNED = 224


@kernel
def arm_lstm_unidirectional_s8(m, sigmoid_table, params_copy, input, output, params,
                               forget_gate, input_gate, cell_gate, output_gate, temp1, temp2,
                               cell_state, hidden_state):
    """`hidden_state` 0 is NULL.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_size = params[BATCH_SIZE]
    time_steps = params[TIME_STEPS]
    input_size = params[INPUT_SIZE]
    hidden_size = params[HIDDEN_SIZE]
    push(m, 9)                                                # stmdb sp!, {r4-r11, lr}
    ldr_sp(m)                                                 # buffers->hidden_state
    sub(m, 0, 0)                                              # sub sp, #260
    mov(m, 0)
    mov(m, 0)
    mov(m, 0)
    mov(m, 0)
    cmp(m, hidden_state, 0)                                   # if (buffers->hidden_state == NULL)
    bcc(m, hidden_state == 0)
    if hidden_state == 0:
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        n = mul(m, hidden_size, batch_size)
        n = lsl(m, n, 1)                                      # * sizeof(int16_t)
        mov(m, 0)
        bl(m)
        memset(m, cell_state, 0, n)                           # memset(buffers->cell_state, 0, ..)
        b(m)
    ldr_sp(m)                                                 # params->time_major
    cbz(m, params[TIME_MAJOR] == 0)
    hidden_in = hidden_state
    if params[TIME_MAJOR]:
        ldr_sp(m)
        cmp(m, time_steps, 0)
        bcc(m, time_steps <= 0)
        if time_steps > 0:
            mov(m, 0)
            mov(m, 1)
            if not m.dsp:                                     # the M3 build keeps two more copies
                mov(m, 0)
                mov(m, 0)
            b(m)
            for t in range(time_steps):
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                k = mul(m, t, batch_size)
                mov(m, hidden_in)
                hidden_out = mla(m, hidden_size, k, output)   # output + t * batch * hidden
                strd_sp(m)
                mov(m, 0)
                mov(m, hidden_out)
                data_in = mla(m, input_size, k, input)        # input + t * batch * input_size
                if not m.dsp:
                    mov(m, 0)
                add(m, t, 1)
                bl(m)
                arm_nn_lstm_step_s8(m, sigmoid_table, data_in, hidden_in, hidden_out, params,
                                    forget_gate, input_gate, cell_gate, output_gate, temp1,
                                    temp2, cell_state, batch_size, 1)
                cmp(m, 0, 0)                                  # status != ARM_CMSIS_NN_SUCCESS
                bcc(m, True)
                hidden_in = hidden_out                        # hidden_in = &hidden_out[0];
                ldr_sp(m)
                cmp(m, time_steps, t + 1)
                bcc(m, t + 1 >= time_steps)
        if not m.dsp:
            mov(m, 0)
        ldr_sp(m)
        cbz(m, hidden_state == 0)                             # if (buffers->hidden_state != NULL ..
        if hidden_state != 0 and time_steps > 0:
            cmp(m, time_steps, 0)
            bcc(m, False)
            ldr_sp(m)
            ldr_sp(m)
            mov(m, 0)
            n = mul(m, hidden_size, batch_size)
            bl(m)
            memcpy(m, hidden_state, hidden_in, n)
    else:
        # cmsis_nn_lstm_params step_params = *params; step_params.batch_size = 1;
        mov(m, 0)
        mov(m, PARAMS_BYTES)                                  # movs r2, #220
        add(m, 0, 0)
        bl(m)
        memcpy(m, params_copy + PARAMS_BYTES_ALIGNED, params_copy, PARAMS_BYTES)
        ldr_sp(m)
        mov(m, 1)
        cmp(m, batch_size, 0)
        str_sp(m)
        bcc(m, batch_size <= 0)
        for bi in range(batch_size):
            mov(m, bi)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            mul(m, bi, hidden_size)
            cmp(m, hidden_state, 0)
            bcc(m, hidden_state == 0)
            step_hidden_in = 0
            if hidden_state != 0:
                step_hidden_in = add(m, hidden_state, bi * hidden_size)
            ldr_sp(m)                                         # step_buffers = *buffers: gcc's
            ldr_sp(m)                                         # LDM/STM of 4 words, as stack slots
            add(m, 0, 0)
            str_sp(m)
            cmp(m, time_steps, 0)
            step_cell = add(m, cell_state, 2 * bi * hidden_size)
            str_sp(m)
            bcc(m, time_steps <= 0)
            if time_steps > 0:
                mov(m, 0)
                mov(m, 0)
                b(m)
            for t in range(time_steps):
                ldr_sp(m)
                ldr_sp(m)
                row = mla(m, bi, time_steps, t)               # b * time_steps + t
                mov(m, 1)
                hidden_out = mla(m, hidden_size, row, output)
                str_sp(m)
                add(m, 0, 0)
                str_sp(m)
                mov(m, hidden_out)
                add(m, 0, 0)
                data_in = mla(m, input_size, row, input)
                add(m, t, 1)
                bl(m)
                arm_nn_lstm_step_s8(m, sigmoid_table, data_in, step_hidden_in, hidden_out,
                                    params, forget_gate, input_gate, cell_gate, output_gate,
                                    temp1, temp2, step_cell, 1, 1)
                cmp(m, 0, 0)
                bcc(m, True)
                step_hidden_in = hidden_out
                ldr_sp(m)
                cmp(m, time_steps, t + 1)
                mov(m, 0)
                bcc(m, t + 1 >= time_steps)
            ldr_sp(m)
            cbz(m, hidden_state == 0)
            if hidden_state != 0 and time_steps > 0:
                cmp(m, time_steps, 0)
                bcc(m, False)
                ldr_sp(m)
                mla(m, bi, hidden_size, hidden_state)
                bl(m)
                memcpy(m, hidden_state + bi * hidden_size, step_hidden_in, hidden_size)
                ldr_sp(m)
                str_sp(m)
                b(m)
            ldr_sp(m)
            add(m, bi, 1)
            cmp(m, batch_size, bi + 1)
            bcc(m, bi + 1 < batch_size)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    b(m)                                                      # (the shared epilogue)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
