"""arm_depthwise_conv_3x3_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_3x3_s8.c).

Depthwise 3x3, ch_mult 1, padding.w <= 1, any stride.  Four channels at a time; each kernel
row reads the (up to) three taps as one word of four channels.  ARM_MATH_DSP: per tap
SXTAB16_RORn / SXTB16_RORn (inline assembly, so the ROR is the rotation field) and
SMLABB/SMLATT; plain C: byte extracts (SXTB, SBFX, the ASR #24 folded into an ADD) and MLA.
gcc packs the block's four output bytes with BFI and stores them as one word.

Arguments are the C function's: `arm_nn_types` structs, pointers as simulated addresses
(bias 0 = NULL).  Returns 0 (ARM_CMSIS_NN_SUCCESS) or -1 (ARM_CMSIS_NN_ARG_ERROR).

Every instruction, stack traffic included, is read off gcc 12.2 -O2's code of this file
(Cortex-M4 and Cortex-M3 builds schedule differently; `m.dsp` picks the build).  The loop
nest is the C's, with gcc's loop rotation: each `for` tests its condition once before the
first iteration and then at the bottom.  arm_nn_requantize is inlined at two sites (the
block's four channels and the leftover channel) with the rounding branch of
arm_nn_divide_by_power_of_two skipped for a positive shift.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, b, bcc, bfi, bic, cbnz, cmp,
                            enter_region, it, ldr, ldr_sp, ldrd, ldrd_sp, ldrsb, leave_region,
                            lsl, lsr, mla, mls, mov, mul, orr, pkhbt, pop_pc, push, rsb, sbfx,
                            smlabb, smlal, smlatt, str_, str_sp, strb, strd_sp, sub, sxtab16,
                            sxtb, sxtb16)
from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def _round(m, result, exponent, scalar_order):
    """arm_nn_divide_by_power_of_two(result, -shift) for shift <= 0 as gcc inlines it:
    NEGS/MOVS (their order differs per site), LSLS, SUBS, AND, ASRS, ASR, IT MI, CMP, IT GT."""
    if scalar_order:
        one = mov(m, 1)                                       # movs rX, #1
        exponent = rsb(m, exponent, 0)                        # negs: right_shift = -shift
    else:
        exponent = rsb(m, exponent, 0)
        one = mov(m, 1)
    mask = sub(m, lsl(m, one, exponent), 1)                   # remainder_mask = (1 << exponent) - 1
    remainder = and_(m, result, mask)                         # remainder = remainder_mask & dividend
    result = asr(m, result, exponent)                         # result = dividend >> exponent  (ASRS)
    threshold = asr(m, mask, 1)                               # threshold = remainder_mask >> 1
    it(m, result >= 0)                                        # if (result < 0) threshold++;  (IT MI)
    if result < 0:
        threshold = add(m, threshold, 1)
    cmp(m, remainder, threshold)                              # if (remainder > threshold) result++;
    it(m, remainder <= threshold)
    if remainder > threshold:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _requantize_block(outer, acc, mult_ptr, shift_ptr):
    """arm_nn_requantize(acc, *mult, *shift) as inlined for the four channels of a block."""
    if outer.dsp:
        shift = ldr(outer, shift_ptr)
        mult = ldr(outer, mult_ptr)
    else:
        shift = ldr(outer, shift_ptr)
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                                     # CMSIS_NN_USE_SINGLE_ROUNDING: estimated
        if not m.dsp:
            mult = ldr(m, mult_ptr)
        acc = arm_nn_requantize(m, acc, mult, shift)
        leave_region(outer, m)
        return acc
    if m.dsp:
        x = lsl(m, acc, bic(m, shift, shift >> 31))           # val * (1 << left_shift)  (BIC Rd, Rs, Rs, ASR #31)
        hi = mov(m, 0)                                        # mult.word.high = 0
        lo = mov(m, 1 << 30)                                  # mult.word.low = 1 << 30
        lo, hi = smlal(m, lo, hi, x, mult)                    # mult.long_long += (int64_t)m1 * m2
        lo = lsr(m, lo, 31)
        cmp(m, shift, 0)
        acc = orr(m, lo, hi << 1)                             # (int32_t)(mult.long_long >> 31)
    else:
        hi = mov(m, 0)
        x = lsl(m, acc, bic(m, shift, shift >> 31))
        lo = mov(m, 1 << 30)
        mult = ldr(m, mult_ptr)
        cmp(m, shift, 0)
        lo, hi = smlal(m, lo, hi, x, mult)
        lo = lsr(m, lo, 31)
        acc = orr(m, lo, hi << 1)
    bcc(m, shift > 0)                                         # BGT: no rounding for right_shift 0
    if shift <= 0:
        acc = _round(m, acc, shift, not m.dsp)
    leave_region(outer, m)
    return acc


@kernel(inline=True)
def _requantize_leftover(outer, acc, mult_ptr, shift_ptr):
    """arm_nn_requantize(out_buff, output_mult[in_ch], output_shift[in_ch]) of the leftover."""
    ldr_sp(outer)                                             # the output_shift pointer
    if outer.dsp:
        mult = ldr(outer, mult_ptr)                           # ldr r0, [fp], #4
        shift = ldr(outer, shift_ptr)                         # ldr r2, [r1], #4
        str_sp(outer)
    else:
        mov(outer, 0)                                         # movs r5, #0  (mult.word.high)
        shift = ldr(outer, shift_ptr)
        mult = ldr(outer, mult_ptr)
        str_sp(outer)
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:
        acc = arm_nn_requantize(m, acc, mult, shift)
        leave_region(outer, m)
        return acc
    x = lsl(m, acc, bic(m, shift, shift >> 31))
    hi = 0
    if m.dsp:
        hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    lo, hi = smlal(m, lo, hi, x, mult)
    if m.dsp:
        lo = lsr(m, lo, 31)
        cmp(m, shift, 0)
    else:
        cmp(m, shift, 0)
        lo = lsr(m, lo, 31)
    acc = orr(m, lo, hi << 1)
    bcc(m, shift > 0)
    if shift <= 0:
        acc = _round(m, acc, shift, not m.dsp)
    leave_region(outer, m)
    return acc


@kernel(inline=True)
def _tap_dsp(m, input_ptr, kernel_ptr, lhs_offset_s16x2, b0, b1, b2, b3):
    """Taps 0 and 2 of a row: the C's order."""
    in_val = ldr(m, input_ptr)                                # arm_nn_read_s8x4(input_ptr)
    ker_val = ldr(m, kernel_ptr)                              # arm_nn_read_s8x4(kernel_ptr)
    in_val_1 = sxtab16(m, lhs_offset_s16x2, in_val, 8)        # SXTAB16_RORn(lhs_offset_s16x2, in_val, 8)
    ker_val_1 = sxtb16(m, ker_val, 8)                         # SXTB16_RORn(ker_val, 8)
    in_val = sxtab16(m, lhs_offset_s16x2, in_val, 0)          # SXTAB16(lhs_offset_s16x2, in_val)
    ker_val = sxtb16(m, ker_val, 0)                           # SXTB16(ker_val)
    b1 = smlabb(m, in_val_1, ker_val_1, b1)                   # out_buff1 = SMLABB(in_val_1, ker_val_1, out_buff1)
    b3 = smlatt(m, in_val_1, ker_val_1, b3)                   # out_buff3 = SMLATT(in_val_1, ker_val_1, out_buff3)
    b0 = smlabb(m, in_val, ker_val, b0)                       # out_buff0 = SMLABB(in_val, ker_val, out_buff0)
    b2 = smlatt(m, in_val, ker_val, b2)                       # out_buff2 = SMLATT(in_val, ker_val, out_buff2)
    return b0, b1, b2, b3


