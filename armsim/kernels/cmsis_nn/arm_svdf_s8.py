"""arm_svdf_s8 (Source/SVDFunctions/arm_svdf_s8.c), non-MVE: SVDF with int8 state and
int8 time weights.

    arm_cmsis_nn_status arm_svdf_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_context *input_ctx, const cmsis_nn_context *output_ctx,
        const cmsis_nn_svdf_params *svdf_params,
        const cmsis_nn_per_tensor_quant_params *input_quant_params,
        const cmsis_nn_per_tensor_quant_params *output_quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *state_dims, int8_t *state_data,
        const cmsis_nn_dims *weights_feature_dims, const int8_t *weights_feature_data,
        const cmsis_nn_dims *weights_time_dims, const int8_t *weights_time_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *output_dims, int8_t *output_data)

1. the state shifted left by one element: newlib `memmove(state, state + 1, n - 1)`;
2. per batch, arm_nn_vec_mat_mult_t_s8 writes input x weights_feature (requantized by
   the input quant params, clamped to input_activation) into the newest state column
   (address_offset time_batches, lhs offset -input_offset, kernel_sum ctx->buf, no bias);
3. per feature, `*ptr_a = 0` (gcc keeps the store) and the time dot product state x
   weights_time (ARM_MATH_DSP: four at a time with read_and_pad_reordered, ROR and SXTB16,
   two SMLAD, then SMLABB one by one; plain C: MLA);
4. bias (a straight add when unit_count == feature_batches) and the sum over each unit's
   `rank` features into output_ctx->buf: three loop nests, as the C has them;
5. arm_nn_requantize by the output quant params (inlined: SMLAL on 1 << 30, a branch over
   the rounding for a positive shift, ITE MI choosing the threshold from the stack, IT GT),
   + output_offset, CLAMP (an IT GE / ITE and a branch on the lower bound), store.

Every instruction is one of the measured objects' (arm-none-eabi-gcc 12.2 -O2,
-mcpu=cortex-m4 with ARM_MATH_DSP / -mcpu=cortex-m3), in gcc's order; the parameter structs
are the caller's (`ldr_sp`).  No fitted line.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, asr, b, bcc, bic, bl, cmp, it, ldr, ldr_sp, ldrd_sp,
                            ldrsb, ldrsb_sp, ldrsh_sp, lsl, lsr, mla, mov, mul, orr, pop_pc, push,
                            ror, rsb, sdiv, smlabb, smlad, smlal, str_, str_sp, strb, strd_sp,
                            sub, sxtb, sxtb16)
from armsim.kernels.libc import memmove

from .arm_nn_vec_mat_mult_t_s8 import arm_nn_vec_mat_mult_t_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1


@kernel(inline=True)
def _prologue(m):
    """The parameter structs' fields read into registers and the frame (both builds), up
    to the rank division's result stored."""
    if m.dsp:
        ldr_sp(m)                                     # input_ctx->buf
        ldr_sp(m)                                     # input_quant_params
        ldr_sp(m)                                     # state_data
        ldr_sp(m)                                     # ->multiplier
        ldr_sp(m)                                     # ->shift
        str_sp(m)
        ldrd_sp(m)                                    # output_quant_params, input_dims
        mov(m, 0)
        ldr_sp(m)                                     # ->multiplier
        ldr_sp(m)                                     # ->shift
        ldr_sp(m)                                     # weights_feature_dims
        str_sp(m)
        str_sp(m)
        ldrd_sp(m)                                    # svdf_params->input_offset, output_offset
        ldr_sp(m)                                     # weights_feature_dims->n
        ldr_sp(m)                                     # weights_time_dims
        str_sp(m)
        ldr_sp(m)                                     # input_activation.min
        ldr_sp(m)                                     # weights_time_dims->h
        str_sp(m)
        ldrsh_sp(m)                                   # svdf_params->rank
        ldr_sp(m)                                     # input_activation.max
        str_sp(m)
        ldr_sp(m)                                     # output_activation.min
        ldr_sp(m)                                     # output_activation.max
        for _ in range(6):
            str_sp(m)
        ldr_sp(m)                                     # input_dims->n
        ldr_sp(m)                                     # input_dims->h
    else:
        ldr_sp(m)                                     # input_ctx->buf
        ldr_sp(m)                                     # input_quant_params
        ldr_sp(m)                                     # weights_time_dims
        ldrd_sp(m)                                    # output_quant_params, input_dims
        ldr_sp(m)                                     # weights_time_dims->h
        ldr_sp(m)                                     # input_quant_params->multiplier
        ldr_sp(m)                                     # weights_feature_dims
        str_sp(m)
        ldr_sp(m)                                     # ->shift
        ldr_sp(m)                                     # weights_feature_dims->n
        str_sp(m)
        ldr_sp(m)                                     # output_quant_params->multiplier
        ldrsh_sp(m)                                   # svdf_params->rank
        str_sp(m)
        ldr_sp(m)                                     # ->shift
        ldrd_sp(m)                                    # input_dims->n, ->h
        str_sp(m)


