"""arm_convolve_1x1_s8 (Source/ConvolutionFunctions/arm_convolve_1x1_s8.c), non-MVE.

1x1 convolution with any stride and no padding: one arm_nn_mat_mult_nt_t_s8 call per output
row (lhs rows = output_w, read every stride_w * input_c bytes along the input row).

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4 / cortex-m3: the same
instructions, in a different order in the set-up and the call's argument stores): the
padding test, the loop invariants (input_inc, output_inc, rhs_cols * stride_w) computed once
and spilled, the batch loop that recomputes input_data from input_data_ref, the row loop
that stores the eleven stacked arguments for each call and tests its result (CMP r0, #0),
the returns.  Struct field loads (LDR [rN, #imm] of the caller's structs, not placed in
simulated memory) are issued as `ldr_sp`.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, ldr_sp, ldrd_sp, mla, mov, mul, pop_pc, push,
                            str_sp, strd_sp, sub)

from .arm_nn_mat_mult_nt_t_s8 import arm_nn_mat_mult_nt_t_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel(inline=True)
def _call_arguments(m):
    """The eleven stacked arguments of arm_nn_mat_mult_nt_t_s8 and r0-r3 (0x7c-0xb8):
    the conv_params and quant_params fields reloaded, the spilled invariants, the row's
    input and output pointers advanced (input_data += input_inc; output_data +=
    output_inc) and the row counter incremented before the BL."""
    if m.dsp:
        ldr_sp(m)                                     # activation.max
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        strd_sp(m)
        ldr_sp(m)
        strd_sp(m)
        ldr_sp(m)
        str_sp(m)
        for _ in range(5):                            # activation.min, offsets, shift, multiplier
            ldr_sp(m)
            str_sp(m)
        mov(m, 0)
        mov(m, 0)
        add(m, 0, 0)                                  # input_data += input_inc;
        ldr_sp(m)
        add(m, 0, 1)                                  # i_output_h++
        add(m, 0, 0)                                  # output_data += output_inc;
    else:
        ldr_sp(m)                                     # activation.max
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        mov(m, 0)
        strd_sp(m)
        ldr_sp(m)
        add(m, 0, 0)                                  # input_data += input_inc;
        strd_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 1)                                  # i_output_h++
        for _ in range(3):
            str_sp(m)
            ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        add(m, 0, 0)                                  # output_data += output_inc;
    bl(m)


@kernel
def arm_convolve_1x1_s8(m, ctx, conv_params, quant_params, input_dims, input_data,
                        filter_dims, filter_data, bias_data, output_dims, output_data):
    """Returns the status (0 or ARG_ERROR)."""
    push(m, 9)                                        # push {r4-r11, lr}
    mov(m, 0)
    ldr_sp(m)                                         # conv_params->padding.w
    sub(m, 0, 0)                                      # sub sp, #84
    if m.dsp:
        mov(m, 0)
    ldrd_sp(m)                                        # output_dims, output_data (stacked)
    cmp(m, conv_params.padding.w, 0)                  # if (padding.w != 0 || padding.h != 0)
    bcc(m, conv_params.padding.w != 0)
    bad = conv_params.padding.w != 0
    if not bad:
        ldr_sp(m)                                     # conv_params->padding.h
        mov(m, 0)
        cmp(m, conv_params.padding.h, 0)
        bcc(m, conv_params.padding.h != 0)
        bad = conv_params.padding.h != 0
    if bad:
        mov(m, ARG_ERROR)                             # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)                                  # add sp, #84
        pop_pc(m, 9)
        return ARG_ERROR
    lhs_rows = output_dims.w                          # const int32_t lhs_rows = output_dims->w;
    rhs_rows = output_dims.c                          # const int32_t rhs_rows = output_dims->c;
    rhs_cols = input_dims.c                           # const int32_t rhs_cols = input_dims->c;
    output_h = output_dims.h
    batch = input_dims.n
    if m.dsp:
        ldr_sp(m)                                     # conv_params->stride.h
        ldr_sp(m)                                     # input_dims->w
        ldr_sp(m)                                     # output_dims->h
        ldr_sp(m)                                     # conv_params->stride.w
        ldrd_sp(m)                                    # output_dims->w, c
        ldr_sp(m)                                     # input_dims->c
        str_sp(m)
        input_inc = mul(m, mul(m, input_dims.w, conv_params.stride.h), rhs_cols)
        ldr_sp(m)                                     # input_dims->n
        str_sp(m)
        cmp(m, batch, 0)
        output_inc = mul(m, rhs_rows, lhs_rows)       # output_dims->w * rhs_rows
    else:
        ldr_sp(m)                                     # conv_params->stride.h
        ldr_sp(m)                                     # input_dims->w
        mov(m, 0)
        ldrd_sp(m)                                    # output_dims->w, c
        input_inc = mul(m, input_dims.w, conv_params.stride.h)
        ldr_sp(m)                                     # input_dims->c
        ldr_sp(m)                                     # output_dims->h
        input_inc = mul(m, input_inc, rhs_cols)
        str_sp(m)
        ldr_sp(m)                                     # input_dims->n
        output_inc = mul(m, rhs_rows, lhs_rows)       # output_dims->w * rhs_rows
        cmp(m, batch, 0)
        ldr_sp(m)                                     # conv_params->stride.w
        str_sp(m)
    bcc(m, batch <= 0)                                # ble
    if batch > 0:
        mov(m, 0)
        if m.dsp:
            ldr_sp(m)
            str_sp(m)
            lhs_cols_offset = mul(m, rhs_cols, conv_params.stride.w)  # rhs_cols * stride_w
            str_sp(m)
            mov(m, 0)
            str_sp(m)
        else:
            mov(m, 0)
            ldr_sp(m)
            str_sp(m)
            lhs_cols_offset = mul(m, rhs_cols, conv_params.stride.w)  # rhs_cols * stride_w
            str_sp(m)
            str_sp(m)
        input_data_ref = input_data
        batch_rows = 0                                # i_batch * input_dims->c, stepped
        for i_batch in range(batch):
            if m.dsp:
                ldr_sp(m)                             # input_dims->h
                ldr_sp(m)                             # input_data_ref
                t = mul(m, input_dims.w, batch_rows)
                cmp(m, output_h, 0)
                # input_data = input_data_ref + (i_batch * rhs_cols * input_dims->w * input_dims->h);
                input_data = mla(m, input_dims.h, t, input_data_ref)
            else:
                t = mul(m, input_dims.w, batch_rows)
                ldr_sp(m)                             # input_dims->h
                ldr_sp(m)                             # input_data_ref
                cmp(m, output_h, 0)
                input_data = mla(m, input_dims.h, t, input_data_ref)
            bcc(m, output_h <= 0)                     # ble
            if output_h > 0:
                if m.dsp:
                    strd_sp(m)
                    mov(m, 0)                         # i_output_h = 0
                else:
                    mov(m, 0)
                    strd_sp(m)
                str_sp(m)
                b(m)
                for i_output_h in range(output_h):
                    if i_output_h:
                        cmp(m, output_h, i_output_h)
                        bcc(m, False)                 # beq: the rows are not done
                    _call_arguments(m)
                    result = arm_nn_mat_mult_nt_t_s8(
                        m, input_data, filter_data, bias_data, output_data,
                        quant_params.multiplier, quant_params.shift, lhs_rows, rhs_rows,
                        rhs_cols, conv_params.input_offset, conv_params.output_offset,
                        conv_params.activation.min, conv_params.activation.max, rhs_rows,
                        lhs_cols_offset)
                    input_data += input_inc
                    output_data += output_inc
                    cmp(m, result, 0)                 # if (result != ARM_CMSIS_NN_SUCCESS)
                    bcc(m, result == 0)               # beq
                    if result != 0:
                        add(m, 0, 0)                  # add sp, #84
                        pop_pc(m, 9)
                        return result                 # return result;
                cmp(m, output_h, output_h)
                bcc(m, True)                          # beq: the rows are done
                if m.dsp:
                    ldrd_sp(m)
                    ldr_sp(m)
                else:
                    ldr_sp(m)
                    ldrd_sp(m)
            ldr_sp(m)                                 # input_dims->c
            if m.dsp:
                add(m, batch_rows, rhs_cols)
                ldr_sp(m)                             # batch
                add(m, i_batch, 1)                    # i_batch++
            else:
                add(m, i_batch, 1)
                add(m, batch_rows, rhs_cols)
                ldr_sp(m)
            batch_rows += rhs_cols
            cmp(m, i_batch + 1, batch)
            bcc(m, i_batch + 1 == batch)              # beq
            if i_batch + 1 < batch:
                ldr_sp(m)                             # input_dims->w
                b(m)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #84
    pop_pc(m, 9)
    return 0
