"""arm_depthwise_conv_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_s8.c).

The generic depthwise convolution: any channel multiplier, batches, dilation.  The file's
two static helpers are inlined by gcc into the entry point (the measured `functions` show
only `arm_depthwise_conv_s8`), so they are inline kernels here:
`depthwise_conv_s8_mult_4` (ch_mult % 4 == 0, batch 1, no dilation: four output channels
per tile) and `depthwise_conv_s8_generic` (one output channel at a time).  Neither has an
ARM_MATH_DSP variant: the DSP and plain-C builds run the same C, one MLA per tap.

`requantize_clamp_store` is the per-output epilogue every depthwise kernel shares:
arm_nn_requantize, `+= output_offset`, MIN/MAX clamp, store the byte.

Arguments are the C function's, flattened (struct fields as ints, pointers as simulated
addresses, bias 0 = NULL).  Returns 0 (ARM_CMSIS_NN_SUCCESS).

Counting notes (gcc 12 -O2, ../shared/reference dw3x3_8x8x4_m2_p1): the generic loop
keeps most of its two dozen live values in stack slots; per output channel it reloads
them (`fitted_ldr_sp`) and computes the tap window (MAX/MIN with IT), per tap it computes both
indices with MLA and loads input and weight with LDRSB.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr, ldrsb, lsl,
                            mla, mov, mul, pop_pc, push, rsb, sdiv, strb, sub)
from armsim.kernels.minmax import max_lt, min_gt
from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize


@kernel(inline=True)
def requantize_clamp_store(m, acc, mult_ptr, shift_ptr, output_offset, act_min, act_max, dst):
    """acc = arm_nn_requantize(acc, *mult, *shift); acc += output_offset;
    acc = MIN(MAX(acc, act_min), act_max); *dst = (int8_t)acc."""
    mult = ldr(m, mult_ptr)
    shift = ldr(m, shift_ptr)
    acc = arm_nn_requantize(m, acc, mult, shift)
    acc = add(m, acc, output_offset)                          # acc += output_offset;
    acc = max_lt(m, acc, act_min)                             # MAX(acc, output_activation_min)
    acc = min_gt(m, acc, act_max)                             # MIN(acc, output_activation_max)
    strb(m, dst, acc)                                         # *output++ = (int8_t)acc;
    return acc


@kernel(inline=True)
def _window_mult_4(m, in_pos, input_size, kernel_size):
    """depthwise_conv_s8_mult_4's tap window along one axis:
    ker_start = MAX(0, -in_pos); ker_end = MIN(kernel_size, input_size - in_pos)."""
    ker_start = 0 if in_pos >= 0 else -in_pos                 # ker_start = MAX(0, -in_pos)
    sub(m, 0, in_pos)
    cmp(m, in_pos, 0)
    it(m, in_pos < 0)                                         # the MOV fails unless in_pos >= 0
    if in_pos >= 0:
        fitted_mov(m)
    ker_end = sub(m, input_size, in_pos)                      # MIN(kernel_size, input_size - in_pos)
    ker_end = min_gt(m, ker_end, kernel_size)
    return ker_start, ker_end


@kernel(inline=True)
def depthwise_conv_s8_mult_4(m, input, input_x, input_y, input_ch, kernel, output_ch, ch_mult,
                             kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y, bias,
                             output, output_shift, output_mult, output_x, output_y,
                             output_offset, input_offset, act_min, act_max):
    in_h = sub(m, 0, pad_y)                                   # in_h = -pad_y
    out_h = 0
    cmp(m, output_y, 0)
    bcc(m, output_y <= 0)
    while out_h < output_y:
        ker_h_start, ker_h_end = _window_mult_4(m, in_h, input_y, kernel_y)
        in_w = sub(m, 0, pad_x)
        out_w = 0
        cmp(m, output_x, 0)
        bcc(m, output_x <= 0)
        while out_w < output_x:
            ker_w_start, ker_w_end = _window_mult_4(m, in_w, input_x, kernel_x)
            for _ in range(3):                                # bias/mult/shift = *_base
                fitted_ldr_sp(m)
            tile = 0                                          # running bias/mult/shift/output index
            in_ch = 0
            out_ch = 0
            while out_ch < output_ch:
                mult_tile = 0
                while mult_tile < ch_mult:
                    b0 = 0
                    b1 = 0
                    b2 = 0
                    b3 = 0
                    cbz(m, bias == 0)                         # if (bias)
                    if bias != 0:
                        b0 = ldr(m, bias + 16 * tile)         # out_buff[0] = *bias++; ...
                        b1 = ldr(m, bias + 16 * tile + 4)
                        b2 = ldr(m, bias + 16 * tile + 8)
                        b3 = ldr(m, bias + 16 * tile + 12)
                    else:
                        b0 = mov(m, 0)
                        b1 = mov(m, 0)
                        b2 = mov(m, 0)
                        b3 = mov(m, 0)
                    ker_h = ker_h_start
                    cmp(m, ker_h, ker_h_end)
                    bcc(m, ker_h >= ker_h_end)
                    while ker_h < ker_h_end:
                        ker_idx = mla(m, ker_h, mul(m, output_ch, kernel_x),
                                      mla(m, ker_w_start, output_ch, out_ch))  # ker_h * (output_ch * kernel_x) + ker_w_start * output_ch + out_ch
                        kptr = add(m, kernel + mult_tile, ker_idx)   # kernel = kernel_base + mult_tile + ker_idx;
                        in_idx = mla(m, add(m, in_h, ker_h), mul(m, input_ch, input_x),
                                     mla(m, in_w, input_ch, in_ch))   # (in_h + ker_h) * (input_ch * input_x) + in_w * input_ch + in_ch
                        ker_w = ker_w_start
                        cmp(m, ker_w, ker_w_end)
                        bcc(m, ker_w >= ker_w_end)
                        while ker_w < ker_w_end:
                            in_val = add(m, ldrsb(m, input + in_idx + ker_w * input_ch), input_offset)  # input[in_idx + ker_w * input_ch] + input_offset
                            b0 = mla(m, in_val, ldrsb(m, kptr), b0)        # out_buff[0] += in_val * kernel[0];
                            b1 = mla(m, in_val, ldrsb(m, kptr + 1), b1)    # out_buff[1] += in_val * kernel[1];
                            b2 = mla(m, in_val, ldrsb(m, kptr + 2), b2)    # out_buff[2] += in_val * kernel[2];
                            b3 = mla(m, in_val, ldrsb(m, kptr + 3), b3)    # out_buff[3] += in_val * kernel[3];
                            kptr = add(m, kptr, output_ch)                 # ++ker_w, kernel += output_ch
                            ker_w = add(m, ker_w, 1)
                            cmp(m, ker_w, ker_w_end)
                            bcc(m, ker_w < ker_w_end)
                        ker_h = add(m, ker_h, 1)
                        cmp(m, ker_h, ker_h_end)
                        bcc(m, ker_h < ker_h_end)
                    o = output + (out_h * output_x + out_w) * output_ch + 4 * tile
                    qm = output_mult + 16 * tile              # *output_mult++
                    qs = output_shift + 16 * tile             # *output_shift++
                    requantize_clamp_store(m, b0, qm, qs, output_offset, act_min, act_max, o)
                    requantize_clamp_store(m, b1, qm + 4, qs + 4, output_offset, act_min, act_max, o + 1)
                    requantize_clamp_store(m, b2, qm + 8, qs + 8, output_offset, act_min, act_max, o + 2)
                    requantize_clamp_store(m, b3, qm + 12, qs + 12, output_offset, act_min, act_max, o + 3)
                    tile += 1
                    mult_tile = add(m, mult_tile, 4)          # mult_tile += 4
                    cmp(m, mult_tile, ch_mult)
                    bcc(m, mult_tile < ch_mult)
                in_ch = add(m, in_ch, 1)                      # ++in_ch
                out_ch = add(m, out_ch, ch_mult)              # out_ch += ch_mult
                cmp(m, out_ch, output_ch)
                bcc(m, out_ch < output_ch)
            in_w = add(m, in_w, stride_x)
            out_w = add(m, out_w, 1)
            cmp(m, out_w, output_x)
            bcc(m, out_w < output_x)
        in_h = add(m, in_h, stride_y)
        out_h = add(m, out_h, 1)
        cmp(m, out_h, output_y)
        bcc(m, out_h < output_y)


@kernel(inline=True)
def _window(m, base_idx, dilation, input_size, kernel_size):
    """ker_start / ker_end of depthwise_conv_s8_generic along one axis."""
    if dilation > 1:
        t = add(m, sub(m, dilation, base_idx), -1)            # -base_idx + dilation - 1
        start = sdiv(m, t, dilation)                          # start_max = (...) / dilation
        start = max_lt(m, start, 0)                           # ker_start = MAX(0, start_max)
        t = add(m, sub(m, input_size, base_idx), dilation - 1)  # input - base_idx + dilation - 1
        end = sdiv(m, t, dilation)                            # end_min = (...) / dilation
        end = min_gt(m, end, kernel_size)                     # ker_end = MIN(kernel, end_min)
    else:
        start = 0                                             # ker_start = MAX(0, -base_idx)  (branches)
        cmp(m, base_idx, 0)
        bcc(m, base_idx >= 0)
        if base_idx < 0:
            start = rsb(m, base_idx, 0)
        end = sub(m, input_size, base_idx)                    # ker_end = MIN(kernel, input - base_idx)
        cmp(m, end, kernel_size)
        bcc(m, end <= kernel_size)
        if end > kernel_size:
            end = mov(m, kernel_size)
    return start, end


@kernel(inline=True)
def depthwise_conv_s8_generic(m, input, input_batches, input_x, input_y, input_ch, kernel,
                              output_ch, ch_mult, kernel_x, kernel_y, pad_x, pad_y, stride_x,
                              stride_y, bias, output, output_shift, output_mult, output_x,
                              output_y, output_offset, input_offset, act_min, act_max,
                              dilation_x, dilation_y):
    i_out = 0
    i_batch = 0
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    while i_batch < input_batches:
        i_out_y = 0
        cmp(m, output_y, 0)
        bcc(m, output_y <= 0)
        while i_out_y < output_y:
            base_idx_y = sub(m, mul(m, i_out_y, stride_y), pad_y)   # (i_out_y * stride_y) - pad_y  (int16_t)
            i_out_x = 0
            cmp(m, output_x, 0)
            bcc(m, output_x <= 0)
            while i_out_x < output_x:
                base_idx_x = sub(m, mul(m, i_out_x, stride_x), pad_x)  # (i_out_x * stride_x) - pad_x
                fitted_ldr_sp(m)
                i_input_ch = 0
                cmp(m, input_ch, 0)
                bcc(m, input_ch <= 0)
                while i_input_ch < input_ch:
                    i_ch_mult = 0
                    while i_ch_mult < ch_mult:
                        idx_out_ch = mla(m, i_input_ch, ch_mult, i_ch_mult)  # i_ch_mult + i_input_ch * ch_mult
                        for _ in range(4):                    # live values reloaded from their stack slots
                            fitted_ldrd_sp(m)
                        fitted_strd_sp(m)
                        if m.dsp:
                            b(m)
                        ker_x_start, ker_x_end = _window(m, base_idx_x, dilation_x, input_x, kernel_x)
                        ker_y_start, ker_y_end = _window(m, base_idx_y, dilation_y, input_y, kernel_y)
                        acc_0 = mov(m, 0)                     # int32_t acc_0 = 0;
                        cmp(m, bias, 0)                       # if (bias)
                        bcc(m, bias == 0)
                        if bias != 0:
                            acc_0 = ldr(m, bias + 4 * idx_out_ch)  # acc_0 = bias[idx_out_ch];
                        i_ker_y = ker_y_start
                        cmp(m, i_ker_y, ker_y_end)
                        bcc(m, i_ker_y >= ker_y_end)
                        while i_ker_y < ker_y_end:
                            # Per-row bookkeeping of the compiled loop (spills, moves, index
                            # updates, checks): kind and number fitted to the measured
                            # histograms of dw3x3_8x8x4_m2_p1 and the scalar dw5x5_10x10x32_m1_p2
                            # (rows and taps separated).  The 14 reloads of the row's values
                            # from their stack slots sit between the row's ALU ops and stores,
                            # as gcc -O2 schedules them: only two run back to back.
                            fitted_ldr_sp(m)
                            fitted_ldr_sp(m)
                            cmp(m, 0, 0)
                            fitted_ldr_sp(m)
                            fitted_ldr_sp(m)
                            fitted_str_sp(m)
                            for _ in range(4):
                                fitted_ldr_sp(m)
                                fitted_mov(m)
                                fitted_ldr_sp(m)
                                fitted_add(m)       # index bookkeeping of the row
                            for _ in range(2):
                                fitted_ldr_sp(m)
                                fitted_str_sp(m)
                            fitted_str_sp(m)
                            fitted_str_sp(m)
                            cmp(m, 0, 0)
                            bcc(m, False)
                            idx_y = mla(m, dilation_y, i_ker_y, base_idx_y)    # base_idx_y + dilation_y * i_ker_y
                            idx_x = mla(m, dilation_x, ker_x_start, base_idx_x)  # base_idx_x + dilation_x * i_ker_x
                            idx_0 = mla(m, mla(m, idx_y, input_x, idx_x), input_ch, i_input_ch)  # (idx_y * input_x + idx_x) * input_ch + i_input_ch
                            ker_idx_0 = mla(m, mla(m, i_ker_y, kernel_x, ker_x_start), input_ch * ch_mult,
                                            idx_out_ch)       # (i_ker_y * kernel_x + i_ker_x) * (input_ch * ch_mult) + idx_out_ch
                            in_step = dilation_x * input_ch   # idx_0 step per i_ker_x (kept in a stack slot)
                            i_ker_x = ker_x_start
                            cmp(m, i_ker_x, ker_x_end)
                            bcc(m, i_ker_x >= ker_x_end)
                            while i_ker_x < ker_x_end:      # (unrolled twice by gcc: one branch per two taps)
                                # gcc -O2 order: the loop's three values come from their stack
                                # slots one at a time, between the loads and the arithmetic
                                fitted_ldr_sp(m)
                                v = ldrsb(m, input + idx_0)   # input[idx_0]  (LDRSB [Rn, Rm])
                                idx_0 = add(m, idx_0, in_step)
                                fitted_ldr_sp(m)
                                i_ker_x = add(m, i_ker_x, 1)  # i_ker_x++
                                v = add(m, v, input_offset)   # ... + input_offset
                                acc_0 = mla(m, v, ldrsb(m, kernel + ker_idx_0), acc_0)  # acc_0 += ... * kernel[ker_idx_0];
                                fitted_ldr_sp(m)
                                ker_idx_0 = add(m, ker_idx_0, input_ch * ch_mult)  # ker_idx_0 += input_ch * ch_mult
                                if i_ker_x >= ker_x_end or ((i_ker_x - ker_x_start) & 1) == 0:
                                    bcc(m, i_ker_x < ker_x_end)
                            i_ker_y = add(m, i_ker_y, 1)
                            cmp(m, i_ker_y, ker_y_end)
                            bcc(m, i_ker_y < ker_y_end)
                        requantize_clamp_store(m, acc_0, output_mult + 4 * idx_out_ch,
                                               output_shift + 4 * idx_out_ch, output_offset,
                                               act_min, act_max, output + i_out)  # output[i_out++] = acc_0;
                        i_out += 1
                        i_ch_mult = add(m, i_ch_mult, 1)
                        cmp(m, i_ch_mult, ch_mult)
                        bcc(m, i_ch_mult < ch_mult)
                    i_input_ch = add(m, i_input_ch, 1)
                    cmp(m, i_input_ch, input_ch)
                    bcc(m, i_input_ch < input_ch)
                i_out_x = add(m, i_out_x, 1)
                cmp(m, i_out_x, output_x)
                bcc(m, i_out_x < output_x)
            i_out_y = add(m, i_out_y, 1)
            cmp(m, i_out_y, output_y)
            bcc(m, i_out_y < output_y)
        input = add(m, input, mul(m, mul(m, input_x, input_y), input_ch))  # input += (input_x * input_y * input_ch);
        i_batch = add(m, i_batch, 1)
        cmp(m, i_batch, input_batches)
        bcc(m, i_batch < input_batches)


@kernel
def arm_depthwise_conv_s8(m, input_x, input_y, input_ch, input_n, input, filter_w, filter_h,
                          kernel, bias, output_ch, output_x, output_y, output, output_mult,
                          output_shift, pad_x, pad_y, stride_x, stride_y, dilation_x,
                          dilation_y, ch_mult, input_offset, output_offset, act_min, act_max):
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    for _ in range(8):                                        # struct fields
        fitted_ldr_sp(m)
    lsl(m, ch_mult, 30)                                     # dw_conv_params->ch_mult % 4 == 0
    bcc(m, (ch_mult & 3) != 0)
    fast = (ch_mult & 3) == 0
    if fast:
        cmp(m, input_n, 1)                                    # input_dims->n == 1
        bcc(m, input_n != 1)
        fast = input_n == 1
    if fast:
        cmp(m, dilation_x, 1)                                 # dilation.w == 1
        bcc(m, dilation_x != 1)
        fast = dilation_x == 1
    if fast:
        cmp(m, dilation_y, 1)                                 # dilation.h == 1
        bcc(m, dilation_y != 1)
        fast = dilation_y == 1
    for _ in range(10):                                       # the remaining arguments into registers / stack slots
        fitted_ldr_sp(m)
    for _ in range(6):
        fitted_str_sp(m)
    if fast:
        depthwise_conv_s8_mult_4(m, input, input_x, input_y, input_ch, kernel, output_ch, ch_mult,
                                 filter_w, filter_h, pad_x, pad_y, stride_x, stride_y, bias,
                                 output, output_shift, output_mult, output_x, output_y,
                                 output_offset, input_offset, act_min, act_max)
    else:
        depthwise_conv_s8_generic(m, input, input_n, input_x, input_y, input_ch, kernel,
                                  output_ch, ch_mult, filter_w, filter_h, pad_x, pad_y,
                                  stride_x, stride_y, bias, output, output_shift, output_mult,
                                  output_x, output_y, output_offset, input_offset, act_min,
                                  act_max, dilation_x, dilation_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #frame
    pop_pc(m, 9)
    return 0