@kernel(inline=True)
def _prologue_rest(m):
    """After the division: the remaining fields stored (both builds) up to the
    `input_ctx->buf == NULL` test."""
    if m.dsp:
        pass
    else:
        str_sp(m)
        ldr_sp(m)                                     # output_offset
        ldr_sp(m)                                     # state_data
        str_sp(m)
        ldr_sp(m)                                     # input_activation.min
        ldr_sp(m)                                     # input_offset
        str_sp(m)
        ldr_sp(m)                                     # input_activation.max
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # output_activation.min
        str_sp(m)
        ldr_sp(m)                                     # output_activation.max
        str_sp(m)
        mov(m, 0)


@kernel
def _time_stage(m, buffer_a, state_data, weights_time_data, input_batches, feature_batches,
                time_batches):
    """Step 3 (after the feature stage's loop): buffer_a[b][f] = state[b][f] . weights_time[f]."""
    block_count = time_batches >> 2
    col4 = time_batches & ~3
    if m.dsp:
        for _ in range(4):
            ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)                                     # buffer_a
        lsl(m, feature_batches, 2)
        mov(m, 0)
        str_sp(m)
        asr(m, time_batches, 2)                       # block_count = time_batches >> 2
        mov(m, buffer_a)
        bic(m, time_batches, 3)                       # 4 * block_count
        mov(m, time_batches)
        mov(m, feature_batches)
    else:
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        ldr_sp(m)
        strd_sp(m)
        ldr_sp(m)                                     # buffer_a
        lsl(m, feature_batches, 2)
        str_sp(m)
    ptr_a = buffer_a
    v2 = state_data
    for i_batch in range(input_batches):
        if not m.dsp:
            ldr_sp(m)                                 # feature_batches
        cmp(m, feature_batches, 0)
        bcc(m, feature_batches <= 0)
        if feature_batches > 0:
            if m.dsp:
                strd_sp(m)
                ldr_sp(m)                             # weights_time_data
                sub(m, ptr_a, 4)
                mov(m, 0)
            else:
                mov(m, 0)
                mov(m, i_batch)
                ldr_sp(m)                             # weights_time_data
                sub(m, ptr_a, 4)
        v1 = weights_time_data
        for i_feature in range(feature_batches):
            if m.dsp:
                total = mov(m, 0)                     # int32_t sum = 0;
                cmp(m, block_count, 0)
                str_(m, ptr_a, 0)                     # *ptr_a = 0;
                bcc(m, block_count <= 0)
                if block_count > 0:
                    strd_sp(m)
                    mov(m, 0)
                    mov(m, v1)
                    mov(m, v2)
                    for i in range(block_count):
                        in_1 = ldr(m, v1)             # v1 = read_and_pad_reordered(v1, &r1_1, &r1_2);
                        v1 += 4
                        in_2 = ldr(m, v2)             # v2 = read_and_pad_reordered(v2, &r2_1, &r2_2);
                        v2 += 4
                        rot_1 = ror(m, in_1, 8)
                        rot_2 = ror(m, in_2, 8)
                        r1_1 = sxtb16(m, in_1, 0)
                        r1_2 = sxtb16(m, rot_1, 0)
                        r2_1 = sxtb16(m, in_2, 0)
                        r2_2 = sxtb16(m, rot_2, 0)
                        total = smlad(m, r1_1, r2_1, total)   # sum = SMLAD(r1_1, r2_1, sum);
                        total = smlad(m, r1_2, r2_2, total)   # sum = SMLAD(r1_2, r2_2, sum);
                        add(m, i, 1)
                        cmp(m, block_count, i + 1)
                        bcc(m, i + 1 != block_count)
                    ldrd_sp(m)
                    add(m, v2, 0)
                    add(m, v1, 0)
                    mov(m, col4)                      # j
                else:
                    mov(m, 0)                         # j = 0
                    mov(m, v2)
                    mov(m, 0)
                    b(m)
                cmp(m, time_batches, col4)            # for (; j < time_batches; j++)
                bcc(m, time_batches <= col4)
                if time_batches > col4:
                    sub(m, time_batches, col4)
                    add(m, v1, -1)
                    add(m, v2, time_batches - col4)
                    for j in range(col4, time_batches):
                        x2 = ldrsb(m, v2)             # sum += *v1 * *v2; v1++; v2++;
                        v2 += 1
                        x1 = ldrsb(m, v1)
                        v1 += 1
                        cmp(m, j + 1, time_batches)
                        total = smlabb(m, x1, x2, total)
                        bcc(m, j + 1 != time_batches)
                    add(m, v1, 0)
                else:
                    mov(m, v2)
                    b(m)
                add(m, i_feature, 1)
                cmp(m, feature_batches, i_feature + 1)
                str_(m, ptr_a, total)                 # *ptr_a = sum;
                bcc(m, i_feature + 1 != feature_batches)
            else:
                cmp(m, time_batches, 0)
                total = mov(m, 0)                     # int32_t sum = 0;
                str_(m, ptr_a, 0)                     # *ptr_a = 0;
                bcc(m, time_batches <= 0)
                if time_batches > 0:
                    add(m, v1, -1)
                    add(m, v2, time_batches)
                    for j in range(time_batches):
                        x2 = ldrsb(m, v2)             # sum += *v1 * *v2; v1++; v2++;
                        v2 += 1
                        x1 = ldrsb(m, v1)
                        v1 += 1
                        cmp(m, j + 1, time_batches)
                        total = mla(m, x2, x1, total)
                        bcc(m, j + 1 != time_batches)
                    add(m, v1, 0)
                ldr_sp(m)                             # feature_batches
                add(m, i_feature, 1)
                cmp(m, feature_batches, i_feature + 1)
                str_(m, ptr_a, total)                 # *ptr_a = sum;
                bcc(m, i_feature + 1 != feature_batches)
            ptr_a += 4
        if feature_batches > 0:
            if m.dsp:
                ldrd_sp(m)
                ldr_sp(m)
                add(m, ptr_a, 0)
            else:
                mov(m, i_batch)
                add(m, ptr_a, 0)
        ldr_sp(m)                                     # input_batches
        add(m, i_batch, 1)
        cmp(m, input_batches, i_batch + 1)
        bcc(m, i_batch + 1 != input_batches)


