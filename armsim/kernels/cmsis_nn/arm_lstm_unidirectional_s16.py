"""arm_lstm_unidirectional_s16 (Source/LSTMFunctions/arm_lstm_unidirectional_s16.c): the int16
LSTM (int16 input, output, hidden state and cell state; int8 weights; int64 effective biases)
over all time steps, TFLM's UNIDIRECTIONAL_SEQUENCE_LSTM 16x8 with its CMSIS-NN kernel.

    arm_cmsis_nn_status arm_lstm_unidirectional_s16(const int16_t *input, int16_t *output,
        const cmsis_nn_lstm_params *params, cmsis_nn_lstm_context *buffers)

The C is arm_lstm_unidirectional_s8's with int16 data (see that port): hidden_state NULL
clears the cell state (memset) and the first step has no recurrent input; time major, one
arm_nn_lstm_step_s16 per time step over all batches; batch major, the params copied to the
stack (220 bytes, newlib's memcpy, between the halves of `params_copy` as in the int8 port)
with batch_size 1, then per batch its cell state and time steps; with a hidden state given,
its last value is copied back (memcpy).  `params` and the gate tuples as in the int8 port.

Control flow, argument marshalling and stack traffic: gcc 12.2 -O2's disassembly of this file
(CMSIS-NN 99f736a, -mcpu=cortex-m4 and -mcpu=cortex-m3), which differs from the int8 file's
in the pointer arithmetic (MUL / ADD ..LSL #1 for int16 where the int8 code has MLA) and the
register allocation.  No measured case of it is in ../shared; the compiled objects executed on the three
lstm_*_s16 vectors (tests/ops/test_unidirectional_sequence_lstm_int16.py MEASURED) give the totals armsim counts.  Struct-field loads are
stack-slot loads (as in the int8 port); gcc's LDM / STM copying the 4-word context are
`ldm_sp` / `stm_sp`.
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

from .arm_lstm_unidirectional_s8 import PARAMS_BYTES, PARAMS_BYTES_ALIGNED
from .arm_nn_lstm_step_s8 import (
    BATCH_SIZE,
    HIDDEN_SIZE,
    INPUT_SIZE,
    TIME_MAJOR,
    TIME_STEPS,
)
from .arm_nn_lstm_step_s16 import arm_nn_lstm_step_s16

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def _time_major(m, sigmoid_table, input, output, params, forget_gate, input_gate, cell_gate,
                output_gate, temp1, temp2, cell_state, hidden_state):
    """for (t ..) arm_nn_lstm_step_s16(.., 1); then the hidden state copied back."""
    batch_size = params[BATCH_SIZE]
    time_steps = params[TIME_STEPS]
    input_size = params[INPUT_SIZE]
    hidden_size = params[HIDDEN_SIZE]
    ldr_sp(m)                                                 # params->time_steps
    cmp(m, time_steps, 0)
    bcc(m, time_steps <= 0)
    if time_steps <= 0:
        return
    mov(m, 0)
    mov(m, 1)
    if not m.dsp:
        mov(m, 0)
        mov(m, 0)
    b(m)
    hidden_in = hidden_state
    for t in range(time_steps):
        if t > 0:
            ldr_sp(m)                                         # params->time_steps
            cmp(m, time_steps, t)
            bcc(m, False)
        ldr_sp(m)
        if not m.dsp:
            mov(m, 0)
        k = mul(m, t, batch_size)                             # t * params->batch_size
        ldr_sp(m)
        ldr_sp(m)
        n_out = mul(m, k, hidden_size)
        n_in = mul(m, input_size, k)
        if m.dsp:
            mov(m, hidden_in)
        hidden_out = add(m, output, 2 * n_out)                # output + t * batch * hidden
        if m.dsp:
            strd_sp(m)                                        # buffers, batch_offset 1
        mov(m, params[TIME_MAJOR])
        mov(m, hidden_out)
        if not m.dsp:
            str_sp(m)
            str_sp(m)
        data_in = add(m, input, 2 * n_in)                     # input + t * batch * input_size
        add(m, t, 1)
        bl(m)
        arm_nn_lstm_step_s16(m, sigmoid_table, data_in, hidden_in, hidden_out, params,
                             forget_gate, input_gate, cell_gate, output_gate, temp1, temp2,
                             cell_state, batch_size, 1)
        cmp(m, 0, 0)                                          # status != ARM_CMSIS_NN_SUCCESS
        bcc(m, True)
        hidden_in = hidden_out                                # hidden_in = &hidden_out[0];
    ldr_sp(m)                                                 # params->time_steps
    cmp(m, time_steps, time_steps)
    bcc(m, True)                                              # ble: the loop is done
    if not m.dsp:
        mov(m, 0)
    ldr_sp(m)                                                 # buffers->hidden_state
    cbz(m, hidden_state == 0)
    if hidden_state != 0:
        cmp(m, time_steps, 0)
        bcc(m, False)
        ldr_sp(m)
        ldr_sp(m)
        if not m.dsp:
            mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        if m.dsp:
            mov(m, 0)
        n = lsl(m, n, 1)                                      # * sizeof(int16_t)
        bl(m)
        memcpy(m, hidden_state, hidden_in, n)


@kernel
def _batch_major(m, sigmoid_table, params_copy, input, output, params, forget_gate,
                 input_gate, cell_gate, output_gate, temp1, temp2, cell_state, hidden_state):
    """step_params = *params, batch_size 1; per batch its cell state and time steps."""
    batch_size = params[BATCH_SIZE]
    time_steps = params[TIME_STEPS]
    input_size = params[INPUT_SIZE]
    hidden_size = params[HIDDEN_SIZE]
    mov(m, PARAMS_BYTES)                                      # movs r2, #220
    mov(m, 0)
    add(m, 0, 0)
    bl(m)
    memcpy(m, params_copy + PARAMS_BYTES_ALIGNED, params_copy, PARAMS_BYTES)
    ldr_sp(m)                                                 # params->batch_size
    mov(m, 1)
    cmp(m, batch_size, 0)
    str_sp(m)                                                 # step_params.batch_size = 1;
    bcc(m, batch_size <= 0)
    if batch_size <= 0:
        return
    mov(m, 0)
    if not m.dsp:
        mov(m, 0)
        add(m, 0, 0)
    str_sp(m)
    for bi in range(batch_size):
        if not m.dsp:
            ldr_sp(m)
        ldr_sp(m)                                             # params->hidden_size
        ldr_sp(m)                                             # buffers->hidden_state
        offset = mul(m, bi, hidden_size)
        cmp(m, hidden_state, 0)
        bcc(m, hidden_state == 0)
        step_hidden_in = 0
        if hidden_state != 0:
            step_hidden_in = add(m, hidden_state, 2 * offset)
        if m.dsp:
            ldm_sp(m, 4)                                      # ldmia: step_buffers = *buffers
            ldr_sp(m)                                         # params->time_steps
            lsl(m, offset, 1)
            add(m, 0, 0)
            stm_sp(m, 4)                                      # stmia
            cmp(m, time_steps, 0)
        else:
            ldr_sp(m)                                         # params->time_steps
            ldr_sp(m)
            lsl(m, offset, 1)
            ldm_sp(m, 4)                                      # ldmia
            cmp(m, time_steps, 0)
            stm_sp(m, 4)                                      # stmia
        step_cell = add(m, cell_state, 2 * offset)            # cell_state + b * hidden_size
        str_sp(m)
        bcc(m, time_steps <= 0)
        if time_steps > 0:
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            if not m.dsp:
                mov(m, 0)
            b(m)
        for t in range(time_steps):
            if t > 0:
                ldr_sp(m)                                     # params->time_steps
                cmp(m, time_steps, t)
                if m.dsp:
                    mov(m, 0)
                    bcc(m, False)
                    ldr_sp(m)                                 # params->hidden_size
                else:
                    bcc(m, False)
                    mov(m, 0)
                    ldr_sp(m)
            row = mla(m, bi, time_steps, t)                   # b * time_steps + t
            ldr_sp(m)                                         # params->input_size
            n_out = mul(m, row, hidden_size)
            n_in = mul(m, input_size, row)
            mov(m, 1)
            hidden_out = add(m, output, 2 * n_out)
            if m.dsp:
                str_sp(m)
                add(m, 0, 0)
                str_sp(m)
                mov(m, hidden_out)
                add(m, 0, 0)
            else:
                strd_sp(m)                                    # &step_buffers, batch_offset 1
                add(m, 0, 0)
                mov(m, hidden_out)
            data_in = add(m, input, 2 * n_in)
            if m.dsp:
                add(m, t, 1)
            bl(m)
            arm_nn_lstm_step_s16(m, sigmoid_table, data_in, step_hidden_in, hidden_out,
                                 params, forget_gate, input_gate, cell_gate, output_gate,
                                 temp1, temp2, step_cell, 1, 1)
            if not m.dsp:
                add(m, t, 1)
            cmp(m, 0, 0)
            bcc(m, True)
            step_hidden_in = hidden_out
        if time_steps > 0:
            ldr_sp(m)                                         # params->time_steps
            cmp(m, time_steps, time_steps)
            if m.dsp:
                mov(m, 0)
            bcc(m, True)
            if not m.dsp:
                ldr_sp(m)
            ldr_sp(m)                                         # buffers->hidden_state
            cbz(m, hidden_state == 0)
            if hidden_state != 0:
                cmp(m, time_steps, 0)
                bcc(m, True)                                  # bgt
                ldr_sp(m)
                if not m.dsp:
                    mov(m, 0)
                dst = mul(m, bi, hidden_size)
                lsl(m, hidden_size, 1)
                add(m, hidden_state, 2 * dst)
                bl(m)
                memcpy(m, hidden_state + 2 * bi * hidden_size, step_hidden_in,
                       2 * hidden_size)
                ldr_sp(m)                                     # params->batch_size
                if m.dsp:
                    str_sp(m)
                else:
                    mov(m, 0)
                b(m)
            else:
                ldr_sp(m)
                if m.dsp:
                    str_sp(m)
                else:
                    mov(m, 0)
        if m.dsp:
            ldr_sp(m)
        add(m, bi, 1)
        cmp(m, batch_size, bi + 1)
        bcc(m, bi + 1 < batch_size)
    b(m)


@kernel
def arm_lstm_unidirectional_s16(m, sigmoid_table, params_copy, input, output, params,
                                forget_gate, input_gate, cell_gate, output_gate, temp1, temp2,
                                cell_state, hidden_state):
    """`hidden_state` 0 is NULL.  Returns ARM_CMSIS_NN_SUCCESS (0)."""
    batch_size = params[BATCH_SIZE]
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
        if not m.dsp:
            mov(m, 0)
        n = mul(m, hidden_size, batch_size)
        ldr_sp(m)
        n = lsl(m, n, 1)                                      # * sizeof(int16_t)
        if m.dsp:
            mov(m, 0)
        bl(m)
        memset(m, cell_state, 0, n)                           # memset(buffers->cell_state, 0, ..)
        b(m)
    ldr_sp(m)                                                 # params->time_major
    cbz(m, params[TIME_MAJOR] == 0)
    if params[TIME_MAJOR]:
        _time_major(m, sigmoid_table, input, output, params, forget_gate, input_gate,
                    cell_gate, output_gate, temp1, temp2, cell_state, hidden_state)
    else:
        _batch_major(m, sigmoid_table, params_copy, input, output, params, forget_gate,
                     input_gate, cell_gate, output_gate, temp1, temp2, cell_state,
                     hidden_state)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    b(m)                                                      # (the shared epilogue)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
