"""arm_depthwise_conv_s8_opt (Source/ConvolutionFunctions/arm_depthwise_conv_s8_opt.c),
non-MVE build.

ch_mult 1 (input_ch == output_ch), any filter, padding and stride.  ARM_MATH_DSP: per output
pixel, im2col of the filter window into the int16 column buffer ctx->buf
(arm_q7_to_q15_with_offset per tap inside the input, memset for the rows and taps outside),
then four channels at a time, two taps per iteration with SMLAD (the weights widened by
SXTB16 and the pairs reordered with PKHBT/PKHTB), the odd tap and the leftover channels
with LDRH + SMLABB.  Plain C: the function checks its arguments and tail-calls
arm_depthwise_conv_s8 (`call_depthwise_conv_s8_opt` runs that kernel on the host side, so
the M3 build's generic kernel is compiled once, on its own).

Arguments are the C function's: `arm_nn_types` structs, pointers as simulated addresses
(bias 0 = NULL, ctx.buf 0 = NULL).  Returns 0, -1 (ARM_CMSIS_NN_ARG_ERROR) or, plain C,
TAIL_CALL_GENERIC.

Every instruction, stack traffic included, is read off gcc 12.2 -O2's code of this file.
gcc hoists the filter window's y extent and the byte counts of the rows memset out of the
output-x loop, keeps base_idx_x as a uint16_t stack slot (reloaded with LDRSH) and
arm_nn_requantize is inlined at each of the five outputs' sites.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, b, bcc, bic, bl, cbz, cmp,
                            enter_region, it, ldr, ldr_sp, ldrd, ldrd_sp, ldrh, ldrh_sp,
                            ldrsb, ldrsh_sp, leave_region, lsl, lsr, mla, mov, mul, orr, pkhbt,
                            pkhtb, pop, pop_pc, push, ror, rsb, smlabb, smlad, smlal, smulbb,
                            str_sp, strb, strd_sp, sub, sxtb16, sxth, ubfx, uxth)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_get_buffer_sizes_s8 import \
    arm_depthwise_conv_s8_opt_get_buffer_size
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import call_depthwise_conv_s8
from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize
from armsim.kernels.cmsis_nn.arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from armsim.kernels.libc import memset

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

#: the plain-C build's return: arm_depthwise_conv_s8 is to run next (its tail call)
TAIL_CALL_GENERIC = 1


@kernel(inline=True)
def _requantize(outer, acc, mult, shift, zero_first):
    """arm_nn_requantize(acc, mult, shift) as inlined here (the loads are the caller's):
    BIC, LSL, the 1 << 30 and 0 halves of the SMLAL accumulator (in either order), LSRS,
    CMP, ORR, BGT past arm_nn_divide_by_power_of_two's rounding for a positive shift."""
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                                     # CMSIS_NN_USE_SINGLE_ROUNDING: estimated
        acc = arm_nn_requantize(m, acc, mult, shift)
        leave_region(outer, m)
        return acc
    x = lsl(m, acc, bic(m, shift, shift >> 31))               # val * (1 << left_shift)
    if zero_first:
        hi = mov(m, 0)
        lo = mov(m, 1 << 30)
    else:
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, x, mult)                        # arm_nn_doubling_high_mult_no_sat
    lo = lsr(m, lo, 31)
    cmp(m, shift, 0)
    acc = orr(m, lo, hi << 1)
    bcc(m, shift > 0)
    if shift <= 0:                                            # arm_nn_divide_by_power_of_two
        exponent = rsb(m, shift, 0)
        mask = sub(m, lsl(m, mov(m, 1), exponent), 1)
        remainder = and_(m, acc, mask)
        acc = asr(m, acc, exponent)
        threshold = asr(m, mask, 1)
        it(m, acc >= 0)
        if acc < 0:
            threshold = add(m, threshold, 1)
        cmp(m, remainder, threshold)
        it(m, remainder <= threshold)
        if remainder > threshold:
            acc = add(m, acc, 1)
    leave_region(outer, m)
    return acc