@kernel
def _rank_sums(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches, unit_count,
               rank):
    """Step 4 with `rank` features per unit: output_data_temp[i] = (bias_data[i] or 0) + the
    unit's features (bias_data 0: the C's `else` nest)."""
    for i_batch in range(input_batches):
        out_temp = buffer_b + 4 * i_batch * unit_count
        ptr_a = buffer_a + 4 * i_batch * feature_batches
        if bias_data != 0:
            cmp(m, unit_count, 0)
            mov(m, ptr_a)
            bcc(m, unit_count <= 0)
            if unit_count > 0:
                if m.dsp:
                    strd_sp(m)
                    mov(m, bias_data)
                    add(m, buffer_b, 0)
                else:
                    mov(m, bias_data)
                    strd_sp(m)
                    add(m, buffer_b, 0)
        else:
            if m.dsp:
                cmp(m, unit_count, 0)
                mov(m, ptr_a)
                add(m, i_batch, unit_count)
            else:
                cmp(m, unit_count, 0)
                mov(m, ptr_a)
                add(m, i_batch, unit_count)
            bcc(m, unit_count <= 0)
            if unit_count > 0:
                ldr_sp(m)                             # buffer_b
                add(m, buffer_b, 0)
                add(m, buffer_b, 0)
        for i in range(unit_count):
            if bias_data != 0:
                cmp(m, rank, 0)
                total = ldr(m, bias_data + 4 * i)     # int32_t sum = bias_data[i];
                bcc(m, rank <= 0)
                if rank > 0:
                    add(m, ptr_a, 4 * rank)
            else:
                cmp(m, rank, 0)
                if m.dsp:
                    it(m, rank > 0)                   # movle: sum = 0 for no feature
                    if rank <= 0:
                        mov(m, 0)
                    bcc(m, rank <= 0)
                    if rank > 0:
                        add(m, ptr_a, 4 * rank)
                        total = mov(m, 0)             # int32_t sum = 0;
                else:
                    mov(m, 0)                         # int32_t sum = 0;
                    it(m, rank <= 0)                  # addgt: the loop's end
                    if rank > 0:
                        add(m, ptr_a, 4 * rank)
                    bcc(m, rank <= 0)
                total = 0
            for j in range(rank):                     # sum += *ptr_a; ptr_a++;
                x = ldr(m, ptr_a)
                ptr_a += 4
                cmp(m, j + 1, rank)
                total = add(m, total, x)
                bcc(m, j + 1 != rank)
            if bias_data != 0:
                cmp(m, i + 1, unit_count)
                str_(m, out_temp + 4 * i, total)      # output_data_temp[i] = sum;
            else:
                str_(m, out_temp + 4 * i, total)
                cmp(m, i + 1, unit_count)
            bcc(m, i + 1 != unit_count)
        if bias_data != 0:
            if unit_count > 0:
                ldrd_sp(m)
            ldr_sp(m)                                 # input_batches
            add(m, i_batch, 1)
            cmp(m, input_batches, i_batch + 1)
            add(m, 0, 0)
            add(m, 0, 0)
        else:
            add(m, i_batch, 1)
            cmp(m, input_batches, i_batch + 1)
            mov(m, 0)
            add(m, 0, 0)
        bcc(m, i_batch + 1 != input_batches)


