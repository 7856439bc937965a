"""arm_depthwise_conv_3x3_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_3x3_s8.c).

Depthwise 3x3, ch_mult 1, padding <= 1, any stride.  Four channels at a time; each kernel
row reads the (up to) three taps as one word of four channels.  ARM_MATH_DSP: per tap
SXTAB16_RORn / SXTB16_RORn (inline assembly, so the ROR IS the rotation field) and
SMLABB/SMLATT; plain C: byte extracts (SXTB, SBFX, ASR) and MLA.

Arguments are the C function's, flattened: struct fields as ints, pointers as simulated
addresses (bias 0 = NULL).  Returns 0 (ARM_CMSIS_NN_SUCCESS) or -1 (ARM_CMSIS_NN_ARG_ERROR).

Counting notes (gcc 12 -O2, ../shared/reference dw3x3_*): the struct fields and the
stacked arguments are loaded from the stack (`fitted_ldr_sp`); the 4-channel accumulators live in
registers, the loop-invariant pointers are reloaded from spill slots once per block.  The
plain-C byte extract `(int8_t)(x >> 8)` is one SBFX in the measured code; it is issued here
as the equivalent single `SXTB Rd, Rm, ROR #8` (armsim has no SBFX op), likewise the output
byte is stored with STRB where gcc packs four bytes with BFI and stores a word.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, bcc, cbnz, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp,
                            fitted_mov, fitted_str_sp, fitted_strd_sp, it, ldr, ldrd, ldrsb,
                            mla, mov, mul, pkhbt, pop_pc, push, smlabb, smlatt, sub, sxtab16, sxtb,
                            sxtb16)
from armsim.kernels.minmax import min_gt
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s8 import requantize_clamp_store


@kernel(inline=True)
def _tap_dsp(m, input_ptr, kernel_ptr, lhs_offset_s16x2, b0, b1, b2, b3):
    in_val = ldr(m, input_ptr)                                # arm_nn_read_s8x4(input_ptr)
    ker_val = ldr(m, kernel_ptr)                              # arm_nn_read_s8x4(kernel_ptr)
    in_val_1 = sxtab16(m, lhs_offset_s16x2, in_val, 8)        # SXTAB16_RORn(lhs_offset_s16x2, in_val, 8)
    ker_val_1 = sxtb16(m, ker_val, 8)                         # SXTB16_RORn(ker_val, 8)
    b1 = smlabb(m, in_val_1, ker_val_1, b1)                   # out_buff1 = SMLABB(in_val_1, ker_val_1, out_buff1)
    in_val = sxtab16(m, lhs_offset_s16x2, in_val, 0)          # in_val = SXTAB16(lhs_offset_s16x2, in_val)
    b3 = smlatt(m, in_val_1, ker_val_1, b3)                   # out_buff3 = SMLATT(in_val_1, ker_val_1, out_buff3)
    ker_val = sxtb16(m, ker_val, 0)                           # ker_val = SXTB16(ker_val)
    b0 = smlabb(m, in_val, ker_val, b0)                       # out_buff0 = SMLABB(in_val, ker_val, out_buff0)
    b2 = smlatt(m, in_val, ker_val, b2)                       # out_buff2 = SMLATT(in_val, ker_val, out_buff2)
    return b0, b1, b2, b3


@kernel(inline=True)
def _tap_c(m, input_ptr, kernel_ptr, input_offset, b0, b1, b2, b3):
    in_val = ldr(m, input_ptr)                                # arm_nn_read_s8x4(input_ptr)
    ker_val = ldr(m, kernel_ptr)                              # arm_nn_read_s8x4(kernel_ptr)
    i0 = sxtb(m, in_val, 0)                                   # (int8_t)in_val
    k0 = sxtb(m, ker_val, 0)                                  # (int8_t)ker_val
    i1 = sxtb(m, in_val, 8)                                   # (int8_t)(in_val >> 8)   (SBFX)
    k1 = sxtb(m, ker_val, 8)                                  # (int8_t)(ker_val >> 8)  (SBFX)
    i2 = sxtb(m, in_val, 16)                                  # (int8_t)(in_val >> 16)  (SBFX)
    k2 = sxtb(m, ker_val, 16)                                 # (int8_t)(ker_val >> 16) (SBFX)
    k3 = asr(m, ker_val, 24)                                  # (int8_t)(ker_val >> 24)
    b0 = mla(m, add(m, i0, input_offset), k0, b0)             # out_buff0 += ((int8_t)in_val + input_offset) * (int8_t)ker_val
    b1 = mla(m, add(m, i1, input_offset), k1, b1)             # out_buff1 += ...
    b2 = mla(m, add(m, i2, input_offset), k2, b2)             # out_buff2 += ...
    b3 = mla(m, add(m, input_offset, in_val >> 24), k3, b3)   # out_buff3 += ((int8_t)(in_val >> 24) + ...  (ADD Rd, Rn, Rm, ASR #24)
    return b0, b1, b2, b3


@kernel
def arm_depthwise_conv_3x3_s8(m, input_x, input_y, input_ch, input, filter_w, filter_h,
                              kernel, bias, output_ch, output_x, output_y, output,
                              output_mult, output_shift, pad_x, pad_y, stride_x, stride_y,
                              input_offset, output_offset, act_min, act_max):
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #frame
    for _ in range(14):                                       # the struct fields and stacked arguments
        fitted_ldr_sp(m)
    cmp(m, input_ch, output_ch)                               # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    if input_ch != output_ch:
        mov(m, -1)
        pop_pc(m, 9)
        return -1
    cmp(m, pad_x, 1)                                          # if (pad_x > 1 || filter_dims->w != 3 || filter_dims->h != 3)
    bcc(m, pad_x > 1)
    bad = pad_x > 1
    if not bad:
        cmp(m, filter_w, 3)
        bcc(m, filter_w != 3)
        bad = filter_w != 3
        if not bad:
            cmp(m, filter_h, 3)
            bcc(m, filter_h != 3)
            bad = filter_h != 3
    if bad:
        mov(m, -1)
        pop_pc(m, 9)
        return -1
    lhs_offset_s16x2 = 0
    if m.dsp:
        lhs_offset_s16x2 = pkhbt(m, input_offset, input_offset, 16)  # PKHBT(input_offset, input_offset, 16) (hoisted)
    row_stride = mul(m, input_ch, input_x)                    # input_ch * input_x
    ker_row = add(m, input_ch, input_ch << 1)                 # input_ch * 3
    out_idx = 0
    in_h = sub(m, 0, pad_y)                         # in_h = -pad_y
    out_h = 0
    cmp(m, output_y, 0)                                       # out_h < output_y
    bcc(m, output_y <= 0)
    while out_h < output_y:
        ker_h_start = 0                                       # ker_h_start = MAX(0, -in_h)
        neg = sub(m, 0, in_h)
        cmp(m, in_h, 0)
        it(m, in_h < 0)                                       # the MOV fails unless in_h >= 0
        if in_h >= 0:
            ker_h_start = mov(m, 0)
        else:
            ker_h_start = neg
        ker_h_end = sub(m, input_y, in_h)                     # MIN(3, input_y - in_h)
        ker_h_end = min_gt(m, ker_h_end, 3)
        in_w = sub(m, 0, pad_x)                               # in_w = -pad_x
        in_row = mla(m, add(m, in_h, ker_h_start), row_stride, input)  # input + (in_h + ker_h_start) * (input_ch * input_x)
        kbase_row = mla(m, ker_h_start, ker_row, kernel)      # kernel + ker_h_start * (input_ch * 3)
        fitted_str_sp(m)
        out_w = 0
        cmp(m, output_x, 0)                                   # out_w < output_x
        bcc(m, output_x <= 0)
        while out_w < output_x:
            ker_w_start = 0 if in_w >= 0 else -in_w           # ker_w_start = MAX(0, -in_w)  (only == 0 is tested: the sign of in_w)
            right = sub(m, input_x, in_w)                     # (input_x - in_w) >= 3  (loop invariant)
            base = add(m, in_row, in_w * input_ch)            # input + (in_h + ker_h_start) * (input_ch * input_x) + in_w * input_ch  (running pointer)
            kbase = kbase_row                                 # kernel + ker_h_start * (input_ch * 3)
            for i in range(10):                               # the position's invariants reloaded from spill
                fitted_ldr_sp(m)                              # slots, mixed with the stores as gcc -O2
                fitted_str_sp(m)                              # schedules them (no long runs of loads)
                fitted_ldr_sp(m)
                if i == 4:
                    fitted_ldrd_sp(m)
            in_ch = 0
            last4 = sub(m, input_ch, 4)                       # for (; in_ch <= (input_ch - 4); in_ch += 4)
            cmp(m, in_ch, last4)
            bcc(m, in_ch > last4)
            while in_ch <= input_ch - 4:
                b0 = 0
                b1 = 0
                b2 = 0
                b3 = 0
                if bias != 0:                                 # if (bias)  (loop unswitched by gcc)
                    b0, b1 = ldrd(m, bias + 4 * in_ch)        # out_buff0 = *bias++; out_buff1 = *bias++;
                    b2, b3 = ldrd(m, bias + 4 * in_ch + 8)    # out_buff2 = *bias++; out_buff3 = *bias++;
                else:
                    b0 = mov(m, 0)
                    b1 = mov(m, 0)
                    b2 = mov(m, 0)
                    b3 = mov(m, 0)
                fitted_ldr_sp(m)                              # spilled invariants reloaded per block,
                fitted_ldrd_sp(m)                             # between the other stack accesses
                fitted_ldr_sp(m)
                fitted_ldrd_sp(m)
                fitted_ldr_sp(m)
                fitted_strd_sp(m)
                fitted_ldr_sp(m)
                fitted_strd_sp(m)
                fitted_str_sp(m)
                # Per-block bookkeeping of the compiled code (pointer/index updates, register
                # moves, untaken checks).  No disassembly is available: the kind and number of
                # these are fitted to the measured dsp_O2/scalar_O2 histograms of dw3x3_*.
                fitted_add(m)
                fitted_add(m)
                fitted_mov(m)
                fitted_mov(m)
                bcc(m, False)
                bcc(m, False)
                if not m.dsp:
                    fitted_ldrd_sp(m)
                    fitted_ldr_sp(m)
                    fitted_str_sp(m)
                    fitted_str_sp(m)
                    fitted_str_sp(m)
                input_ptr = add(m, base, in_ch)               # input_ptr = ... + in_ch
                kernel_ptr = add(m, kbase, in_ch)             # kernel_ptr = ... + in_ch
                ker_h = mov(m, ker_h_start)
                cmp(m, ker_h, ker_h_end)                      # ker_h < MIN(3, input_y - in_h)
                bcc(m, ker_h >= ker_h_end)
                while ker_h < ker_h_end:
                    # 9 reloads of accumulators / pointers from their spill slots per row, each
                    # before an ALU op or branch of the row as gcc -O2 places them (none back
                    # to back; the tap loads pair only with each other)
                    fitted_ldr_sp(m)
                    bcc(m, False)                             # (an untaken check per row, fitted like the above)
                    fitted_ldr_sp(m)
                    cbnz(m, ker_w_start != 0)                 # if (ker_w_start == 0)
                    if ker_w_start == 0:
                        if m.dsp:
                            b0, b1, b2, b3 = _tap_dsp(m, input_ptr, kernel_ptr, lhs_offset_s16x2, b0, b1, b2, b3)
                        else:
                            b0, b1, b2, b3 = _tap_c(m, input_ptr, kernel_ptr, input_offset, b0, b1, b2, b3)
                    if m.dsp:                                 # input_ptr + input_ch, kernel_ptr + input_ch
                        b0, b1, b2, b3 = _tap_dsp(m, input_ptr + input_ch, kernel_ptr + input_ch,
                                                  lhs_offset_s16x2, b0, b1, b2, b3)
                    else:
                        b0, b1, b2, b3 = _tap_c(m, input_ptr + input_ch, kernel_ptr + input_ch,
                                                input_offset, b0, b1, b2, b3)
                    fitted_ldr_sp(m)
                    cmp(m, right, 3)                          # if ((input_x - in_w) >= 3)
                    fitted_ldr_sp(m)
                    bcc(m, right < 3)
                    if right >= 3:                            # (input_ch << 1)
                        if m.dsp:
                            b0, b1, b2, b3 = _tap_dsp(m, input_ptr + 2 * input_ch, kernel_ptr + 2 * input_ch,
                                                      lhs_offset_s16x2, b0, b1, b2, b3)
                        else:
                            b0, b1, b2, b3 = _tap_c(m, input_ptr + 2 * input_ch, kernel_ptr + 2 * input_ch,
                                                    input_offset, b0, b1, b2, b3)
                    fitted_ldr_sp(m)
                    input_ptr = add(m, input_ptr, row_stride)  # input_ptr += (input_ch * input_x);
                    fitted_ldr_sp(m)
                    kernel_ptr = add(m, kernel_ptr, ker_row)   # kernel_ptr += (input_ch * 3);
                    fitted_ldr_sp(m)
                    ker_h = add(m, ker_h, 1)                   # ++ker_h
                    fitted_ldr_sp(m)
                    cmp(m, ker_h, ker_h_end)
                    fitted_ldr_sp(m)
                    bcc(m, ker_h < ker_h_end)
                requantize_clamp_store(m, b0, output_mult + 4 * in_ch, output_shift + 4 * in_ch,
                                       output_offset, act_min, act_max, output + out_idx)
                requantize_clamp_store(m, b1, output_mult + 4 * in_ch + 4, output_shift + 4 * in_ch + 4,
                                       output_offset, act_min, act_max, output + out_idx + 1)
                requantize_clamp_store(m, b2, output_mult + 4 * in_ch + 8, output_shift + 4 * in_ch + 8,
                                       output_offset, act_min, act_max, output + out_idx + 2)
                requantize_clamp_store(m, b3, output_mult + 4 * in_ch + 12, output_shift + 4 * in_ch + 12,
                                       output_offset, act_min, act_max, output + out_idx + 3)
                out_idx += 4                                  # (folded into the stores' offsets)
                add(m, out_idx, 4)
                in_ch = add(m, in_ch, 4)                      # in_ch += 4
                cmp(m, in_ch, last4)
                bcc(m, in_ch <= last4)

            # Leftover
            cmp(m, in_ch, input_ch)                           # for (; in_ch < input_ch; ++in_ch)
            bcc(m, in_ch >= input_ch)
            while in_ch < input_ch:
                out_buff = 0
                if bias != 0:                                 # if (bias)  (unswitched)
                    out_buff = ldr(m, bias + 4 * in_ch)       # out_buff = *bias++;
                else:
                    out_buff = mov(m, 0)
                input_ptr = add(m, base, in_ch)
                kernel_ptr = add(m, kbase, in_ch)
                ker_h = mov(m, ker_h_start)
                cmp(m, ker_h, ker_h_end)
                bcc(m, ker_h >= ker_h_end)
                while ker_h < ker_h_end:
                    cbnz(m, ker_w_start != 0)                 # if (ker_w_start == 0)
                    if ker_w_start == 0:                      # out_buff += (*(input_ptr) + input_offset) * *(kernel_ptr);
                        out_buff = mla(m, add(m, ldrsb(m, input_ptr), input_offset), ldrsb(m, kernel_ptr), out_buff)
                    out_buff = mla(m, add(m, ldrsb(m, input_ptr + input_ch), input_offset),
                                   ldrsb(m, kernel_ptr + input_ch), out_buff)
                    cmp(m, right, 3)                          # if ((input_x - in_w) >= 3)
                    bcc(m, right < 3)
                    if right >= 3:
                        out_buff = mla(m, add(m, ldrsb(m, input_ptr + 2 * input_ch), input_offset),
                                       ldrsb(m, kernel_ptr + 2 * input_ch), out_buff)
                    input_ptr = add(m, input_ptr, row_stride)
                    kernel_ptr = add(m, kernel_ptr, ker_row)
                    ker_h = add(m, ker_h, 1)
                    cmp(m, ker_h, ker_h_end)
                    bcc(m, ker_h < ker_h_end)
                requantize_clamp_store(m, out_buff, output_mult + 4 * in_ch, output_shift + 4 * in_ch,
                                       output_offset, act_min, act_max, output + out_idx)
                out_idx += 1
                in_ch = add(m, in_ch, 1)                      # ++in_ch
                cmp(m, in_ch, input_ch)
                bcc(m, in_ch < input_ch)
            in_w = add(m, in_w, stride_x)                     # in_w += stride_x
            out_w = add(m, out_w, 1)                          # ++out_w
            cmp(m, out_w, output_x)
            bcc(m, out_w < output_x)
        in_h = add(m, in_h, stride_y)                         # in_h += stride_y
        out_h = add(m, out_h, 1)                              # ++out_h
        fitted_ldr_sp(m)
        cmp(m, out_h, output_y)
        bcc(m, out_h < output_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #frame
    pop_pc(m, 9)
    return 0
