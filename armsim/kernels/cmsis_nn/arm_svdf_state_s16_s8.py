"""arm_svdf_state_s16_s8 (Source/SVDFunctions/arm_svdf_state_s16_s8.c), non-MVE: SVDF with
int16 state and int16 time weights (TFLM's CMSIS-NN glue calls it when the time weights
are int16).

The steps of arm_svdf_s8 (kernels/cmsis_nn/arm_svdf_s8.py) with int16 data: the state
shift is a `memmove` of 2 (n - 1) bytes, the feature stage is
arm_nn_vec_mat_mult_t_svdf_s8 (int16 results, dst_offset time_batches), the time dot
product reads two int16 pairs per SMLAD (ARM_MATH_DSP: arm_nn_read_q15x2_ia, two columns a
step, then single MACs; plain C one MAC a step).  Steps 4-5 are `svdf_tail`
(arm_svdf_s8's fitted port before it was transcribed from gcc's disassembly).

There is no measured count of this function in ../shared (the svdf_state_s16 family has
vectors only): its bookkeeping mirrors arm_svdf_s8's fitted one, uncalibrated here.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_mov,
                            fitted_str_sp, fitted_sub, ldr, ldrsh, mla, mov, mul, pop_pc, push,
                            sdiv, smlad, str_, strb, sub)
from armsim.kernels.libc import memmove
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_requantize import arm_nn_requantize
from .arm_nn_vec_mat_mult_t_svdf_s8 import arm_nn_vec_mat_mult_t_svdf_s8

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
def arm_svdf_state_s16_s8(m, buffer_a, buffer_b, rank, zp_in, zp_out, in_activation_min,
                          in_activation_max, out_activation_min, out_activation_max,
                          multiplier_in, shift_in, multiplier_out, shift_2, input_batches,
                          input_height, feature_batches, time_batches, input_data, state_data,
                          weights_feature_data, weights_time_data, bias_data, output_data):
    """state_data and weights_time_data hold int16.  Returns status."""
    push(m, 9)                                                # push {r4-r11, lr}
    fitted_sub(m)
    for _ in range(16):
        fitted_ldr_sp(m)                                      # the params' and dims' fields
    unit_count = sdiv(m, feature_batches, rank)
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
    # memmove(state_data, state_data + 1, (batches * features * time - 1) * sizeof(int16_t))
    n = sub(m, mul(m, mul(m, input_batches, feature_batches), time_batches), 1)
    mov(m, state_data)
    add(m, state_data, 2)
    bl(m)
    memmove(m, state_data, state_data + 2, 2 * n)
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    for i_batch in range(input_batches):
        # res_ptr = state_data + (time_batches * i_batch * feature_batches) + (time_batches - 1)
        res_ptr = add(m, mla(m, 2 * time_batches * i_batch, feature_batches, state_data),
                      2 * (time_batches - 1))
        inp = mla(m, i_batch, input_height, input_data)
        for _ in range(7):
            fitted_str_sp(m)                                  # the stacked arguments
        for _ in range(4):
            fitted_mov(m)
        neg_zp = sub(m, 0, zp_in)                             # -zp_in
        bl(m)
        res = arm_nn_vec_mat_mult_t_svdf_s8(m, inp, weights_feature_data, res_ptr, neg_zp,
                                            time_batches, multiplier_in, shift_in,
                                            input_height, feature_batches, in_activation_min,
                                            in_activation_max)
        cbz(m, res == 0)
        if res != 0:
            pop_pc(m, 9)
            return res
        cmp(m, i_batch + 1, input_batches)
        bcc(m, i_batch + 1 < input_batches)
    # Matrix multiplication time weight * state tensors
    ptr_a = buffer_a
    v2 = state_data
    block_count = asr(m, time_batches, 1)                     # time_batches >> 1
    for _ in range(input_batches):
        v1 = weights_time_data
        fitted_ldr_sp(m)
        cmp(m, feature_batches, 0)
        bcc(m, feature_batches <= 0)
        for _ in range(feature_batches):
            fitted_ldr_sp(m)
            total = mov(m, 0)                                 # int32_t sum = 0;
            if m.dsp:
                j = 0
                cmp(m, block_count, 0)
                bcc(m, block_count <= 0)
                for _ in range(block_count):
                    j += 2
                    r1 = ldr(m, v1)                           # arm_nn_read_q15x2_ia(&v1)
                    r2 = ldr(m, v2)                           # arm_nn_read_q15x2_ia(&v2)
                    v1 += 4
                    v2 += 4
                    total = smlad(m, r1, r2, total)           # sum = SMLAD(r1, r2, sum);
                    cmp(m, 0, 0)
                    bcc(m, True)
                cmp(m, j, time_batches)
                bcc(m, j >= time_batches)
                while j < time_batches:                       # sum += *v1 * *v2;
                    total = mla(m, ldrsh(m, v1), ldrsh(m, v2), total)
                    v1 += 2
                    v2 += 2
                    j += 1
                    cmp(m, j, time_batches)
                    bcc(m, j < time_batches)
            else:
                cmp(m, time_batches, 0)
                bcc(m, time_batches <= 0)
                for _ in range(time_batches):
                    total = mla(m, ldrsh(m, v1), ldrsh(m, v2), total)
                    v1 += 2
                    v2 += 2
                    cmp(m, 0, 0)
                    bcc(m, True)
            str_(m, ptr_a, total)                             # *ptr_a = sum;
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
