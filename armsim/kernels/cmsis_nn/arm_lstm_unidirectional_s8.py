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
argument marshalling: the disassembly of the measured builds (gcc 12.2 -O2, -mcpu=cortex-m4
and cortex-m3, each in its own order where they differ); gcc's LDM / STM copying the 4-word
context are `ldm_sp` / `stm_sp`.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (
    add,
    b,
    bcc,
    bl,
    cbz,
    cmp,
    ldm_sp,
    ldr_sp,
    lsl,
    mla,
    mov,
    mul,
    pop_pc,
    push,
    stm_sp,
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
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    k = mul(m, t, batch_size)
                    mov(m, hidden_in)
                    hidden_out = mla(m, hidden_size, k, output)   # output + t * batch * hidden
                    strd_sp(m)
                    mov(m, 0)
                    mov(m, hidden_out)
                    data_in = mla(m, input_size, k, input)    # input + t * batch * input_size
                else:
                    ldr_sp(m)                                 # 32: params->batch_size
                    mov(m, hidden_in)
                    k = mul(m, t, batch_size)
                    ldr_sp(m)
                    ldr_sp(m)
                    hidden_out = mla(m, hidden_size, k, output)
                    data_in = mla(m, input_size, k, input)
                    mov(m, 0)
                    mov(m, hidden_out)
                    str_sp(m)                                 # 50: str r7, [sp, #4]
                    str_sp(m)                                 # 52: str r4, [sp]
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
        if m.dsp:
            mov(m, 0)                                         # 68: mov r1, fp
            mov(m, PARAMS_BYTES)                              # movs r2, #220
        else:
            mov(m, PARAMS_BYTES)                              # 64: movs r2, #220
            mov(m, 0)
        add(m, 0, 0)
        bl(m)
        memcpy(m, params_copy + PARAMS_BYTES_ALIGNED, params_copy, PARAMS_BYTES)
        if m.dsp:
            ldr_sp(m)                                         # 72: params->batch_size
            mov(m, 1)
            cmp(m, batch_size, 0)
            str_sp(m)
        else:
            mov(m, 1)                                         # 6e: movs r3, #1
            ldr_sp(m)                                         # params->batch_size
            str_sp(m)
            cmp(m, batch_size, 0)
        bcc(m, batch_size <= 0)                               # ble
        if batch_size > 0:
            mov(m, 0)                                         # 7e / 7c: b = 0
            str_sp(m)
        for bi in range(batch_size):
            ldr_sp(m)                                         # params->hidden_size
            ldr_sp(m)                                         # buffers->hidden_state
            mul(m, bi, hidden_size)
            if m.dsp:
                cmp(m, hidden_state, 0)
                bcc(m, hidden_state == 0)                     # beq
            else:
                cbz(m, hidden_state == 0)
            step_hidden_in = 0
            if hidden_state != 0:
                step_hidden_in = add(m, hidden_state, bi * hidden_size)
            # cmsis_nn_lstm_context step_buffers = *buffers;  (LDM / STM of 4 words)
            if m.dsp:
                ldm_sp(m, 4)                                  # 96: ldmia.w r8, {r0-r3}
                ldr_sp(m)                                     # params->time_steps
                add(m, 0, 0)
                stm_sp(m, 4)                                  # a2: stmia.w lr, {r0-r3}
                cmp(m, time_steps, 0)
            else:
                ldr_sp(m)                                     # 92: params->time_steps
                add(m, 0, 0)
                ldm_sp(m, 4)                                  # 98: ldmia.w fp, {r0-r3}
                cmp(m, time_steps, 0)
                stm_sp(m, 4)                                  # 9e: stmia.w lr, {r0-r3}
            step_cell = add(m, cell_state, 2 * bi * hidden_size)
            str_sp(m)                                         # step_buffers.cell_state
            bcc(m, time_steps <= 0)                           # ble
            if time_steps > 0:
                mov(m, 0)
                mov(m, 0)
                if not m.dsp:
                    mov(m, 0)
                b(m)
            for t in range(time_steps):
                if t > 0:                                     # the loop's tail, then its head
                    if m.dsp:
                        ldr_sp(m)                             # b8: params->time_steps
                        cmp(m, time_steps, t)
                        mov(m, 0)
                        bcc(m, False)                         # ble
                        ldr_sp(m)                             # c2: params->hidden_size
                    else:
                        ldr_sp(m)                             # b2: params->time_steps
                        cmp(m, time_steps, t)
                        bcc(m, False)                         # ble
                        mov(m, 0)
                        ldr_sp(m)                             # ba: params->hidden_size
                row = bi * time_steps + t                     # b * time_steps + t
                if m.dsp:
                    ldr_sp(m)                                 # c6: params->input_size
                    mla(m, bi, time_steps, t)
                    mov(m, 1)
                    hidden_out = mla(m, hidden_size, row, output)
                    str_sp(m)
                    add(m, 0, 0)
                    str_sp(m)
                    mov(m, hidden_out)
                    add(m, 0, 0)
                    data_in = mla(m, input_size, row, input)
                    add(m, t, 1)
                else:
                    mov(m, 1)                                 # bc: movs r2, #1
                    mla(m, bi, time_steps, t)
                    hidden_out = mla(m, hidden_size, row, output)
                    ldr_sp(m)                                 # c6: params->input_size
                    str_sp(m)
                    add(m, 0, 0)
                    str_sp(m)
                    data_in = mla(m, input_size, row, input)
                    mov(m, hidden_out)
                    add(m, 0, 0)
                bl(m)
                arm_nn_lstm_step_s8(m, sigmoid_table, data_in, step_hidden_in, hidden_out,
                                    params, forget_gate, input_gate, cell_gate, output_gate,
                                    temp1, temp2, step_cell, 1, 1)
                if not m.dsp:
                    add(m, t, 1)                              # da: adds r7, #1
                cmp(m, 0, 0)                                  # status != ARM_CMSIS_NN_SUCCESS
                bcc(m, True)                                  # beq: the loop goes on
                step_hidden_in = hidden_out
            if time_steps > 0:                                # the last loop test
                ldr_sp(m)
                cmp(m, time_steps, time_steps)
                if m.dsp:
                    mov(m, 0)
                bcc(m, True)                                  # ble: done
                # if (buffers->hidden_state != NULL && time_steps > 0) memcpy(...)
                ldr_sp(m)                                     # buffers->hidden_state
                cbz(m, hidden_state == 0)
                if hidden_state != 0:
                    cmp(m, time_steps, 0)
                    bcc(m, True)                              # bgt
                    ldr_sp(m)                                 # params->hidden_size
                    if not m.dsp:
                        mov(m, 0)
                    mla(m, bi, hidden_size, hidden_state)
                    bl(m)
                    memcpy(m, hidden_state + bi * hidden_size, step_hidden_in, hidden_size)
                    ldr_sp(m)                                 # params->batch_size
                    str_sp(m)
                    b(m)
                else:
                    ldr_sp(m)                                 # params->batch_size
                    str_sp(m)
            ldr_sp(m)
            add(m, bi, 1)
            cmp(m, batch_size, bi + 1)
            bcc(m, bi + 1 < batch_size)                       # bgt
        if batch_size > 0:
            b(m)                                              # 10a / fa: b.n to the return
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    b(m)                                                      # (the shared epilogue)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