@kernel(inline=True)
def _tap_dsp_middle(m, input_ptr, kernel_ptr, lhs_offset_s16x2, b0, b1, b2, b3):
    """Tap 1 (input_ptr + input_ch): gcc moves the `(input_x - in_w) >= 3` reload and
    compare of the next tap in between its MACs."""
    in_val = ldr(m, input_ptr)
    ker_val = ldr(m, kernel_ptr)
    in_val_1 = sxtab16(m, lhs_offset_s16x2, in_val, 8)
    ker_val_1 = sxtb16(m, ker_val, 8)
    ker_val = sxtb16(m, ker_val, 0)
    in_val = sxtab16(m, lhs_offset_s16x2, in_val, 0)
    b0 = smlabb(m, in_val, ker_val, b0)
    b2 = smlatt(m, in_val, ker_val, b2)
    ldr_sp(m)                                                 # input_x - in_w
    cmp(m, 0, 2)
    b1 = smlabb(m, in_val_1, ker_val_1, b1)
    b3 = smlatt(m, in_val_1, ker_val_1, b3)
    return b0, b1, b2, b3


@kernel(inline=True)
def _tap_c(m, input_ptr, kernel_ptr, input_offset, b0, b1, b2, b3):
    """Taps 0 and 2 of a row, plain C: out_buffN += ((int8_t)(in_val >> 8N) + input_offset)
    * (int8_t)(ker_val >> 8N)."""
    in_val = ldr(m, input_ptr)
    ker_val = ldr(m, kernel_ptr)
    i0 = add(m, sxtb(m, in_val, 0), input_offset)             # (int8_t)in_val + input_offset
    i1 = sbfx(m, in_val, 8, 8)                                # (int8_t)(in_val >> 8)
    k0 = sxtb(m, ker_val, 0)
    i1 = add(m, i1, input_offset)
    i2 = sbfx(m, in_val, 16, 8)
    b0 = mla(m, k0, i0, b0)
    k1 = sbfx(m, ker_val, 8, 8)
    b1 = mla(m, k1, i1, b1)
    i2 = add(m, i2, input_offset)
    k2 = sbfx(m, ker_val, 16, 8)
    i3 = add(m, input_offset, in_val >> 24)                   # ADD Rd, Rn, Rm, ASR #24
    k3 = asr(m, ker_val, 24)
    b2 = mla(m, k2, i2, b2)
    b3 = mla(m, k3, i3, b3)
    return b0, b1, b2, b3


