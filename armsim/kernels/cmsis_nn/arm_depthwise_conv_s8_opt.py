"""arm_depthwise_conv_s8_opt (Source/ConvolutionFunctions/arm_depthwise_conv_s8_opt.c).

ch_mult 1 depthwise convolution.  ARM_MATH_DSP: for every output pixel the kernel window
is copied into the int16 column buffer (ctx->buf) with arm_q7_to_q15_with_offset (taps
outside the input: memset to 0, i.e. input + input_offset == 0), then four output channels
at a time accumulate two taps per iteration with SXTB16 / PKHBT / PKHTB / SMLAD.  gcc 12
keeps `SXTB16(ROR(x, 8))` as a ROR and an SXTB16 here (the measured dsp_O2 histogram counts
two RORs per iteration).  Without ARM_MATH_DSP the function checks its arguments and calls
arm_depthwise_conv_s8.

Arguments are the C function's, flattened (struct fields as ints, pointers as simulated
addresses, bias 0 = NULL, buf 0 = NULL).  Returns 0 (success), -1 (ARM_CMSIS_NN_ARG_ERROR)
or 1 (success through the arm_depthwise_conv_s8 fallback), so the caller can name the
kernel chain actually taken.

Counting notes (gcc 12 -O2, ../shared/reference dw5x5_10x10x32_m1_p2): the 4-channel
loop has more live values than registers; the spilled ones are reloaded per iteration
(`fitted_ldr_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cbz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr, ldrd, ldrh,
                            ldrsb, ldrsh, lsl, lsr, mla, mov, mul, pkhbt, pkhtb, pop, pop_pc, push,
                            ror, smlabb, smlad, sub, sxtb16, uxth)
from armsim.kernels.minmax import min_gt
from armsim.kernels.cmsis_nn.arm_depthwise_conv_get_buffer_sizes_s8 import \
    arm_depthwise_conv_s8_opt_get_buffer_size
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import arm_depthwise_conv_s8, requantize_clamp_store
from armsim.kernels.cmsis_nn.arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from armsim.kernels.libc import memset


@kernel(inline=True)
def _memset_zero(m, dst, nbytes):
    mov(m, 0)                                                 # r1 = 0
    bl(m)                                                     # memset(dst, 0, nbytes)
    memset(m, dst, 0, nbytes)


@kernel(inline=True)
def _dsp_body(m, input_x, input_y, input_ch, input, kernel_x, kernel_y, kernel, bias,
              output_ch, output_x, output_y, output, output_mult, output_shift, pad_x, pad_y,
              stride_x, stride_y, input_offset, output_offset, act_min, act_max, buffer_a):
    col_buffer_start = buffer_a                               # int16_t *const col_buffer_start = buffer_a;
    out = output
    i_out_y = 0
    cmp(m, output_y, 0)
    bcc(m, output_y <= 0)
    while i_out_y < output_y:
        base_idx_y = sub(m, mul(m, i_out_y, stride_y), pad_y)  # (i_out_y * stride_y) - pad_y
        i_out_x = 0
        cmp(m, output_x, 0)
        bcc(m, output_x <= 0)
        while i_out_x < output_x:
            base_idx_x = sub(m, mul(m, i_out_x, stride_x), pad_x)  # (i_out_x * stride_x) - pad_x
            fitted_ldr_sp(m)
            ker_y_start = sub(m, 0, base_idx_y)               # MAX(0, -base_idx_y)
            cmp(m, base_idx_y, 0)
            it(m, base_idx_y < 0)                             # the MOV fails unless base_idx_y >= 0
            if base_idx_y >= 0:
                ker_y_start = mov(m, 0)
            ker_y_end = sub(m, input_y, base_idx_y)           # MIN(kernel_y, input_y - base_idx_y)
            ker_y_end = min_gt(m, ker_y_end, kernel_y)
            index = 0                                         # int32_t index = 0;
            row_len = mul(m, kernel_x, input_ch)              # kernel_x * input_ch
            cbz(m, ker_y_start == 0)                          # if (ker_y_start != 0)
            if ker_y_start != 0:
                n = lsl(m, mul(m, row_len, ker_y_start), 1)   # (kernel_x * input_ch) * ker_y_start * sizeof(int16_t)
                _memset_zero(m, col_buffer_start, n)
                index = mul(m, row_len, ker_y_start)          # index += (kernel_x * input_ch) * ker_y_start;
            i_ker_y = ker_y_start
            cmp(m, i_ker_y, ker_y_end)
            bcc(m, i_ker_y >= ker_y_end)
            while i_ker_y < ker_y_end:
                idx_y = add(m, base_idx_y, i_ker_y)           # base_idx_y + i_ker_y
                i_ker_x = 0
                while i_ker_x < kernel_x:
                    idx_x = add(m, base_idx_x, i_ker_x)       # base_idx_x + i_ker_x
                    cmp(m, idx_x, 0)                          # if (idx_x < 0 || idx_x >= input_x)
                    bcc(m, idx_x < 0)
                    outside = idx_x < 0
                    if not outside:
                        cmp(m, idx_x, input_x)
                        bcc(m, idx_x >= input_x)
                        outside = idx_x >= input_x
                    dst = add(m, col_buffer_start, index << 1)  # &col_buffer[index]  (ADD Rd, Rn, Rm, LSL #1)
                    if outside:
                        _memset_zero(m, dst, lsl(m, input_ch, 1))     # memset(&col_buffer[index], 0, input_ch * sizeof(int16_t))
                    else:
                        src = input + (idx_y * input_x + idx_x) * input_ch  # input + (idx_y * input_x + idx_x) * input_ch
                        add(m, src, 0)                        # (strength-reduced by gcc: two ADDs per tap)
                        add(m, src, 0)
                        mov(m, input_ch)
                        fitted_ldr_sp(m)                      # (int16_t)input_offset
                        bl(m)
                        arm_q7_to_q15_with_offset(m, src, dst, input_ch, input_offset)
                    index = add(m, index, input_ch)           # index += input_ch;
                    i_ker_x = add(m, i_ker_x, 1)
                    cmp(m, i_ker_x, kernel_x)
                    bcc(m, i_ker_x < kernel_x)
                i_ker_y = add(m, i_ker_y, 1)
                cmp(m, i_ker_y, ker_y_end)
                bcc(m, i_ker_y < ker_y_end)
            diff = sub(m, kernel_y, ker_y_end)                # const int diff = kernel_y - ker_y_end;
            cbz(m, diff == 0)                                 # if (diff != 0)
            if diff != 0:
                n = lsl(m, mul(m, row_len, diff), 1)          # (kernel_x * input_ch) * diff * sizeof(int16_t)
                _memset_zero(m, add(m, col_buffer_start, lsl(m, index, 1)), n)

            row_count = lsr(m, output_ch, 2)                  # row_count = output_ch / 4;
            row_count = uxth(m, row_count, 0)                 # (uint16_t)
            row_shift = mov(m, 0)                             # row_shift = 0;
            ch = 0                                            # bias / output_mult / output_shift index
            for _ in range(3):                                # bias = bias_start_pos; ...
                fitted_ldr_sp(m)
            kxy = kernel_x * kernel_y                         # (kept in a stack slot)
            cmp(m, row_count, 0)                              # while (row_count)
            bcc(m, row_count == 0)
            while row_count:
                sum_1 = 0
                sum_2 = 0
                sum_3 = 0
                sum_4 = 0
                cbz(m, bias == 0)                             # if (bias)
                if bias != 0:
                    sum_1, sum_2 = ldrd(m, bias + 4 * ch)     # sum = *bias++; sum_2 = *bias++;
                    sum_3, sum_4 = ldrd(m, bias + 4 * ch + 8)  # sum_3 = *bias++; sum_4 = *bias++;
                else:
                    sum_1 = mov(m, 0)
                    sum_2 = mov(m, 0)
                    sum_3 = mov(m, 0)
                    sum_4 = mov(m, 0)
                fitted_ldr_sp(m)                              # the block's spilled values, reloads
                for _ in range(4):                            # and spills alternating (gcc -O2)
                    fitted_ldr_sp(m)
                    fitted_str_sp(m)
                for _ in range(3):
                    fitted_ldrd_sp(m)
                    fitted_strd_sp(m)
                col_count = lsr(m, kxy, 1)                    # (kernel_x * kernel_y) / 2
                col_count = uxth(m, col_count, 0)
                col_pos = add(m, col_buffer_start, lsl(m, row_shift, 1))  # col_buffer_start + row_shift
                row_pos = add(m, kernel, row_shift)           # kernel + row_shift
                row_shift = uxth(m, add(m, row_shift, 4), 0)  # row_shift += 4;
                stride8 = input_ch                            # row_pos / col_pos step: input_ch << 1
                cmp(m, col_count, 0)                          # while (col_count)
                bcc(m, col_count == 0)
                while col_count:
                    # gcc -O2 order: the four data loads run back to back with a stack reload
                    # on each side, the other reloads (spilled sums / pointers) and spills sit
                    # between the SIMD ops
                    fitted_ldr_sp(m)
                    ip_b1 = ldr(m, row_pos)                   # ip_b1 = arm_nn_read_s8x4(row_pos);
                    ip_a1 = ldr(m, row_pos + input_ch)        # ip_a1 = arm_nn_read_s8x4(row_pos + input_ch);
                    op_a = ldr(m, col_pos)                    # op_a = arm_nn_read_s16x2(col_pos);
                    op_b = ldr(m, col_pos + 2 * input_ch)     # op_b = arm_nn_read_s16x2(col_pos + input_ch);
                    fitted_ldr_sp(m)

                    op_c = pkhbt(m, op_b, op_a, 16)           # op_c = PKHBT(op_b, op_a, 16);
                    ip_a2 = sxtb16(m, ip_b1, 0)               # ip_a2 = SXTB16(ip_b1);
                    ip_b1 = sxtb16(m, ror(m, ip_b1, 8), 0)    # ip_b1 = SXTB16(ROR(ip_b1, 8));
                    fitted_ldr_sp(m)
                    ip_b2 = sxtb16(m, ip_a1, 0)               # ip_b2 = SXTB16(ip_a1);
                    ip_a1 = sxtb16(m, ror(m, ip_a1, 8), 0)    # ip_a1 = SXTB16(ROR(ip_a1, 8));

                    op_a = pkhtb(m, op_b, op_a, 16)           # op_a = PKHTB(op_b, op_a, 16);
                    op_b = pkhbt(m, ip_b2, ip_a2, 16)         # op_b = PKHBT(ip_b2, ip_a2, 16);
                    sum_1 = smlad(m, op_c, op_b, sum_1)       # sum = SMLAD(op_c, op_b, sum);
                    fitted_str_sp(m)

                    fitted_ldr_sp(m)
                    op_b = pkhbt(m, ip_b1, ip_a1, 16)         # op_b = PKHBT(ip_b1, ip_a1, 16);
                    sum_2 = smlad(m, op_a, op_b, sum_2)       # sum_2 = SMLAD(op_a, op_b, sum_2);

                    fitted_ldr_sp(m)
                    op_a = ldr(m, col_pos + 4)                # op_a = arm_nn_read_s16x2(col_pos + 2);
                    op_b = ldr(m, col_pos + 2 * input_ch + 4)  # op_b = arm_nn_read_s16x2(col_pos + input_ch + 2);

                    op_c = pkhbt(m, op_b, op_a, 16)           # op_c = PKHBT(op_b, op_a, 16);
                    op_a = pkhtb(m, op_b, op_a, 16)           # op_a = PKHTB(op_b, op_a, 16);
                    op_b = pkhtb(m, ip_a2, ip_b2, 16)         # op_b = PKHTB(ip_a2, ip_b2, 16);
                    fitted_ldr_sp(m)
                    sum_3 = smlad(m, op_c, op_b, sum_3)       # sum_3 = SMLAD(op_c, op_b, sum_3);
                    fitted_str_sp(m)

                    op_b = pkhtb(m, ip_a1, ip_b1, 16)         # op_b = PKHTB(ip_a1, ip_b1, 16);
                    sum_4 = smlad(m, op_a, op_b, sum_4)       # sum_4 = SMLAD(op_a, op_b, sum_4);

                    fitted_ldr_sp(m)
                    row_pos = add(m, row_pos, stride8 << 1)   # row_pos += input_ch << 1;
                    col_pos = add(m, col_pos, stride8 << 2)   # col_pos += input_ch << 1;  (int16_t *)
                    col_count = sub(m, col_count, 1)          # col_count--;
                    col_count = uxth(m, col_count, 0)
                    cmp(m, col_count, 0)
                    bcc(m, col_count != 0)

                col_count = kxy & 1                           # col_count = (kernel_x * kernel_y) & 0x1;
                bcc(m, col_count == 0)
                while col_count:                              # (SMLABB: the int16 col values need no sign extension)
                    sum_1 = smlabb(m, ldrsb(m, row_pos), ldrh(m, col_pos), sum_1)          # sum += row_pos[0] * col_pos[0];
                    sum_2 = smlabb(m, ldrsb(m, row_pos + 1), ldrh(m, col_pos + 2), sum_2)  # sum_2 += row_pos[1] * col_pos[1];
                    sum_3 = smlabb(m, ldrsb(m, row_pos + 2), ldrh(m, col_pos + 4), sum_3)  # sum_3 += row_pos[2] * col_pos[2];
                    sum_4 = smlabb(m, ldrsb(m, row_pos + 3), ldrh(m, col_pos + 6), sum_4)  # sum_4 += row_pos[3] * col_pos[3];
                    row_pos = add(m, row_pos, input_ch)       # row_pos += input_ch;
                    col_pos = add(m, col_pos, 2 * input_ch)   # col_pos += input_ch;
                    col_count = sub(m, col_count, 1)
                    bcc(m, col_count != 0)
                qm = output_mult + 4 * ch                     # *output_mult++
                qs = output_shift + 4 * ch                    # *output_shift++
                requantize_clamp_store(m, sum_1, qm, qs, output_offset, act_min, act_max, out)
                requantize_clamp_store(m, sum_2, qm + 4, qs + 4, output_offset, act_min, act_max, out + 1)
                requantize_clamp_store(m, sum_3, qm + 8, qs + 8, output_offset, act_min, act_max, out + 2)
                requantize_clamp_store(m, sum_4, qm + 12, qs + 12, output_offset, act_min, act_max, out + 3)
                out += 4                                      # *output++ (post-indexed STRB)
                ch += 4
                row_count = sub(m, row_count, 1)              # row_count--;
                row_count = uxth(m, row_count, 0)
                cmp(m, row_count, 0)
                bcc(m, row_count != 0)

            row_count = output_ch & 3                         # row_count = output_ch & 0x3;
            mov(m, row_count)
            cbz(m, row_count == 0)
            while row_count:
                col_pos = add(m, col_buffer_start, lsl(m, row_shift, 1))  # col_buffer_start + row_shift
                row_pos = add(m, kernel, row_shift)           # kernel + row_shift
                sum_1 = 0
                cbz(m, bias == 0)                             # if (bias)
                if bias != 0:
                    sum_1 = ldr(m, bias + 4 * ch)             # sum = *bias++;
                else:
                    sum_1 = mov(m, 0)
                col_count = uxth(m, mul(m, kernel_x, kernel_y), 0)  # (uint16_t)(kernel_x * kernel_y)
                row_shift = add(m, row_shift, 1)              # row_shift += 1;
                i = 0
                cbz(m, col_count == 0)
                while i < col_count:                          # sum += row_pos[i * input_ch] * col_pos[i * input_ch];
                    sum_1 = mla(m, ldrsb(m, row_pos + i * input_ch), ldrsh(m, col_pos + 2 * i * input_ch), sum_1)
                    i = add(m, i, 1)
                    cmp(m, i, col_count)
                    bcc(m, i < col_count)
                requantize_clamp_store(m, sum_1, output_mult + 4 * ch, output_shift + 4 * ch,
                                       output_offset, act_min, act_max, out)
                out += 1
                ch += 1
                row_count = sub(m, row_count, 1)              # row_count--;
                bcc(m, row_count != 0)
            i_out_x = add(m, i_out_x, 1)
            cmp(m, i_out_x, output_x)
            bcc(m, i_out_x < output_x)
        i_out_y = add(m, i_out_y, 1)
        cmp(m, i_out_y, output_y)
        bcc(m, i_out_y < output_y)


@kernel
def arm_depthwise_conv_s8_opt(m, buf, input_x, input_y, input_ch, input_n, input, filter_w,
                              filter_h, kernel, bias, output_ch, output_x, output_y, output,
                              output_mult, output_shift, pad_x, pad_y, stride_x, stride_y,
                              dilation_x, dilation_y, ch_mult, input_offset, output_offset,
                              act_min, act_max):
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    fitted_ldr_sp(m)                                          # input_dims->c
    fitted_ldr_sp(m)                                          # output_dims->c
    cmp(m, input_ch, output_ch)                               # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    if input_ch != output_ch:
        mov(m, -1)
        fitted_add(m)
        pop_pc(m, 9)
        return -1
    cbz(m, buf != 0)                                          # if (ctx->buf == NULL && ..._get_buffer_size(...) > 0)
    if buf == 0:
        fitted_mov(m)
        fitted_mov(m)
        bl(m)
        size = arm_depthwise_conv_s8_opt_get_buffer_size(m, input_ch, filter_w, filter_h)
        cmp(m, size, 0)
        bcc(m, size > 0)
        if size > 0:
            mov(m, -1)
            fitted_add(m)
            pop_pc(m, 9)
            return -1
    if m.dsp:
        for _ in range(16):                                   # the struct fields
            fitted_ldr_sp(m)
        for _ in range(6):
            fitted_str_sp(m)
        _dsp_body(m, input_x, input_y, input_ch, input, filter_w, filter_h, kernel, bias,
                  output_ch, output_x, output_y, output, output_mult, output_shift, pad_x, pad_y,
                  stride_x, stride_y, input_offset, output_offset, act_min, act_max, buf)
        mov(m, 0)                                             # return ARM_CMSIS_NN_SUCCESS;
        fitted_add(m)
        pop_pc(m, 9)
        return 0
    # Plain C: return arm_depthwise_conv_s8(ctx, dw_conv_params, ...);  (a tail call)
    for _ in range(7):                                        # the stacked arguments, passed on
        fitted_ldr_sp(m)
    for _ in range(7):
        fitted_str_sp(m)
    add(m, 0, 0)                                              # add sp, #frame
    pop(m, 9)                                                 # pop {r4-r11, lr}  (a tail call: LR, not PC)
    b(m)                                                      # b.w arm_depthwise_conv_s8
    arm_depthwise_conv_s8(m, input_x, input_y, input_ch, input_n, input, filter_w, filter_h,
                          kernel, bias, output_ch, output_x, output_y, output, output_mult,
                          output_shift, pad_x, pad_y, stride_x, stride_y, dilation_x,
                          dilation_y, ch_mult, input_offset, output_offset, act_min, act_max)
    return 1