@kernel
def _bias_add(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches):
    """Step 4 with unit_count == feature_batches: output_temp[j] = ptr_a[j] + bi[j]."""
    for i in range(input_batches):
        cmp(m, feature_batches, 0)
        bcc(m, feature_batches <= 0)
        if feature_batches > 0:
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            if m.dsp:
                mov(m, 0)
        for j in range(feature_batches):
            bi = ldr(m, bias_data + 4 * j)
            a = ldr(m, buffer_a + 4 * (i * feature_batches + j))
            cmp(m, j + 1, feature_batches)
            total = add(m, a, bi)
            str_(m, buffer_b + 4 * (i * feature_batches + j), total)
            bcc(m, j + 1 != feature_batches)
        if feature_batches > 0 and m.dsp:
            mov(m, 0)
        add(m, i, 1)
        cmp(m, input_batches, i + 1)
        add(m, 0, 0)
        add(m, 0, 0)
        bcc(m, i + 1 != input_batches)


@kernel
def _output(m, buffer_b, count, multiplier_out, shift_2, zp_out, out_activation_min,
            out_activation_max, output_data):
    """Step 5 (count > 0): the set-up and, per element, arm_nn_requantize, + zp_out, CLAMP,
    store."""
    left_shift = shift_2 if shift_2 > 0 else 0
    exponent = -shift_2
    mask = ((1 << exponent) - 1) if 0 <= exponent < 32 else -1
    threshold = mask >> 1
    if m.dsp:
        ldr_sp(m)                                     # shift_2
        ldr_sp(m)                                     # buffer_b
        ldr_sp(m)                                     # out_activation_max
        rsb(m, shift_2, 0)
        sub(m, buffer_b, 4)
        one = mov(m, 1)
        lsl(m, one, exponent)
        add(m, 0, -1)                                 # remainder_mask
        bic(m, shift_2, shift_2 >> 31)                # left_shift
        mov(m, shift_2)
        ldr_sp(m)                                     # output_data
        str_sp(m)
        asr(m, mask, 1)                               # threshold
        sub(m, output_data, 1)
        add(m, threshold, 1)
        str_sp(m)
        ldr_sp(m)                                     # out_activation_min
        str_sp(m)
        sxtb(m, out_activation_min, 0)
        sxtb(m, out_activation_max, 0)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # multiplier_out
        ldr_sp(m)                                     # zp_out
        str_sp(m)
        add(m, buffer_b, 4 * count)
        mov(m, 1 << 30)
        mov(m, 0)
        mov(m, shift_2)
        mov(m, out_activation_min)
        b(m)
    else:
        ldr_sp(m)                                     # buffer_b
        ldr_sp(m)                                     # shift_2
        sub(m, buffer_b, 4)
        one = mov(m, 1)
        rsb(m, shift_2, 0)
        lsl(m, one, exponent)
        add(m, 0, -1)                                 # remainder_mask
        ldr_sp(m)                                     # out_activation_max
        asr(m, mask, 1)                               # threshold
        ldrsb_sp(m)                                   # (int8_t)out_activation_min
        ldr_sp(m)                                     # output_data
        add(m, threshold, 1)
        sxtb(m, out_activation_max, 0)
        for _ in range(4):
            str_sp(m)
        mov(m, 1 << 30)
        mov(m, 0)
        mov(m, shift_2)
        ldr_sp(m)                                     # multiplier_out
        ldr_sp(m)                                     # out_activation_min
        ldr_sp(m)                                     # zp_out
        add(m, buffer_b, 4 * count)
        bic(m, shift_2, shift_2 >> 31)                # left_shift
        sub(m, output_data, 1)
        str_sp(m)
        str_sp(m)
        b(m)
    for i in range(count):
        # CLAMP(arm_nn_requantize(buffer_b[i], multiplier_out, shift_2) + zp_out, max, min)
        if m.dsp:
            val = ldr(m, buffer_b + 4 * i)
            lo = mov(m, 1 << 30)
            val = lsl(m, val, left_shift)
            hi = mov(m, 0)
            lo, hi = smlal(m, lo, hi, val, multiplier_out)
            low_bit = lsr(m, lo, 31)
            cmp(m, shift_2, 0)
            res = orr(m, low_bit, hi << 1)
        else:
            lo = mov(m, 1 << 30)
            hi = mov(m, 0)
            val = ldr(m, buffer_b + 4 * i)
            cmp(m, shift_2, 0)
            val = lsl(m, val, left_shift)
            lo, hi = smlal(m, lo, hi, val, multiplier_out)
            low_bit = lsr(m, lo, 31)
            res = orr(m, low_bit, hi << 1)
        bcc(m, shift_2 > 0)                           # bgt: no rounding
        if shift_2 <= 0:
            ldr_sp(m)                                 # remainder_mask
            remainder = and_(m, res, mask)
            ldr_sp(m)                                 # -shift_2
            res = asr(m, res, exponent)
            it(m, 1)                                  # ITE MI: threshold (+ 1 when negative)
            ldr_sp(m)
            thr = threshold + 1 if res < 0 else threshold
            cmp(m, remainder, thr)
            up = remainder > thr
            it(m, not up)                             # IT GT
            if up:
                res = add(m, res, 1)
        x = add(m, res, zp_out)
        if m.dsp:
            cmp(m, out_activation_max, x)
            low = mov(m, out_activation_max)
            it(m, not (out_activation_max >= x))      # movge: MIN(x, max)
            if out_activation_max >= x:
                low = mov(m, x)
            cmp(m, out_activation_min, low)
            above = out_activation_min < low
            bcc(m, above)                             # blt
        else:
            cmp(m, x, out_activation_max)
            low = mov(m, x)
            it(m, not (x >= out_activation_max))      # movge: MIN(x, max)
            if x >= out_activation_max:
                low = mov(m, out_activation_max)
            cmp(m, low, out_activation_min)
            above = low > out_activation_min
            bcc(m, above)                             # bgt
        if above:
            cmp(m, x, out_activation_max)
            it(m, 1)                                  # ITE: the bound from the stack or SXTB x
            if x >= out_activation_max:
                ldr_sp(m)
                value = out_activation_max
            else:
                value = sxtb(m, x, 0)
            cmp(m, i + 1, count)
            strb(m, output_data + i, value)
            bcc(m, i + 1 == count)                    # beq: done
        else:
            ldr_sp(m)                                 # (int8_t)out_activation_min
            if m.dsp:
                strb(m, output_data + i, out_activation_min)
                cmp(m, i + 1, count)
            else:
                cmp(m, i + 1, count)
                strb(m, output_data + i, out_activation_min)
            bcc(m, i + 1 != count)