@kernel(inline=True)
def _tap_c_middle(m, input_ptr, kernel_ptr, input_offset, b0, b1, b2, b3):
    """Tap 1, plain C, with the next tap's `(input_x - in_w) >= 3` test scheduled inside."""
    ldr_sp(m)                                                 # input_ch
    in_val = ldr(m, input_ptr)
    ker_val = ldr(m, kernel_ptr)
    i0 = add(m, sxtb(m, in_val, 0), input_offset)
    i1 = sbfx(m, in_val, 8, 8)
    k0 = sxtb(m, ker_val, 0)
    i1 = add(m, i1, input_offset)
    b0 = mla(m, k0, i0, b0)
    k1 = sbfx(m, ker_val, 8, 8)
    i2 = sbfx(m, in_val, 16, 8)
    b1 = mla(m, k1, i1, b1)
    i3 = add(m, input_offset, in_val >> 24)
    k2 = sbfx(m, ker_val, 16, 8)
    k3 = asr(m, ker_val, 24)
    b3 = mla(m, k3, i3, b3)
    ldr_sp(m)                                                 # input_x - in_w
    i2 = add(m, i2, input_offset)
    cmp(m, 0, 2)
    b2 = mla(m, k2, i2, b2)
    return b0, b1, b2, b3


@kernel(inline=True)
def _clamp_pack(m, b0, b1, b2, b3, output_offset, act_min, act_max):
    """out_buffN += output_offset; MIN(MAX(out_buffN, act_min), act_max); the four bytes
    packed with BFI (gcc merges the four byte stores into one word).  Returns the word."""
    if m.dsp:
        ldr_sp(m)                                             # output_offset
        ldr_sp(m)                                             # output_activation_min
        ldr_sp(m)                                             # output_activation_max
        b0 = add(m, b0, output_offset)
        b1 = add(m, b1, output_offset)
        cmp(m, b0, act_min)
        it(m, b0 >= act_min)
        if b0 < act_min:
            b0 = mov(m, act_min)
        cmp(m, b1, act_min)
        b2 = add(m, b2, output_offset)
        it(m, b1 >= act_min)
        if b1 < act_min:
            b1 = mov(m, act_min)
        cmp(m, b0, act_max)
        it(m, b0 < act_max)
        if b0 >= act_max:
            b0 = mov(m, act_max)
        cmp(m, b2, act_min)
        b3 = add(m, b3, output_offset)
        it(m, b2 >= act_min)
        if b2 < act_min:
            b2 = mov(m, act_min)
        cmp(m, b1, act_max)
        it(m, b1 < act_max)
        if b1 >= act_max:
            b1 = mov(m, act_max)
        word = mov(m, 0)
        cmp(m, b3, act_min)
        it(m, b3 >= act_min)
        if b3 < act_min:
            b3 = mov(m, act_min)
        word = bfi(m, word, b0, 0, 8)                         # output[out_idx++] = (int8_t)out_buff0;
        cmp(m, b2, act_max)
        it(m, b2 < act_max)
        if b2 >= act_max:
            b2 = mov(m, act_max)
        word = bfi(m, word, b1, 8, 8)
        cmp(m, b3, act_max)
        it(m, b3 < act_max)
        if b3 >= act_max:
            b3 = mov(m, act_max)
        word = bfi(m, word, b2, 16, 8)
        word = bfi(m, word, b3, 24, 8)
        return word
    ldr_sp(m)                                                 # output_offset
    ldr_sp(m)                                                 # output_activation_min
    b0 = add(m, b0, output_offset)
    b1 = add(m, b1, output_offset)
    cmp(m, b0, act_min)
    b2 = add(m, b2, output_offset)
    it(m, b0 >= act_min)
    if b0 < act_min:
        b0 = mov(m, act_min)
    cmp(m, b1, act_min)
    b3 = add(m, b3, output_offset)
    it(m, b1 >= act_min)
    if b1 < act_min:
        b1 = mov(m, act_min)
    cmp(m, b2, act_min)
    it(m, b2 >= act_min)
    if b2 < act_min:
        b2 = mov(m, act_min)
    cmp(m, b3, act_min)
    it(m, b3 >= act_min)
    if b3 < act_min:
        b3 = mov(m, act_min)
    ldr_sp(m)                                                 # output pointer (advanced by 4)
    cmp(m, b0, act_max)
    add(m, 0, 4)
    str_sp(m)
    ldr_sp(m)                                                 # kernel pointer (advanced by 4)
    it(m, b0 < act_max)
    if b0 >= act_max:
        b0 = mov(m, act_max)
    add(m, 0, 4)
    cmp(m, b1, act_max)
    str_sp(m)
    word = mov(m, 0)
    it(m, b1 < act_max)
    if b1 >= act_max:
        b1 = mov(m, act_max)
    cmp(m, b2, act_max)
    it(m, b2 < act_max)
    if b2 >= act_max:
        b2 = mov(m, act_max)
    cmp(m, b3, act_max)
    it(m, b3 < act_max)
    if b3 >= act_max:
        b3 = mov(m, act_max)
    word = bfi(m, word, b0, 0, 8)
    word = bfi(m, word, b1, 8, 8)
    word = bfi(m, word, b2, 16, 8)
    word = bfi(m, word, b3, 24, 8)
    return word


