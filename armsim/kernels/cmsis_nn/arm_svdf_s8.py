"""arm_svdf_s8 (Source/SVDFunctions/arm_svdf_s8.c), non-MVE: SVDF with int8 state and
int8 time weights.

    arm_cmsis_nn_status arm_svdf_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_context *input_ctx, const cmsis_nn_context *output_ctx,
        const cmsis_nn_svdf_params *svdf_params,
        const cmsis_nn_per_tensor_quant_params *input_quant_params,
        const cmsis_nn_per_tensor_quant_params *output_quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *state_dims, int8_t *state_data, ...)

1. the state shifted left by one element: newlib `memmove(state, state + 1, n - 1)`;
2. per batch, arm_nn_vec_mat_mult_t_s8 writes input x weights_feature (requantized by
   the input quant params, clamped to input_activation) into the newest state column
   (address_offset time_batches, lhs offset -input_offset, no bias);
3. per feature, the time dot product state x weights_time into input_ctx->buf
   (ARM_MATH_DSP: four at a time with read_and_pad_reordered and two SMLAD, then single
   MACs; plain C: one MAC per step);
4. bias + the sum over each unit's `rank` features into output_ctx->buf;
5. requantize by the output quant params, + output_offset, clamp, store.

`svdf_tail` (steps 4 and 5) is shared with arm_svdf_state_s16_s8, which has the same code.
The MACs, loads, stores and requantizations are the C's; the loop bookkeeping and stack
traffic around them are fitted to the measured per-function counts of ../shared/reference
svdf_s8_b1_i128_f64_t16_r4 and svdf_s8_b1_i64_f32_t10_r1 (function `arm_svdf_s8`: dsp_O2
5,636 / 3,182, scalar_O2 6,908 / 3,281 instructions), not read off a disassembly.  gcc
compiles the int8 x int8 remainder MAC of the DSP build as SMLABB (measured), MLA in the
plain-C build.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp,
                            fitted_ldrd_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, ldr, ldrsb,
                            mla, mov, mul, pop_pc, push, sdiv, smlabb, smlad, str_, strb, sub)
from armsim.kernels.libc import memmove
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8
from .read_and_pad_reordered import read_and_pad_reordered

ARG_ERROR = -1


@kernel
def svdf_tail(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches, unit_count,
              rank, multiplier_out, shift_2, zp_out, out_activation_min, out_activation_max,
              output_data):
    """Steps 4 and 5: bias and rank reduction into buffer_b, then the int8 output."""
    cbz(m, bias_data == 0)                                    # if (bias_data)
    if bias_data != 0 and unit_count == feature_batches:
        cmp(m, unit_count, feature_batches)                   # if (unit_count == feature_batches)
        bcc(m, False)
        for i in range(input_batches):
            out_temp = buffer_b + 4 * i * feature_batches
            ptr_a = buffer_a + 4 * i * feature_batches
            cmp(m, feature_batches, 0)
            bcc(m, feature_batches <= 0)
            for j in range(feature_batches):                  # output_temp[j] = ptr_a[j] + bi[j];
                str_(m, out_temp + 4 * j, add(m, ldr(m, ptr_a + 4 * j), ldr(m, bias_data + 4 * j)))
                fitted_add(m)                           # the three pointers stepped
                fitted_add(m)
                cmp(m, j + 1, feature_batches)
                bcc(m, j + 1 < feature_batches)
            cmp(m, i + 1, input_batches)
            bcc(m, i + 1 < input_batches)
    else:
        if bias_data != 0:
            cmp(m, unit_count, feature_batches)
            bcc(m, True)
        for i_batch in range(input_batches):
            out_temp = buffer_b + 4 * i_batch * unit_count
            ptr_a = buffer_a + 4 * i_batch * feature_batches
            fitted_ldr_sp(m)
            cmp(m, unit_count, 0)
            bcc(m, unit_count <= 0)
            for i in range(unit_count):
                total = ldr(m, bias_data + 4 * i) if bias_data != 0 else mov(m, 0)
                cmp(m, rank, 0)
                bcc(m, rank <= 0)
                for _ in range(rank):                         # sum += *ptr_a; ptr_a++;
                    total = add(m, total, ldr(m, ptr_a))
                    ptr_a += 4
                    fitted_ldr_sp(m)                          # rank and the pointer reloaded
                    fitted_str_sp(m)
                    fitted_add(m)
                    cmp(m, 0, 0)
                    bcc(m, True)
                str_(m, out_temp + 4 * i, total)              # output_data_temp[i] = sum;
                fitted_add(m)
                cmp(m, i + 1, unit_count)
                bcc(m, i + 1 < unit_count)
            cmp(m, i_batch + 1, input_batches)
            bcc(m, i_batch + 1 < input_batches)
    count = mul(m, input_batches, unit_count)
    cmp(m, count, 0)
    bcc(m, count <= 0)
    for i in range(count):
        # CLAMP(arm_nn_requantize(buffer_b[i], multiplier_out, shift_2) + zp_out, max, min)
        fitted_ldr_sp(m)
        fitted_ldr_sp(m)
        value = arm_nn_requantize(m, ldr(m, buffer_b + 4 * i), multiplier_out, shift_2)
        value = add(m, value, zp_out)
        value = max_lt(m, value, out_activation_min)
        value = min_gt(m, value, out_activation_max)
        strb(m, output_data + i, value)
        fitted_mov(m)
        cmp(m, i + 1, count)
        bcc(m, i + 1 < count)


@kernel
def arm_svdf_s8(m, buffer_a, buffer_b, rank, zp_in, zp_out, in_activation_min,
                in_activation_max, out_activation_min, out_activation_max, multiplier_in,
                shift_in, multiplier_out, shift_2, input_batches, input_height,
                feature_batches, time_batches, input_data, state_data, weights_feature_data,
                weights_time_data, bias_data, output_data):
    """buffer_a/buffer_b: input_ctx->buf and output_ctx->buf (0: NULL).  Returns status."""
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    for _ in range(16):
        fitted_ldr_sp(m)                                      # the params' and dims' fields
    unit_count = sdiv(m, feature_batches, rank)               # feature_batches / rank
    cbz(m, buffer_a == 0)                                     # if (input_ctx->buf == NULL)
    if buffer_a == 0:
        mov(m, ARG_ERROR)
        pop_pc(m, 9)
        return ARG_ERROR
    cbz(m, buffer_b == 0)                                     # if (output_ctx->buf == NULL)
    if buffer_b == 0:
        mov(m, ARG_ERROR)
        pop_pc(m, 9)
        return ARG_ERROR
    for _ in range(6):
        fitted_str_sp(m)
    # memmove(state_data, state_data + 1, input_batches * feature_batches * time_batches - 1)
    n = sub(m, mul(m, mul(m, input_batches, feature_batches), time_batches), 1)
    mov(m, state_data)
    add(m, state_data, 1)
    bl(m)
    memmove(m, state_data, state_data + 1, n)
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    for i_batch in range(input_batches):
        # res_ptr = state_data + (time_batches * i_batch * feature_batches) + (time_batches - 1)
        res_ptr = add(m, mla(m, time_batches * i_batch, feature_batches, state_data),
                      time_batches - 1)
        inp = mla(m, i_batch, input_height, input_data)      # input_data + i_batch * input_height
        for _ in range(11):
            fitted_str_sp(m)                                  # the stacked arguments
        for _ in range(4):
            fitted_mov(m)
        neg_zp = sub(m, 0, zp_in)                             # -zp_in
        bl(m)
        res = arm_nn_vec_mat_mult_t_s8(m, inp, weights_feature_data, 0, 0, res_ptr, neg_zp, 0,
                                       multiplier_in, shift_in, input_height, feature_batches,
                                       in_activation_min, in_activation_max, time_batches, 0)
        cbz(m, res == 0)                                      # if (res != ARM_CMSIS_NN_SUCCESS)
        cmp(m, i_batch + 1, input_batches)
        bcc(m, i_batch + 1 < input_batches)
    # Matrix multiplicate time weight * state tensors
    ptr_a = buffer_a
    v2 = state_data
    block_count = asr(m, time_batches, 2)                     # time_batches >> 2
    for _ in range(input_batches):
        v1 = weights_time_data
        fitted_ldr_sp(m)
        cmp(m, feature_batches, 0)
        bcc(m, feature_batches <= 0)
        for _ in range(feature_batches):
            fitted_ldr_sp(m)
            total = mov(m, 0)                                 # int32_t sum = 0;
            if m.dsp:
                fitted_ldrd_sp(m)                             # v1/v2 kept on the stack
                fitted_strd_sp(m)
                b(m)
                j = 0
                cmp(m, block_count, 0)
                bcc(m, block_count <= 0)
                for _ in range(block_count):
                    j += 4
                    v1, r1_1, r1_2 = read_and_pad_reordered(m, v1)
                    v2, r2_1, r2_2 = read_and_pad_reordered(m, v2)
                    total = smlad(m, r1_1, r2_1, total)       # sum = SMLAD(r1_1, r2_1, sum);
                    total = smlad(m, r1_2, r2_2, total)       # sum = SMLAD(r1_2, r2_2, sum);
                    add(m, 0, 0)                              # j += 4, the block counter
                    fitted_add(m)
                    cmp(m, 0, 0)
                    bcc(m, True)
                cmp(m, j, time_batches)
                bcc(m, j >= time_batches)
                while j < time_batches:                       # sum += *v1 * *v2;
                    total = smlabb(m, ldrsb(m, v1), ldrsb(m, v2), total)
                    v1 += 1
                    v2 += 1
                    fitted_add(m)                       # pointer updates not folded
                    fitted_add(m)
                    j += 1
                    cmp(m, j, time_batches)
                    bcc(m, j < time_batches)
            else:
                fitted_add(m)
                cmp(m, time_batches, 0)
                bcc(m, time_batches <= 0)
                for _ in range(time_batches):
                    total = mla(m, ldrsb(m, v1), ldrsb(m, v2), total)
                    v1 += 1
                    v2 += 1
                    cmp(m, 0, 0)
                    bcc(m, True)
            str_(m, ptr_a, total)                             # *ptr_a = sum;  (the *ptr_a = 0 store is dead)
            ptr_a += 4
            fitted_add(m)
            cmp(m, 0, 0)
            bcc(m, True)
    svdf_tail(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches, unit_count,
              rank, multiplier_out, shift_2, zp_out, out_activation_min, out_activation_max,
              output_data)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0