@kernel
def arm_svdf_s8(m, ctx, input_ctx, output_ctx, svdf_params, input_quant_params,
                output_quant_params, input_dims, input_data, state_dims, state_data,
                weights_feature_dims, weights_feature_data, weights_time_dims, weights_time_data,
                bias_dims, bias_data, output_dims, output_data):
    """The contexts are `Context`s, `svdf_params` an `SvdfParams`, the quant params
    `PerTensorQuantParams`, the dims `Dims` (arm_nn_types).  Returns the status."""
    rank = svdf_params.rank
    input_batches = input_dims.n
    input_height = input_dims.h
    feature_batches = weights_feature_dims.n
    time_batches = weights_time_dims.h
    buffer_a = input_ctx.buf
    buffer_b = output_ctx.buf
    push(m, 9)                                        # push {r4-r11, lr}
    if not m.dsp:
        mov(m, 0)
    sub(m, 0, 0)                                      # sub sp, #frame
    _prologue(m)
    unit_count = sdiv(m, feature_batches, rank)       # feature_batches / rank
    if m.dsp:
        strd_sp(m)
        mov(m, buffer_a)
        str_sp(m)
    else:
        _prologue_rest(m)
    cmp(m, buffer_a, 0)                               # if (input_ctx->buf == NULL)
    bcc(m, buffer_a == 0)
    if buffer_a != 0:
        ldr_sp(m)                                     # output_ctx->buf
        str_sp(m)
        cmp(m, buffer_b, 0)                           # if (output_ctx->buf == NULL)
        bcc(m, buffer_b == 0)
    if buffer_a == 0 or buffer_b == 0:
        mov(m, ARG_ERROR)                             # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)
        pop_pc(m, 9)
        return ARG_ERROR
    # memmove(state_data, state_data + 1, input_batches * feature_batches * time_batches - 1)
    n = input_batches * feature_batches * time_batches - 1
    if m.dsp:
        mul(m, feature_batches, input_batches)
        mov(m, time_batches)
        mul(m, time_batches, input_batches * feature_batches)
        ldr_sp(m)                                     # ctx->buf
        str_sp(m)
        sub(m, n + 1, 1)
        add(m, state_data, 1)
        mov(m, state_data)
        mov(m, feature_batches)
    else:
        ldr_sp(m)                                     # ctx->buf
        add(m, state_data, 1)
        str_sp(m)
        mul(m, feature_batches, input_batches)
        mul(m, time_batches, input_batches * feature_batches)
        mov(m, state_data)
        sub(m, n + 1, 1)
        str_sp(m)
    bl(m)
    memmove(m, state_data, state_data + 1, n)
    # Matrix multiplication input * feature weight
    cmp(m, input_batches, 0)
    if m.dsp:
        mov(m, input_batches)
    bcc(m, input_batches <= 0)
    if input_batches > 0:
        if m.dsp:
            add(m, time_batches, -1)
            mov(m, 0)
            rsb(m, svdf_params.input_offset, 0)       # -zp_in
            add(m, state_data, time_batches - 1)
            mul(m, time_batches, feature_batches)
            str_sp(m)
            ldr_sp(m)                                 # input_data
            mov(m, input_height)
            mov(m, 0)
            mov(m, input_batches)
            b(m)
        else:
            rsb(m, svdf_params.input_offset, 0)       # -zp_in
            str_sp(m)
            ldr_sp(m)
            sub(m, time_batches, 1)
            mul(m, time_batches, feature_batches)
            add(m, state_data, time_batches - 1)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, input_height)
            mov(m, 0)
            mov(m, time_batches)
            ldr_sp(m)                                 # input_data
            mov(m, feature_batches)
            b(m)
        for i_batch in range(input_batches):
            res_ptr = state_data + time_batches * i_batch * feature_batches + time_batches - 1
            inp = input_data + i_batch * input_height
            if m.dsp:
                for _ in range(4):
                    ldr_sp(m)                         # the stacked arguments, from the frame
                    str_sp(m)
                strd_sp(m)
                ldr_sp(m)
                str_sp(m)
                ldr_sp(m)
                ldr_sp(m)                             # kernel_sum_data
                ldr_sp(m)                             # weights_feature_data
                str_sp(m)
                strd_sp(m)
                mov(m, inp)
                str_sp(m)
                mov(m, 0)                             # bias NULL
                add(m, i_batch, 1)
                add(m, res_ptr, time_batches * feature_batches)
                add(m, inp, input_height)
            else:
                mov(m, 0)                             # bias NULL
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                ldr_sp(m)
                mov(m, inp)
                strd_sp(m)
                ldr_sp(m)
                str_sp(m)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)
                strd_sp(m)
                strd_sp(m)
                ldr_sp(m)                             # kernel_sum_data
                ldr_sp(m)                             # weights_feature_data
                str_sp(m)
                add(m, i_batch, 1)
                add(m, res_ptr, time_batches * feature_batches)
                add(m, inp, input_height)
            bl(m)
            res = arm_nn_vec_mat_mult_t_s8(m, inp, weights_feature_data, ctx.buf, 0, res_ptr,
                                           -svdf_params.input_offset, 0,
                                           input_quant_params.multiplier,
                                           input_quant_params.shift, input_height,
                                           feature_batches, svdf_params.input_activation.min,
                                           svdf_params.input_activation.max, time_batches, 0)
            cmp(m, res, 0)                            # if (res != ARM_CMSIS_NN_SUCCESS)
            bcc(m, res == 0)
            cmp(m, input_batches, i_batch + 1)
            bcc(m, i_batch + 1 == input_batches)
        _time_stage(m, buffer_a, state_data, weights_time_data, input_batches,
                    feature_batches, time_batches)
        # step 4
        if m.dsp:
            ldr_sp(m)                                 # bias_data
            ldrd_sp(m)
        else:
            ldrd_sp(m)
            ldr_sp(m)                                 # bias_data
            ldr_sp(m)
        cmp(m, bias_data, 0)                          # if (bias_data)
        bcc(m, bias_data == 0)
        straight = False
        if bias_data != 0:
            if m.dsp:
                ldr_sp(m)
            ldr_sp(m)
            cmp(m, unit_count, feature_batches)       # if (unit_count == feature_batches)
            bcc(m, unit_count == feature_batches)
            straight = unit_count == feature_batches
        if straight:
            if m.dsp:
                for op in range(10):
                    if op in (3, 5, 8):
                        sub(m, 0, 4)
                    elif op == 7:
                        add(m, 0, 0)
                    elif op == 9:
                        mov(m, 0)
                    else:
                        ldr_sp(m)
            else:
                mov(m, 0)
                ldr_sp(m)
                sub(m, bias_data, 4)
                ldr_sp(m)
                add(m, 0, 0)
                sub(m, buffer_a, 4)
                ldr_sp(m)
                sub(m, buffer_b, 4)
            _bias_add(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches)
        elif bias_data != 0:
            if m.dsp:
                ldr_sp(m)                             # bias_data
                ldr_sp(m)                             # unit_count
                ldr_sp(m)                             # buffer_a
                sub(m, bias_data, 4)
                ldr_sp(m)                             # buffer_b
                mov(m, 0)
                add(m, bias_data, 4 * unit_count)
                lsl(m, rank, 2)
                mov(m, 0)
                sub(m, buffer_b, 4)
                mov(m, bias_data)
            else:
                mov(m, 0)
                ldr_sp(m)                             # bias_data
                mov(m, 0)
                sub(m, bias_data, 4)
                ldr_sp(m)                             # buffer_b
                mov(m, bias_data)
                sub(m, buffer_b, 4)
                mov(m, buffer_b)
                ldr_sp(m)                             # unit_count
                ldr_sp(m)                             # buffer_a
                add(m, bias_data, 4 * unit_count)
                lsl(m, rank, 2)
                str_sp(m)
            _rank_sums(m, buffer_a, buffer_b, bias_data, input_batches, feature_batches,
                       unit_count, rank)
            if not m.dsp:
                mov(m, input_batches)
        else:
            ldr_sp(m)                                 # bias_data (NULL: a zero)
            ldr_sp(m)                                 # buffer_a
            if m.dsp:
                ldr_sp(m)
                ldr_sp(m)
                lsl(m, rank, 2)
                mov(m, 0)
            else:
                mov(m, 0)
                ldr_sp(m)
                lsl(m, rank, 2)
            _rank_sums(m, buffer_a, buffer_b, 0, input_batches, feature_batches, unit_count,
                       rank)
        fall_through = bias_data != 0 and not straight
    else:
        fall_through = True
    # for (int i = 0; i < input_batches * unit_count; i++)
    count = input_batches * unit_count
    ldr_sp(m)                                         # input_batches / unit_count
    if m.dsp:
        ldr_sp(m)
    mul(m, unit_count, input_batches)
    cmp(m, count, 0)
    if fall_through:
        bcc(m, count <= 0)                            # ble
    else:
        bcc(m, count > 0)                             # bgt.w
        if count <= 0:
            b(m)
    if count > 0:
        _output(m, buffer_b, count, output_quant_params.multiplier, output_quant_params.shift,
                svdf_params.output_offset, svdf_params.output_activation.min,
                svdf_params.output_activation.max, output_data)
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