@kernel(inline=True)
def _clamp_one(m, acc, output_offset, act_min, act_max):
    """out_buff += output_offset; MIN(MAX(out_buff, act_min), act_max) of the leftover."""
    ldr_sp(m)                                                 # output_offset
    if not m.dsp:
        add(m, 0, 1)                                          # ++in_ch (scheduled here)
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


@kernel
def arm_depthwise_conv_3x3_s8(m, ctx, dw_conv_params, quant_params, input_dims, input,
                              filter_dims, kernel, bias_dims, bias, output_dims, output):
    input_x = input_dims.w
    input_y = input_dims.h
    input_ch = input_dims.c
    output_ch = output_dims.c
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
    # the struct fields into registers and stack slots, the checks' loads among them
    push(m, 9)                                                # push {r4-r11, lr}
    if m.dsp:
        mov(m, 0)
        sub(m, 0, 0)                                          # sub sp, #180
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                             # dw_conv_params->stride.w
        ldr_sp(m)                                             # output_dims (stacked)
        str_sp(m)
        ldrd_sp(m)                                            # input_dims->h, w
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        ldr_sp(m)                                             # input_dims->c
        ldr_sp(m)                                             # output_dims->c
        ldr_sp(m)                                             # output_dims->h
        str_sp(m)
        ldr_sp(m)                                             # output_dims->w
        ldr_sp(m)                                             # dw_conv_params->output_offset
        str_sp(m)
        ldr_sp(m)                                             # dw_conv_params->input_offset
        ldr_sp(m)                                             # dw_conv_params->stride.h
        str_sp(m)
        str_sp(m)
        ldrd_sp(m)                                            # dw_conv_params->padding.w, h
        ldr_sp(m)                                             # dw_conv_params->activation.min
        ldr_sp(m)                                             # dw_conv_params->activation.max
        str_sp(m)
        cmp(m, input_ch, output_ch)                           # if (input_ch != output_ch)
        ldrd_sp(m)                                            # input, filter_dims (stacked)
        str_sp(m)
        str_sp(m)
        str_sp(m)
    else:
        sub(m, 0, 0)                                          # sub sp, #180
        ldr_sp(m)                                             # output_dims (stacked)
        ldr_sp(m)                                             # filter_dims (stacked)
        ldrd_sp(m)                                            # output_dims->w, c
        ldr_sp(m)                                             # output_dims->h
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldrd_sp(m)                                            # input_dims->h, w
        ldr_sp(m)                                             # dw_conv_params->stride.w
        ldr_sp(m)                                             # input_dims->c
        str_sp(m)
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        cmp(m, input_ch, output_ch)                           # if (input_ch != output_ch)
        str_sp(m)
        ldr_sp(m)                                             # dw_conv_params->output_offset
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # dw_conv_params->activation.min
        ldr_sp(m)                                             # dw_conv_params->stride.h
        str_sp(m)
        ldr_sp(m)                                             # dw_conv_params->activation.max
        ldr_sp(m)                                             # dw_conv_params->input_offset
        str_sp(m)
        str_sp(m)
        ldrd_sp(m)                                            # dw_conv_params->padding.w, h
    bcc(m, input_ch != output_ch)
    bad = input_ch != output_ch
    if not bad:                                               # if (pad_x > 1 || filter_dims->w != 3 || filter_dims->h != 3)
        cmp(m, pad_x, 1)
        bcc(m, pad_x > 1)
        bad = pad_x > 1
    if not bad:
        ldr_sp(m)                                             # filter_dims->w
        cmp(m, filter_dims.w, 3)
        bcc(m, filter_dims.w != 3)
        bad = filter_dims.w != 3
    if not bad:
        ldr_sp(m)                                             # filter_dims->h
        cmp(m, filter_dims.h, 3)
        bcc(m, filter_dims.h != 3)
        bad = filter_dims.h != 3
    if bad:
        mov(m, -1)                                            # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)                                          # add sp, #180
        pop_pc(m, 9)
        return -1

    cmp(m, output_y, 0)                                       # out_h < output_y
    in_h = rsb(m, pad_y, 0)                                   # in_h = -pad_y
    bcc(m, output_y <= 0)
    if output_y > 0:
        # loop invariants, kept in stack slots
        row_stride = input_ch * input_x                       # input_ch * input_x
        ker_row = input_ch * 3                                # input_ch * 3
        if m.dsp:
            last4 = sub(m, input_ch, 4)                       # input_ch - 4
            bic(m, last4, 3)
            add(m, 0, 4)
            str_sp(m)
            bic(m, last4, 3)
            add(m, 0, 8)
            str_sp(m)
            row_stride = mul(m, input_x, input_ch)
            str_sp(m)
            lsl(m, input_ch, 1)                               # input_ch << 1
            str_sp(m)
            ker_row = add(m, input_ch, input_ch << 1)         # input_ch * 3
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            mls(m, pad_x, input_ch, input)                    # input + in_w * input_ch, in_w = -pad_x
            mov(m, 0)
            rsb(m, pad_x, 0)
            mul(m, stride_x, input_ch)                        # stride_x * input_ch
            str_sp(m)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            lhs_offset_s16x2 = pkhbt(m, input_offset, input_offset, 16)  # PKHBT(input_offset, input_offset, 16) (hoisted)
            mov(m, 0)
            strd_sp(m)
            str_sp(m)
            str_sp(m)
            for _ in range(4):
                mov(m, 0)
        else:
            lhs_offset_s16x2 = 0
            mov(m, 0)
            str_sp(m)
            row_stride = mul(m, input_x, input_ch)
            str_sp(m)
            ldr_sp(m)
            rsb(m, pad_x, 0)
            mul(m, stride_x, input_ch)                        # stride_x * input_ch
            str_sp(m)
            mul(m, input_ch, -pad_x)                          # in_w * input_ch, in_w = -pad_x
            last4 = sub(m, input_ch, 4)                       # input_ch - 4
            str_sp(m)
            lsr(m, last4, 2)
            bic(m, last4, 3)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            add(m, 0, 16)
            add(m, 0, 0)                                      # output_mult + 16 * blocks
            str_sp(m)
            add(m, 0, 1)
            lsl(m, 0, 2)
            str_sp(m)
            lsl(m, input_ch, 1)                               # input_ch << 1
            str_sp(m)
            ker_row = add(m, input_ch, input_ch << 1)         # input_ch * 3
            str_sp(m)
            for _ in range(4):
                mov(m, 0)
            str_sp(m)
            str_sp(m)
            str_sp(m)
    out_idx = 0
    out_h = 0
    while out_h < output_y:
        # for (in_w = -pad_x, out_w = 0, ker_h_start = MAX(0, -in_h); ...)
        ldr_sp(m)                                             # -in_h
        cmp(m, in_h, 0)
        if m.dsp:
            it(m, in_h <= 0)
            ker_h_start = 0
            if in_h > 0:
                mov(m, 0)
            else:
                ker_h_start = -in_h
            mov(m, ker_h_start)
            str_sp(m)
        else:
            it(m, 1)                                          # ITE LE: one of the two MOVs fails
            ker_h_start = mov(m, 0 if in_h > 0 else -in_h)
        ldr_sp(m)                                             # output_x
        if not m.dsp:
            str_sp(m)
        cmp(m, output_x, 0)
        bcc(m, output_x <= 0)
        if output_x > 0:
            # the row's invariants: input + (in_h + ker_h_start) * (input_ch * input_x) - pad_x * input_ch,
            # kernel + ker_h_start * (input_ch * 3)
            if m.dsp:
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                ker_off = mul(m, ker_row, ker_h_start)
                rows = add(m, in_h, ker_h_start)
                in_row = mla(m, row_stride, rows, input - pad_x * input_ch)
                str_sp(m)
                ldr_sp(m)                                     # kernel
                str_sp(m)
                sub(m, kernel, 4)
                add(m, 0, ker_off)
                str_sp(m)
                ldr_sp(m)                                     # input_x
                mov(m, 0)
                add(m, input_x, pad_x)                        # input_x - in_w
                strd_sp(m)
                strd_sp(m)
                strd_sp(m)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)
                mov(m, 0)
            else:
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                mov(m, 0)
                str_sp(m)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                ker_off = mul(m, ker_row, ker_h_start)
                rows = add(m, in_h, ker_h_start)
                in_row = mla(m, row_stride, rows, -pad_x * input_ch) + input
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)                                     # input_x
                strd_sp(m)
                add(m, input_x, pad_x)                        # input_x - in_w
                str_sp(m)
                ldr_sp(m)                                     # kernel
                strd_sp(m)
                add(m, kernel, ker_off)
                str_sp(m)
                str_sp(m)
                str_sp(m)
        in_w = -pad_x
        out_w = 0
        while out_w < output_x:
            ker_w_start = 0 if in_w > 0 else -in_w            # ker_w_start = MAX(0, -in_w)
            ldr_sp(m)                                         # in_w
            cmp(m, in_w, 0)
            ldr_sp(m)                                         # -in_w
            it(m, in_w <= 0)
            if in_w > 0:
                mov(m, 0)
            str_sp(m)
            ldr_sp(m)                                         # input_ch
            cmp(m, input_ch, 3)                               # in_ch <= (input_ch - 4) before the first block
            bcc(m, input_ch <= 3)
            ker_h_end = input_y - in_h                        # MIN(3, input_y - in_h)
            base = in_row + in_w * input_ch + pad_x * input_ch  # input + (in_h + ker_h_start) * (input_ch * input_x) + in_w * input_ch
            kbase = kernel + ker_off                          # kernel + ker_h_start * (input_ch * 3)
            right = input_x - in_w                            # (input_x - in_w) >= 3
            in_ch = 0
            if input_ch > 3:
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)                                 # bias
                    str_sp(m)
                    add(m, input_y, -in_h)
                    cmp(m, ker_h_end, 3)
                    it(m, ker_h_end < 3)
                    if ker_h_end >= 3:
                        ker_h_end = mov(m, 3)
                    str_sp(m)
                    ldr_sp(m)
                    sub(m, 0, 4)
                    str_sp(m)
                    ldr_sp(m)                                 # output
                    ldrd_sp(m)                                # output_shift, output_mult
                    mov(m, 4)
                    add(m, output, out_idx)
                    str_sp(m)
                    for _ in range(4):
                        mov(m, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, input_y, -in_h)
                    cmp(m, ker_h_end, 3)
                    it(m, ker_h_end < 3)
                    if ker_h_end >= 3:
                        ker_h_end = mov(m, 3)
                    str_sp(m)
                    ldr_sp(m)                                 # output
                    strd_sp(m)
                    add(m, output, out_idx)
                    str_sp(m)
                    ldr_sp(m)                                 # input
                    ldr_sp(m)
                    add(m, input, 0)
                    ldr_sp(m)                                 # kernel
                    str_sp(m)
                    add(m, kernel, 0)
                    ldr_sp(m)                                 # output_mult
                    ldr_sp(m)                                 # bias
                    ldr_sp(m)                                 # output_activation_max
                    str_sp(m)
            elif m.dsp:
                ldr_sp(m)                                     # bias
                mov(m, 0)
                b(m)
            else:
                mov(m, 0)
                ldr_sp(m)                                     # bias
                b(m)
            while in_ch <= input_ch - 4:
                cmp(m, bias, 0)                               # if (bias)
                bcc(m, bias == 0)
                if bias != 0:
                    b0, b1 = ldrd(m, bias + 4 * in_ch)        # out_buff0 = *bias++; out_buff1 = *bias++;
                    b2, b3 = ldrd(m, bias + 4 * in_ch + 8)    # out_buff2 = *bias++; out_buff3 = *bias++;
                    add(m, 0, 16)
                else:
                    b3 = mov(m, 0)
                    b2 = mov(m, 0)
                    b1 = mov(m, 0)
                    b0 = mov(m, 0)
                    b(m)
                # input_ptr = base + in_ch; kernel_ptr = kbase + in_ch
                input_ptr = base + in_ch
                kernel_ptr = kbase + in_ch
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)                                 # MIN(3, input_y - in_h)
                    add(m, 0, 0)
                    ldr_sp(m)
                    add(m, 0, 0)
                    ldr_sp(m)                                 # ker_h_start
                else:
                    ldr_sp(m)                                 # ker_h_start
                    ldr_sp(m)                                 # MIN(3, input_y - in_h)
                    ldrd_sp(m)                                # input_ptr, kernel_ptr
                ker_h = ker_h_start
                cmp(m, ker_h, ker_h_end)                      # ker_h < MIN(3, input_y - in_h)
                bcc(m, ker_h >= ker_h_end)
                if ker_h < ker_h_end:
                    if m.dsp:
                        strd_sp(m)
                        strd_sp(m)
                        ldr_sp(m)                             # input_ch
                        mov(m, 0)
                    else:
                        mov(m, 0)
                        strd_sp(m)
                        strd_sp(m)
                    while ker_h < ker_h_end:
                        ldr_sp(m)                             # ker_w_start
                        if not m.dsp:
                            ker_h = add(m, ker_h, 1)          # ++ker_h (scheduled here)
                        cbnz(m, ker_w_start != 0)             # if (ker_w_start == 0)
                        if m.dsp:
                            if ker_w_start == 0:
                                b0, b1, b2, b3 = _tap_dsp(m, input_ptr, kernel_ptr, lhs_offset_s16x2,
                                                          b0, b1, b2, b3)
                            b0, b1, b2, b3 = _tap_dsp_middle(m, input_ptr + input_ch,
                                                             kernel_ptr + input_ch, lhs_offset_s16x2,
                                                             b0, b1, b2, b3)
                        else:
                            if ker_w_start == 0:
                                b0, b1, b2, b3 = _tap_c(m, input_ptr, kernel_ptr, input_offset,
                                                        b0, b1, b2, b3)
                            b0, b1, b2, b3 = _tap_c_middle(m, input_ptr + input_ch,
                                                           kernel_ptr + input_ch, input_offset,
                                                           b0, b1, b2, b3)
                        bcc(m, right <= 2)                    # if ((input_x - in_w) >= 3)
                        if right > 2:
                            ldr_sp(m)                         # input_ch << 1
                            if m.dsp:
                                b0, b1, b2, b3 = _tap_dsp(m, input_ptr + 2 * input_ch,
                                                          kernel_ptr + 2 * input_ch,
                                                          lhs_offset_s16x2, b0, b1, b2, b3)
                            else:
                                b0, b1, b2, b3 = _tap_c(m, input_ptr + 2 * input_ch,
                                                        kernel_ptr + 2 * input_ch, input_offset,
                                                        b0, b1, b2, b3)
                        ldr_sp(m)                             # input_ch * input_x
                        input_ptr = add(m, input_ptr, row_stride)  # input_ptr += (input_ch * input_x);
                        ldr_sp(m)                             # input_ch * 3
                        kernel_ptr = add(m, kernel_ptr, ker_row)   # kernel_ptr += (input_ch * 3);
                        ldr_sp(m)                             # MIN(3, input_y - in_h)
                        if m.dsp:
                            ker_h = add(m, ker_h, 1)          # ++ker_h
                        cmp(m, ker_h, ker_h_end)
                        bcc(m, ker_h != ker_h_end)
                    if m.dsp:
                        ldrd_sp(m)
                        ldrd_sp(m)
                    else:
                        ldrd_sp(m)
                        ldrd_sp(m)
                mult_ptr = output_mult + 4 * in_ch
                shift_ptr = output_shift + 4 * in_ch
                b0 = _requantize_block(m, b0, mult_ptr, shift_ptr)
                b1 = _requantize_block(m, b1, mult_ptr + 4, shift_ptr + 4)
                b2 = _requantize_block(m, b2, mult_ptr + 8, shift_ptr + 8)
                b3 = _requantize_block(m, b3, mult_ptr + 12, shift_ptr + 12)
                word = _clamp_pack(m, b0, b1, b2, b3, output_offset, act_min, act_max)
                if m.dsp:
                    ldr_sp(m)                                 # output + out_idx
                    add(m, 0, 0)
                    add(m, 0, 4)
                    str_(m, output + out_idx, word)           # output[out_idx++] x 4
                    ldr_sp(m)                                 # the blocks' end
                    in_ch += 4                                # in_ch += 4
                    cmp(m, in_ch, input_ch - 4)
                    add(m, 0, 16)                             # output_mult += 4
                    add(m, 0, 16)                             # output_shift += 4
                    bcc(m, in_ch <= input_ch - 4)
                else:
                    ldr_sp(m)                                 # output + out_idx
                    add(m, 0, 16)
                    str_(m, output + out_idx, word)
                    ldr_sp(m)                                 # the blocks' end
                    add(m, 0, 16)
                    in_ch += 4
                    cmp(m, in_ch, input_ch - 4)
                    str_sp(m)
                    bcc(m, in_ch <= input_ch - 4)
                out_idx += 4
            if input_ch > 3:
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    mov(m, 0)
                    ldr_sp(m)
                    add(m, 0, 4)
                    add(m, 0, 0)
                else:
                    ldrd_sp(m)
                    ldr_sp(m)
                    add(m, 0, 4)
                    ldr_sp(m)
                    add(m, 0, 0)
            # Leftover: for (; in_ch < input_ch; ++in_ch)
            ldr_sp(m)                                         # input_ch
            cmp(m, input_ch, in_ch)
            bcc(m, input_ch <= in_ch)
            if input_ch > in_ch:
                ker_h_end = input_y - in_h                    # MIN(3, input_y - in_h)
                if ker_h_end > 3:
                    ker_h_end = 3
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    str_sp(m)
                    add(m, input_y, -in_h)
                    ldr_sp(m)                                 # output
                    str_sp(m)
                    add(m, output, out_idx)
                    ldr_sp(m)                                 # output_mult
                    str_sp(m)
                    add(m, output_mult, in_ch << 2)
                    ldr_sp(m)                                 # output_shift
                    ldr_sp(m)                                 # ker_w_start
                    add(m, output_shift, in_ch << 2)
                    ldr_sp(m)                                 # kernel
                    str_sp(m)
                    add(m, kernel, ker_off)
                    mov(m, 0)
                    cmp(m, input_y - in_h, 3)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    ldr_sp(m)                                 # input_offset
                    str_sp(m)
                    mov(m, 0)
                    ldr_sp(m)                                 # input_ch << 1
                    it(m, input_y - in_h < 3)
                    if input_y - in_h >= 3:
                        mov(m, 3)
                    mov(m, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    strd_sp(m)
                    add(m, input_y, -in_h)
                    ldr_sp(m)                                 # output
                    cmp(m, input_y - in_h, 3)
                    add(m, output, out_idx)
                    ldr_sp(m)                                 # output_mult
                    it(m, input_y - in_h < 3)
                    if input_y - in_h >= 3:
                        mov(m, 3)
                    add(m, output_mult, in_ch << 2)
                    ldr_sp(m)                                 # output_shift
                    str_sp(m)
                    add(m, output_shift, in_ch << 2)
                    ldr_sp(m)                                 # input
                    str_sp(m)
                    add(m, input, 0)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    ldr_sp(m)                                 # input_ch << 1
                    ldr_sp(m)                                 # input_ch * 3
                    ldr_sp(m)                                 # input_ch * input_x
                    str_sp(m)
                while in_ch < input_ch:
                    cmp(m, bias, 0)                           # if (bias)
                    bcc(m, bias == 0)
                    if bias != 0:
                        out_buff = ldr(m, bias + 4 * in_ch)   # out_buff = *bias++;
                    else:
                        out_buff = mov(m, 0)
                        b(m)
                    ldr_sp(m)                                 # ker_h_start
                    cmp(m, ker_h_start, ker_h_end)
                    bcc(m, ker_h_start >= ker_h_end)
                    if ker_h_start < ker_h_end:
                        input_ptr = base + in_ch
                        kernel_ptr = kbase + in_ch
                        if m.dsp:
                            ldr_sp(m)
                            str_sp(m)
                            add(m, 0, in_ch)
                            ldr_sp(m)
                            add(m, 0, in_ch)
                        else:
                            mov(m, 0)
                            ldr_sp(m)
                            str_sp(m)
                            add(m, 0, in_ch)
                            ldr_sp(m)
                            add(m, 0, in_ch)
                        ker_h = ker_h_start
                        while ker_h < ker_h_end:
                            if m.dsp:
                                ker_h = add(m, ker_h, 1)      # ++ker_h
                                cbnz(m, ker_w_start != 0)     # if (ker_w_start == 0)
                            else:
                                ldr_sp(m)                     # ker_w_start
                                ker_h = add(m, ker_h, 1)
                                cbnz(m, ker_w_start != 0)
                            if ker_w_start == 0:              # out_buff += (*(input_ptr) + input_offset) * *(kernel_ptr);
                                v = ldrsb(m, input_ptr)
                                k = ldrsb(m, kernel_ptr)
                                out_buff = mla(m, k, add(m, v, input_offset), out_buff)
                            v = ldrsb(m, input_ptr + input_ch)  # *(input_ptr + input_ch) + input_offset
                            k = ldrsb(m, kernel_ptr + input_ch)
                            out_buff = mla(m, k, add(m, v, input_offset), out_buff)
                            ldr_sp(m)                         # input_x - in_w
                            cmp(m, right, 2)                  # if ((input_x - in_w) >= 3)
                            bcc(m, right <= 2)
                            if right > 2:
                                v = ldrsb(m, input_ptr + 2 * input_ch)
                                k = ldrsb(m, kernel_ptr + 2 * input_ch)
                                out_buff = mla(m, k, add(m, v, input_offset), out_buff)
                            if m.dsp:
                                ldr_sp(m)                     # input_ch * input_x
                                input_ptr = add(m, input_ptr, row_stride)
                                ldr_sp(m)                     # input_ch * 3
                                cmp(m, ker_h, ker_h_end)
                                kernel_ptr = add(m, kernel_ptr, ker_row)
                            else:
                                cmp(m, ker_h, ker_h_end)
                                input_ptr = add(m, input_ptr, row_stride)
                                kernel_ptr = add(m, kernel_ptr, ker_row)
                            bcc(m, ker_h != ker_h_end)
                        ldr_sp(m)
                    out_buff = _requantize_leftover(m, out_buff, output_mult + 4 * in_ch,
                                                    output_shift + 4 * in_ch)
                    out_buff = _clamp_one(m, out_buff, output_offset, act_min, act_max)
                    ldr_sp(m)                                 # output + out_idx
                    if m.dsp:
                        add(m, 0, 1)                          # ++in_ch
                        strb(m, output + out_idx, out_buff)   # output[out_idx++] = (int8_t)out_buff;
                        cmp(m, input_ch, in_ch + 1)
                        str_sp(m)
                    else:
                        cmp(m, input_ch, in_ch + 1)
                        strb(m, output + out_idx, out_buff)
                        str_sp(m)
                    in_ch += 1
                    out_idx += 1
                    bcc(m, in_ch != input_ch)
                if m.dsp:
                    ldrd_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    sub(m, 0, 0)
                else:
                    ldrd_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    sub(m, 0, 0)
            # in_w += stride_x, ++out_w; the row pointers advance with it
            if m.dsp:
                ldr_sp(m)                                     # stride_x
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                add(m, in_w, stride_x)                        # in_w += stride_x
                str_sp(m)
                ldr_sp(m)
                sub(m, -in_w, stride_x)
                str_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                sub(m, right, stride_x)
                str_sp(m)
                ldr_sp(m)                                     # output_x
                add(m, out_w, 1)                              # ++out_w
                cmp(m, output_x, out_w + 1)
                str_sp(m)
            else:
                ldr_sp(m)                                     # stride_x
                ldr_sp(m)
                ldr_sp(m)
                add(m, in_w, stride_x)
                str_sp(m)
                ldr_sp(m)
                add(m, out_w, 1)
                sub(m, -in_w, stride_x)
                str_sp(m)
                ldr_sp(m)
                str_sp(m)
                add(m, 0, 0)
                ldr_sp(m)
                sub(m, right, stride_x)
                str_sp(m)
                ldr_sp(m)                                     # output_x
                cmp(m, output_x, out_w + 1)
            in_w += stride_x
            out_w += 1
            bcc(m, out_w != output_x)
            if out_w == output_x:
                ldrd_sp(m)
                ldrd_sp(m)
                if not m.dsp:
                    mov(m, 0)
        # in_h += stride_y, ++out_h
        ldr_sp(m)                                             # -in_h
        if m.dsp:
            sub(m, -in_h, stride_y)
            str_sp(m)
            ldr_sp(m)                                         # output_y
            add(m, out_h, 1)
            cmp(m, output_y, out_h + 1)
            in_h = add(m, in_h, stride_y)
        else:
            add(m, out_h, 1)
            sub(m, -in_h, stride_y)
            str_sp(m)
            ldr_sp(m)                                         # output_y
            in_h = add(m, in_h, stride_y)
            cmp(m, output_y, out_h + 1)
        out_h += 1
        bcc(m, out_h != output_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #180
    pop_pc(m, 9)
    return 0