@kernel(inline=True)
def _clamp(m, acc, output_offset, act_min, act_max):
    """sum += output_offset; sum = MAX(sum, act_min); sum = MIN(sum, act_max)."""
    ldr_sp(m)                                                 # output_offset
    acc = add(m, acc, output_offset)
    ldr_sp(m)                                                 # output_activation_min
    cmp(m, acc, act_min)
    it(m, acc >= act_min)
    if acc < act_min:
        acc = mov(m, act_min)
    ldr_sp(m)                                                 # output_activation_max
    cmp(m, acc, act_max)
    it(m, acc < act_max)
    if acc >= act_max:
        acc = mov(m, act_max)
    return acc


@kernel(inline=True)
def _block_output(m, acc, mult_ptr, shift_ptr, output_offset, act_min, act_max):
    """One of the four outputs of a block: requantize, offset, clamp (the caller stores)."""
    shift = ldr(m, shift_ptr)                                 # *output_shift++
    mult = ldr(m, mult_ptr)                                   # *output_mult++
    acc = _requantize(m, acc, mult, shift, False)
    acc = _clamp(m, acc, output_offset, act_min, act_max)
    return acc


@kernel
def arm_depthwise_conv_s8_opt(m, ctx, dw_conv_params, quant_params, input_dims, input,
                              filter_dims, kernel, bias_dims, bias, output_dims, output):
    input_ch = input_dims.c
    output_ch = output_dims.c
    push(m, 9)                                                # push {r4-r11, lr}
    if not m.dsp:
        # Plain C: the checks, then return arm_depthwise_conv_s8(ctx, dw_conv_params, ...)
        mov(m, 0)
        sub(m, 0, 0)                                          # sub sp, #20
        ldr_sp(m)                                             # output_dims (stacked)
        mov(m, 0)
        ldrd_sp(m)                                            # bias_dims, bias (stacked)
        ldr_sp(m)                                             # input_dims->c
        ldr_sp(m)                                             # output_dims->c
        mov(m, 0)
        ldrd_sp(m)                                            # filter_dims, kernel (stacked)
        cmp(m, input_ch, output_ch)                           # if (input_ch != output_ch)
        mov(m, 0)
        ldr_sp(m)                                             # input (stacked)
        ldr_sp(m)                                             # output (stacked)
        bcc(m, input_ch != output_ch)
        if input_ch != output_ch:
            mov(m, -1)                                        # return ARM_CMSIS_NN_ARG_ERROR;
            add(m, 0, 0)
            pop_pc(m, 9)
            return -1
        ldr_sp(m)                                             # ctx->buf
        cbz(m, ctx.buf == 0)
        if ctx.buf == 0:                                      # && ..._get_buffer_size(...) > 0
            mov(m, 0)
            strd_sp(m)
            str_sp(m)
            bl(m)
            size = arm_depthwise_conv_s8_opt_get_buffer_size(m, input_dims, filter_dims)
            ldrd_sp(m)
            cmp(m, size, 0)
            ldr_sp(m)
            bcc(m, size <= 0)
            if size > 0:
                mov(m, -1)
                add(m, 0, 0)
                pop_pc(m, 9)
                return -1
        for _ in range(3):                                    # the stacked arguments passed on
            strd_sp(m)
        for _ in range(4):
            mov(m, 0)
        str_sp(m)
        add(m, 0, 0)                                          # add sp, #20
        pop(m, 9)                                             # pop {r4-r11, lr}
        b(m)                                                  # b.w arm_depthwise_conv_s8
        return TAIL_CALL_GENERIC

    sub(m, 0, 0)                                              # sub sp, #236
    ldr_sp(m)                                                 # input_dims->c
    ldr_sp(m)                                                 # output_dims (stacked)
    ldr_sp(m)                                                 # filter_dims (stacked)
    ldr_sp(m)                                                 # output_dims->c
    cmp(m, input_ch, output_ch)                               # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    if input_ch != output_ch:
        mov(m, -1)                                            # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)
        pop_pc(m, 9)
        return -1
    mov(m, 0)
    ldr_sp(m)                                                 # ctx->buf
    str_sp(m)
    mov(m, 0)
    mov(m, 0)
    mov(m, 0)
    cmp(m, ctx.buf, 0)
    bcc(m, ctx.buf == 0)
    if ctx.buf == 0:                                          # && ..._get_buffer_size(...) > 0
        mov(m, 0)
        mov(m, 0)
        bl(m)
        size = arm_depthwise_conv_s8_opt_get_buffer_size(m, input_dims, filter_dims)
        cmp(m, size, 0)
        bcc(m, size > 0)
        if size > 0:
            mov(m, -1)
            b(m)
            add(m, 0, 0)
            pop_pc(m, 9)
            return -1
        ldr_sp(m)                                             # ctx->buf
        str_sp(m)
        b(m)
    input_x = input_dims.w
    input_y = input_dims.h
    kernel_x = filter_dims.w
    kernel_y = filter_dims.h
    pad_x = dw_conv_params.padding.w
    pad_y = dw_conv_params.padding.h
    stride_x = dw_conv_params.stride.w
    stride_y = dw_conv_params.stride.h
    output_shift = quant_params.shift
    output_mult = quant_params.multiplier
    output_x = output_dims.w
    output_y = output_dims.h
    output_offset = dw_conv_params.output_offset
    input_offset = dw_conv_params.input_offset
    act_min = dw_conv_params.activation.min
    act_max = dw_conv_params.activation.max
    col_buffer_start = ctx.buf                                # int16_t *const col_buffer_start = buffer_a;
    ldrd_sp(m)                                                # output_dims->h, w
    str_sp(m)
    for _ in range(10):                                       # the struct fields into stack slots
        ldr_sp(m)
        str_sp(m)
    cmp(m, output_y, 0)                                       # i_out_y < output_y
    for _ in range(4):                                        # max, padding.h, stride.h, input_offset
        ldr_sp(m)
    str_sp(m)
    bcc(m, output_y <= 0)
    if output_y > 0:
        # loop invariants: row_count, the column counts and the pointers' steps
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        cmp(m, output_ch, 0)
        mul(m, input_ch, kernel_x)                            # kernel_x * input_ch
        mov(m, output_ch)
        it(m, output_ch >= 0)                                 # output_ch / 4: IT LT ADDLT #3
        if output_ch < 0:
            add(m, output_ch, 3)
        row_count4 = ubfx(m, output_ch, 2, 16)                # row_count = output_ch / 4 (uint16_t)
        rsb(m, pad_y, 0)
        uxth(m, -pad_y, 0)                                    # base_idx_y, kept as uint16_t
        input_offset16 = sxth(m, input_offset, 0)             # (int16_t)input_offset
        str_sp(m)
        kxy = mul(m, kernel_x, kernel_y)                      # kernel_x * kernel_y
        add(m, kxy, (kxy >> 31) & 1)
        col_count2 = ubfx(m, kxy, 1, 16)                      # col_count = (kernel_x * kernel_y) / 2
        add(m, row_count4, -1)
        uxth(m, 0, 0)
        uxth(m, stride_y, 0)
        str_sp(m)
        lsl(m, input_ch, 2)
        sub(m, col_count2, 1)
        uxth(m, 0, 0)
        str_sp(m)
        add(m, 0, 1)
        add(m, kernel_x, -1)
        lsl(m, 0, 2)
        str_sp(m)
        smulbb(m, kernel_x, kernel_y)                         # (uint16_t)(kernel_x * kernel_y)
        mul(m, input_ch, kernel_x - 1)
        mov(m, 0)
        lsl(m, 0, 2)
        str_sp(m)
        uxth(m, 0, 0)
        str_sp(m)
        col_count1 = uxth(m, kxy, 0)
        odd = and_(m, kxy, 1)                                 # (kernel_x * kernel_y) & 0x1
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        lsl(m, input_ch, 1)
        add(m, 0, 4)
        mul(m, input_ch, input_x)                             # input_x * input_ch
        str_sp(m)
        str_sp(m)
        lsl(m, input_ch, 2)
        mla(m, 0, 0, 0)
        str_sp(m)
        mla(m, 0, 0, 0)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        mov(m, 0)
        str_sp(m)
        lsl(m, 0, 2)
        for _ in range(2):
            mov(m, 0)
        str_sp(m)
        for _ in range(3):
            mov(m, 0)
    i_out_y = 0
    while i_out_y < output_y:
        base_idx_y = ((i_out_y * stride_y - pad_y + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_y * stride_y) - pad_y)
        ldr_sp(m)                                             # output_x
        sxth(m, base_idx_y, 0)
        cmp(m, output_x, 0)
        str_sp(m)
        bcc(m, output_x <= 0)
        if output_x > 0:
            # the window's y extent and the memset sizes, the same for the whole row
            ker_y_start = -base_idx_y if base_idx_y < 0 else 0    # MAX(0, -base_idx_y)
            ldr_sp(m)                                         # input_y
            ldr_sp(m)                                         # kernel_y
            below = sub(m, input_y, base_idx_y)               # input_y - base_idx_y
            cmp(m, kernel_y, below)
            mov(m, kernel_y)
            ker_y_end = kernel_y                              # MIN(kernel_y, input_y - base_idx_y)
            it(m, kernel_y < below)
            if kernel_y >= below:
                ker_y_end = mov(m, below)
            str_sp(m)
            diff = sub(m, kernel_y, ker_y_end)                # const int diff = kernel_y - ker_y_end;
            diff_bytes = lsl(m, mul(m, input_ch * kernel_x, diff), 1)  # (kernel_x * input_ch) * diff * sizeof(int16_t)
            str_sp(m)
            ldr_sp(m)                                         # pad_x
            str_sp(m)
            rsb(m, base_idx_y, 0)
            rsb(m, pad_x, 0)
            start_index = mul(m, -base_idx_y, input_ch * kernel_x)  # (kernel_x * input_ch) * ker_y_start
            uxth(m, -pad_x, 0)
            str_sp(m)
            start_bytes = lsl(m, start_index, 1)
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)stride_x
            str_sp(m)
            strd_sp(m)
            and_(m, output_ch, 3)
            strd_sp(m)
            strd_sp(m)
            str_sp(m)
            ldr_sp(m)                                         # output
            str_sp(m)
            mov(m, 0)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
        i_out_x = 0
        while i_out_x < output_x:
            base_idx_x = ((i_out_x * stride_x - pad_x + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_x * stride_x) - pad_x)
            ldrsh_sp(m)                                       # base_idx_x
            str_sp(m)
            ldr_sp(m)                                         # base_idx_y
            cmp(m, base_idx_y, 0)                             # if (ker_y_start != 0)
            bcc(m, base_idx_y < 0)
            index = 0                                         # int32_t index = 0;
            if base_idx_y < 0:                                # memset(&col_buffer[index], 0, (kernel_x * input_ch) * ker_y_start * 2)
                ldr_sp(m)
                ldr_sp(m)
                mov(m, 0)
                bl(m)
                memset(m, col_buffer_start, 0, start_bytes)
                ldrd_sp(m)
                b(m)
                index = start_index                           # index += (kernel_x * input_ch) * ker_y_start;
            else:
                mov(m, 0)
                mov(m, 0)
            i_ker_y = ker_y_start
            ldr_sp(m)                                         # ker_y_end
            cmp(m, i_ker_y, ker_y_end)
            bcc(m, i_ker_y >= ker_y_end)
            if i_ker_y < ker_y_end:
                for _ in range(5):
                    ldr_sp(m)
                str_sp(m)
                idx_y = add(m, base_idx_y, i_ker_y)           # base_idx_y + i_ker_y
                src = mla(m, input_ch, mla(m, input_x, idx_y, base_idx_x), input)  # input + (idx_y * input_x + idx_x) * input_ch
                ldr_sp(m)
                add(m, kernel_x, base_idx_x)
                while i_ker_y < ker_y_end:
                    ldr_sp(m)                                 # kernel_x
                    cmp(m, kernel_x, 0)
                    bcc(m, kernel_x <= 0)
                    if kernel_x > 0:
                        ldr_sp(m)                             # col_buffer
                        ldr_sp(m)
                        strd_sp(m)
                        dst = add(m, col_buffer_start, index << 1)  # &col_buffer[index]
                        mov(m, 0)
                        mov(m, 0)
                        b(m)
                        i_ker_x = 0
                        idx_x = base_idx_x
                        while i_ker_x < kernel_x:
                            cmp(m, idx_x, 0)                  # if (idx_x < 0 || idx_x >= input_x)
                            mov(m, 0)
                            mov(m, 0)
                            mov(m, 0)
                            bcc(m, idx_x < 0)
                            outside = idx_x < 0
                            if not outside:
                                cmp(m, idx_x, input_x)
                                bcc(m, idx_x >= input_x)
                                outside = idx_x >= input_x
                            i_ker_x += 1
                            idx_x += 1
                            if outside:                       # memset(&col_buffer[index], 0, input_ch * sizeof(int16_t))
                                add(m, idx_x, 0)
                                bl(m)
                                memset(m, dst, 0, input_ch * 2)
                                cmp(m, kernel_x, i_ker_x)
                                dst = add(m, dst, input_ch * 2)
                                src = add(m, src, input_ch)
                                bcc(m, i_ker_x == kernel_x)
                            else:                             # arm_q7_to_q15_with_offset(input + (idx_y * input_x + idx_x) * input_ch, ...)
                                mov(m, 0)
                                mov(m, 0)
                                ldr_sp(m)                     # (int16_t)input_offset
                                mov(m, input_ch)
                                add(m, idx_x, 0)
                                bl(m)
                                arm_q7_to_q15_with_offset(m, src, dst, input_ch, input_offset16)
                                cmp(m, kernel_x, i_ker_x)
                                dst = add(m, dst, input_ch * 2)
                                src = add(m, src, input_ch)
                                bcc(m, i_ker_x != kernel_x)
                        index += kernel_x * input_ch          # index += input_ch (per tap)
                        mov(m, 0)
                        ldr_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        add(m, 0, 0)
                        add(m, 0, 0)
                    ldr_sp(m)                                 # input_x * input_ch
                    src = add(m, src - kernel_x * input_ch, input_x * input_ch)
                    ldr_sp(m)                                 # ker_y_end
                    i_ker_y = add(m, i_ker_y, 1)
                    cmp(m, i_ker_y, ker_y_end)
                    bcc(m, i_ker_y != ker_y_end)
                ldr_sp(m)
            ldr_sp(m)                                         # kernel_y
            ldr_sp(m)                                         # input_y - base_idx_y
            cmp(m, kernel_y, input_y - base_idx_y)            # if (diff != 0)
            bcc(m, kernel_y > input_y - base_idx_y)
            if kernel_y > input_y - base_idx_y:               # memset(&col_buffer[index], 0, (kernel_x * input_ch) * diff * 2)
                ldr_sp(m)
                ldr_sp(m)
                add(m, col_buffer_start, index << 1)
                mov(m, 0)
                bl(m)
                memset(m, col_buffer_start + 2 * index, 0, diff_bytes)
            ldr_sp(m)                                         # row_count
            cmp(m, row_count4, 0)                             # while (row_count)
            bcc(m, row_count4 == 0 if kernel_y <= input_y - base_idx_y else row_count4 != 0)
            # bias = bias_start_pos; output_mult = out_mult_start_pos; output_shift = out_shift_start_pos;
            out = output + (i_out_y * output_x + i_out_x) * output_ch
            ch = 0
            if row_count4 != 0:
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)                                     # bias
                str_sp(m)
                add(m, 0, 8)
                add(m, out, 0)
                str_sp(m)
                mov(m, 0)
                str_sp(m)                                     # row_shift = 0
                ldr_sp(m)
                str_sp(m)
                add(m, output_shift, 16)
                add(m, output_mult, 16)
                add(m, out, 4)
                mov(m, 0)
                mov(m, 0)
            else:
                ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)                                     # bias
                b(m)
            row_count = row_count4
            while row_count:
                ldr_sp(m)                                     # bias
                cmp(m, bias, 0)                               # if (bias)
                bcc(m, bias == 0)
                if bias != 0:
                    sum_1, sum_2 = ldrd(m, bias + 4 * ch)     # sum = *bias++; sum_2 = *bias++;
                    sum_3, sum_4 = ldrd(m, bias + 4 * ch + 8)  # sum_3 = *bias++; sum_4 = *bias++;
                    add(m, 0, 16)
                    str_sp(m)
                else:
                    ldr_sp(m)                                 # the NULL bias pointer is the zero
                    sum_1 = 0
                    sum_4 = mov(m, 0)
                    sum_3 = mov(m, 0)
                    sum_2 = mov(m, 0)
                    b(m)
                row_shift = ch                                # row_shift (uint16_t): 4 per block
                ldr_sp(m)                                     # row_shift
                ldr_sp(m)                                     # col_buffer_start
                col_pos = add(m, col_buffer_start, row_shift << 1)  # col_pos = col_buffer_start + row_shift
                ldr_sp(m)                                     # kernel
                add(m, row_shift, 4)                          # row_shift += 4;
                row_pos = add(m, kernel, row_shift)           # row_pos = kernel + row_shift
                ldr_sp(m)                                     # (kernel_x * kernel_y) / 2
                uxth(m, row_shift + 4, 0)
                str_sp(m)
                col_count = col_count2
                cmp(m, col_count, 0)                          # while (col_count)
                bcc(m, col_count == 0)
                if col_count != 0:
                    strd_sp(m)
                    strd_sp(m)
                    strd_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                    while col_count:
                        ldr_sp(m)                             # input_ch
                        ip_b1 = ldr(m, row_pos)               # ip_b1 = arm_nn_read_s8x4(row_pos);
                        ip_a1 = ldr(m, row_pos + input_ch)    # ip_a1 = arm_nn_read_s8x4(row_pos + input_ch);
                        op_a = ldr(m, col_pos)                # op_a = arm_nn_read_s16x2(col_pos);
                        op_b = ldr(m, col_pos + 2 * input_ch)  # op_b = arm_nn_read_s16x2(col_pos + input_ch);
                        ldr_sp(m)                             # sum
                        op_c = pkhbt(m, op_b, op_a, 16)       # op_c = PKHBT(op_b, op_a, 16);
                        ror_b1 = ror(m, ip_b1, 8)             # ROR(ip_b1, 8)
                        ror_a1 = ror(m, ip_a1, 8)             # ROR(ip_a1, 8)
                        ip_a2 = sxtb16(m, ip_b1, 0)           # ip_a2 = SXTB16(ip_b1);
                        ip_b2 = sxtb16(m, ip_a1, 0)           # ip_b2 = SXTB16(ip_a1);
                        op_a = pkhtb(m, op_b, op_a, 16)       # op_a = PKHTB(op_b, op_a, 16);
                        ip_b1 = sxtb16(m, ror_b1, 0)          # ip_b1 = SXTB16(ROR(ip_b1, 8));
                        ip_a1 = sxtb16(m, ror_a1, 0)          # ip_a1 = SXTB16(ROR(ip_a1, 8));
                        op_b = pkhbt(m, ip_b2, ip_a2, 16)     # op_b = PKHBT(ip_b2, ip_a2, 16);
                        sum_1 = smlad(m, op_c, op_b, sum_1)   # sum = SMLAD(op_c, op_b, sum);
                        str_sp(m)
                        op_b = pkhbt(m, ip_b1, ip_a1, 16)     # op_b = PKHBT(ip_b1, ip_a1, 16);
                        sum_2 = smlad(m, op_a, op_b, sum_2)   # sum_2 = SMLAD(op_a, op_b, sum_2);
                        op_b = pkhtb(m, ip_a2, ip_b2, 16)     # op_b = PKHTB(ip_a2, ip_b2, 16);
                        ldr_sp(m)                             # (input_ch << 1) + 4
                        op_a = ldr(m, col_pos + 4)            # op_a = arm_nn_read_s16x2(col_pos + 2);
                        op_b2 = ldr(m, col_pos + 2 * input_ch + 4)  # op_b = arm_nn_read_s16x2(col_pos + input_ch + 2);
                        op_c = pkhbt(m, op_b2, op_a, 16)      # op_c = PKHBT(op_b, op_a, 16);
                        op_a = pkhtb(m, op_b2, op_a, 16)      # op_a = PKHTB(op_b, op_a, 16);
                        ldr_sp(m)                             # sum_3
                        sum_3 = smlad(m, op_c, op_b, sum_3)   # sum_3 = SMLAD(op_c, op_b, sum_3);
                        str_sp(m)
                        op_b = pkhtb(m, ip_a1, ip_b1, 16)     # op_b = PKHTB(ip_a1, ip_b1, 16);
                        sum_4 = smlad(m, op_a, op_b, sum_4)   # sum_4 = SMLAD(op_a, op_b, sum_4);
                        ldr_sp(m)                             # input_ch * 4
                        col_count = sub(m, col_count, 1)      # col_count--;
                        col_count = uxth(m, col_count, 0)
                        row_pos = add(m, row_pos, input_ch << 1)  # row_pos += input_ch << 1;
                        col_pos = add(m, col_pos, input_ch << 2)  # col_pos += input_ch << 1;  (int16_t *)
                        cmp(m, col_count, 0)
                        bcc(m, col_count != 0)
                    ldrd_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    ldrd_sp(m)
                    ldr_sp(m)
                    ldrd_sp(m)
                    add(m, 0, 0)
                ldr_sp(m)                                     # (kernel_x * kernel_y) & 0x1
                cbz(m, odd == 0)                              # while (col_count)  (0 or 1 iteration)
                if odd != 0:                                  # sum += row_pos[0] * col_pos[0]; ...
                    r0 = ldrsb(m, row_pos)
                    c0 = ldrh(m, col_pos)
                    c2 = ldrh(m, col_pos + 4)
                    sum_1 = smlabb(m, c0, r0, sum_1)
                    r1 = ldrsb(m, row_pos + 1)
                    c1 = ldrh(m, col_pos + 2)
                    sum_2 = smlabb(m, c1, r1, sum_2)
                    r2 = ldrsb(m, row_pos + 2)
                    r3 = ldrsb(m, row_pos + 3)
                    sum_3 = smlabb(m, c2, r2, sum_3)
                    c3 = ldrh(m, col_pos + 6)
                    sum_4 = smlabb(m, c3, r3, sum_4)
                qm = output_mult + 4 * ch                     # *output_mult++
                qs = output_shift + 4 * ch                    # *output_shift++
                sum_1 = _block_output(m, sum_1, qm, qs, output_offset, act_min, act_max)
                strb(m, out, sum_1)                           # *output++ = (int8_t)sum;
                sum_2 = _block_output(m, sum_2, qm + 4, qs + 4, output_offset, act_min, act_max)
                strb(m, out + 1, sum_2)
                sum_3 = _block_output(m, sum_3, qm + 8, qs + 8, output_offset, act_min, act_max)
                strb(m, out + 2, sum_3)
                sum_4 = _block_output(m, sum_4, qm + 12, qs + 12, output_offset, act_min, act_max)
                ldr_sp(m)                                     # the blocks' end
                strb(m, out + 3, sum_4)
                out = add(m, out, 4)
                ch += 4
                row_count -= 1                                # row_count--;
                cmp(m, row_count, 0)
                add(m, 0, 16)
                add(m, 0, 16)
                bcc(m, row_count != 0)
            if row_count4 != 0:
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)                                     # bias
                ldr_sp(m)
                ldrd_sp(m)
                mov(m, 0)
                add(m, 0, 0)
            row_count = output_ch & 3                         # row_count = output_ch & 0x3;
            ldr_sp(m)
            cmp(m, row_count, 0)
            bcc(m, row_count == 0)
            if row_count != 0:
                add(m, ch, row_count)
                uxth(m, ch + row_count, 0)
                mov(m, 0)
                ldr_sp(m)                                     # input_ch
                str_sp(m)
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)                                     # (uint16_t)(kernel_x * kernel_y)
                mov(m, 0)
            while row_count:
                row_shift = ch
                mov(m, row_shift)
                cmp(m, bias, 0)                               # if (bias)
                bcc(m, bias == 0)
                if bias != 0:
                    sum_1 = ldr(m, bias + 4 * ch)             # sum = *bias++;
                else:
                    sum_1 = mov(m, 0)
                    b(m)
                add(m, row_shift, 1)                          # row_shift += 1;
                uxth(m, row_shift + 1, 0)
                cbz(m, col_count1 == 0)                       # for (int i = 0; i < col_count; i++)
                if col_count1 != 0:
                    ldr_sp(m)                                 # kernel
                    str_sp(m)
                    row_pos = add(m, kernel, row_shift)       # row_pos = kernel + row_shift
                    ldr_sp(m)                                 # col_buffer_start
                    col_pos = add(m, col_buffer_start, row_shift << 1)  # col_pos = col_buffer_start + row_shift
                    i = mov(m, 0)
                    while i < col_count1:                     # sum += row_pos[i * input_ch] * col_pos[i * input_ch];
                        r = ldrsb(m, row_pos)
                        c = ldrh(m, col_pos)
                        i = add(m, i, 1)
                        cmp(m, col_count1, i)
                        row_pos = add(m, row_pos, input_ch)
                        sum_1 = smlabb(m, c, r, sum_1)
                        col_pos = add(m, col_pos, input_ch << 1)
                        bcc(m, i != col_count1)
                    ldr_sp(m)
                shift = ldr(m, output_shift + 4 * ch)         # *output_shift++
                mult = ldr(m, output_mult + 4 * ch)           # *output_mult++
                sum_1 = _requantize(m, sum_1, mult, shift, False)
                sum_1 = _clamp(m, sum_1, output_offset, act_min, act_max)
                cmp(m, row_count, 1)
                strb(m, out, sum_1)                           # *output++ = (int8_t)sum;
                out += 1
                ch += 1
                row_count -= 1                                # row_count--;
                bcc(m, row_count != 0)
            if output_ch & 3:
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
            # i_out_x++ (base_idx_x kept as uint16_t)
            ldr_sp(m)
            ldr_sp(m)                                         # (uint16_t)stride_x
            add(m, 0, 0)
            uxth(m, 0, 0)
            ldr_sp(m)                                         # i_out_x
            str_sp(m)
            ldr_sp(m)                                         # output_x
            i_out_x = add(m, i_out_x, 1)
            cmp(m, output_x, i_out_x)
            str_sp(m)
            bcc(m, i_out_x != output_x)
            if i_out_x == output_x:
                ldrd_sp(m)
                ldrd_sp(m)
                str_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                mov(m, 0)
        i_out_y = add(m, i_out_y, 1)
        add(m, 0, stride_y)                                   # base_idx_y (uint16_t)
        cmp(m, output_y, i_out_y)
        uxth(m, 0, 0)
        bcc(m, i_out_y != output_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #236
    pop_pc(m, 9)
    return 0


def call_depthwise_conv_s8_opt(m, ctx, dw_conv_params, quant_params, input_dims, input,
                               filter_dims, kernel, bias_dims, bias, output_dims, output,
                               tracer=None):
    """Run arm_depthwise_conv_s8_opt and, in the plain-C build, the arm_depthwise_conv_s8 it
    tail-calls.  Returns the opt kernel's status (TAIL_CALL_GENERIC when it handed over)."""
    args = (ctx, dw_conv_params, quant_params, input_dims, input, filter_dims, kernel,
            bias_dims, bias, output_dims, output)
    status = run(arm_depthwise_conv_s8_opt, m, *args, tracer=tracer)
    if status == TAIL_CALL_GENERIC:
        call_depthwise_conv_s8(m, *args, tracer=tracer)
    return status
