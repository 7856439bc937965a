"""arm_depthwise_conv_s8 (Source/ConvolutionFunctions/arm_depthwise_conv_s8.c).

The generic depthwise convolution: any channel multiplier, batches, dilation.  The file's
two static helpers: gcc inlines `depthwise_conv_s8_generic` (one output channel at a time)
into the entry point, and keeps `depthwise_conv_s8_mult_4` (ch_mult % 4 == 0, batch 1, no
dilation: four output channels per tile) as a function of its own, called with its 23
arguments (19 of them on the stack).  Neither has an ARM_MATH_DSP variant: the Cortex-M4
and M3 builds run the same C, scheduled differently (`m.dsp` picks the build).

Arguments are the C function's: `arm_nn_types` structs, pointers as simulated addresses
(bias 0 = NULL).  The entry point returns (ARM_CMSIS_NN_SUCCESS, GENERIC) or, when it
calls depthwise_conv_s8_mult_4, (ARM_CMSIS_NN_SUCCESS, MULT_4) at the call:
`call_depthwise_conv_s8` (host side) then runs that function and the entry point's epilogue.

Every instruction, stack traffic included, is read off gcc 12.2 -O2's code of this file.
depthwise_conv_s8_generic's uint16_t arguments become UXTH/LDRH; its loop over the
filter window keeps the window's x and y extents in stack slots: for dilation 1 they are
computed once per output pixel, for dilation > 1 (SDIV) once per output channel.
arm_nn_requantize is inlined at each output (the rounding skipped for a positive shift).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (REQUANTIZE, add, and_, asr, b, bcc, bfi, bic, bl, cmp,
                            enter_region, it, ldr, ldr_sp, ldrd, ldrd_sp, ldrh_sp, ldrsb,
                            ldrsh_sp, leave_region, lsl, lsr, mla, mov, mul, mvn, orr,
                            pop_pc, push, rsb, sdiv, smlal, str_, str_sp, strb, strd_sp, sub,
                            sxth, uxth)
from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

#: the second value returned: which static helper ran
GENERIC = 0
MULT_4 = 1


@kernel(inline=True)
def _round(m, result, shift, scalar_order):
    """The rounding of arm_nn_divide_by_power_of_two(result, -shift), shift <= 0."""
    if scalar_order:
        one = mov(m, 1)
        exponent = rsb(m, shift, 0)
    else:
        exponent = rsb(m, shift, 0)
        one = mov(m, 1)
    mask = sub(m, lsl(m, one, exponent), 1)                   # remainder_mask
    remainder = and_(m, result, mask)
    result = asr(m, result, exponent)
    threshold = asr(m, mask, 1)
    it(m, result >= 0)                                        # if (result < 0) threshold++;
    if result < 0:
        threshold = add(m, threshold, 1)
    cmp(m, remainder, threshold)                              # if (remainder > threshold) result++;
    it(m, remainder <= threshold)
    if remainder > threshold:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _requantize_tile(outer, acc, mult_ptr, shift_ptr, order):
    """arm_nn_requantize(out_buff[i], *output_mult++, *output_shift++) of
    depthwise_conv_s8_mult_4; `order` 0-3 picks where gcc put the accumulator halves'
    MOVs for channel i of the tile."""
    m = outer
    if m.dsp:
        ldr_sp(m)                                             # output_shift
        shift = ldr(m, shift_ptr)
        mult = ldr(m, mult_ptr)
    else:
        ldr_sp(m)
        if order == 2:
            mov(m, 1 << 30)                                   # mult.word.low = 1 << 30
        else:
            mov(m, 0)                                         # mult.word.high = 0
        shift = ldr(m, shift_ptr)
        mult = ldr(m, mult_ptr)
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                                     # CMSIS_NN_USE_SINGLE_ROUNDING: estimated
        acc = arm_nn_requantize(m, acc, mult, shift)
        leave_region(outer, m)
        return acc
    x = lsl(m, acc, bic(m, shift, shift >> 31))               # val * (1 << left_shift)
    if m.dsp:
        if order == 2:
            mov(m, 1 << 30)
            mov(m, 0)
        else:
            mov(m, 0)
            mov(m, 1 << 30)
    elif order == 2:
        mov(m, 0)
    else:
        mov(m, 1 << 30)
    lo, hi = smlal(m, 1 << 30, 0, x, mult)
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
def _max(m, x, lo):
    """MAX(x, act_min): CMP, IT LT, MOVLT (the CMP is the caller's)."""
    it(m, x >= lo)
    if x < lo:
        x = mov(m, lo)
    return x


@kernel(inline=True)
def _min(m, x, hi):
    """MIN(x, act_max): IT GE, MOVGE (the CMP is the caller's)."""
    it(m, x < hi)
    if x >= hi:
        x = mov(m, hi)
    return x


@kernel
def depthwise_conv_s8_mult_4(m, input, input_x, input_y, input_ch, kernel, output_ch, ch_mult,
                             kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y, bias,
                             output, output_shift, output_mult, output_x, output_y,
                             output_offset, input_offset, act_min, act_max):
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #148
    if m.dsp:
        strd_sp(m)
        ldr_sp(m)                                             # output_y
        ldr_sp(m)                                             # pad_y
        ldr_sp(m)                                             # output_ch
        cmp(m, output_y, 0)
    else:
        mov(m, 0)
        ldr_sp(m)                                             # output_y
        strd_sp(m)
        cmp(m, output_y, 0)
        ldr_sp(m)                                             # pad_y
        ldr_sp(m)                                             # output_ch
        ldr_sp(m)                                             # input_offset
    bcc(m, output_y <= 0)
    if output_y > 0:
        # loop invariants: output_ch * kernel_x, input_ch * input_x, stride_y * input_ch,
        # the tiles' bias / output steps
        if m.dsp:
            mov(m, 0)
            ldr_sp(m)
            rsb(m, pad_x, 0)
            ldr_sp(m)
            mov(m, 0)
            mov(m, 0)
            mul(m, output_ch, kernel_x)
            ldr_sp(m)
            str_sp(m)
            mul(m, input_ch, input_x)
            sub(m, ch_mult, 1)
            str_sp(m)
            ldr_sp(m)
            lsr(m, ch_mult - 1, 2)
            mul(m, stride_y, input_ch)
            add(m, 0, 1)
            mul(m, input_ch, -pad_x)
            str_sp(m)
            mov(m, 0)
            lsl(m, 0, 4)
            mov(m, 0)
            lsl(m, 0, 2)
            ldr_sp(m)
            str_sp(m)
            rsb(m, pad_y, 0)
            mov(m, 0)
            str_sp(m)
        else:
            mov(m, 0)
            str_sp(m)
            ldr_sp(m)
            mov(m, 0)
            rsb(m, pad_x, 0)
            mul(m, input_ch, -pad_x)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            ldr_sp(m)
            ldr_sp(m)
            mul(m, output_ch, kernel_x)
            str_sp(m)
            mul(m, input_ch, input_x)
            str_sp(m)
            ldr_sp(m)
            sub(m, ch_mult, 1)
            mul(m, stride_y, input_ch)
            lsr(m, ch_mult - 1, 2)
            add(m, 0, 1)
            str_sp(m)
            lsl(m, 0, 4)
            lsl(m, 0, 2)
            rsb(m, pad_y, 0)
            str_sp(m)
            str_sp(m)
    tiles = ((ch_mult - 1) >> 2) + 1                          # the mult_tile loop's iterations
    in_h = -pad_y
    out_h = 0
    while out_h < output_y:
        ker_h_start = -in_h if in_h < 0 else 0                # MAX(0, -in_h)
        if m.dsp:
            ldr_sp(m)                                         # output_x
            cmp(m, -in_h, 0)
            it(m, 1)                                          # ITE LE: one MOV fails
            mov(m, ker_h_start)
            cmp(m, output_x, 0)
            str_sp(m)
        else:
            cmp(m, -in_h, 0)
            it(m, 1)
            mov(m, ker_h_start)
            ldr_sp(m)                                         # output_x
            str_sp(m)
            cmp(m, output_x, 0)
        bcc(m, output_x <= 0)
        ker_h_end = input_y - in_h                            # MIN(kernel_y, input_y - in_h)
        if ker_h_end > kernel_y:
            ker_h_end = kernel_y
        if output_x > 0:
            if m.dsp:
                ldr_sp(m)
                str_sp(m)
                add(m, in_h, ker_h_start)
                mul(m, input_ch * input_x, in_h + ker_h_start)
                ldr_sp(m)                                     # kernel_y
                str_sp(m)
                add(m, input_y, -in_h)
                cmp(m, input_y - in_h, kernel_y)
                it(m, input_y - in_h < kernel_y)
                if input_y - in_h >= kernel_y:
                    mov(m, kernel_y)
                str_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                mul(m, ker_h_start, output_ch * kernel_x)
                str_sp(m)
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)
                str_sp(m)
                strd_sp(m)
                str_sp(m)
                mov(m, 0)
                mov(m, 0)
                str_sp(m)
                str_sp(m)
                mov(m, 0)
            else:
                ldr_sp(m)                                     # kernel_y
                add(m, input_y, -in_h)
                cmp(m, input_y - in_h, kernel_y)
                it(m, input_y - in_h < kernel_y)
                if input_y - in_h >= kernel_y:
                    mov(m, kernel_y)
                str_sp(m)
                mov(m, 0)
                ldr_sp(m)
                str_sp(m)
                add(m, in_h, ker_h_start)
                mul(m, input_ch * input_x, in_h + ker_h_start)
                ldr_sp(m)
                mov(m, 0)
                mul(m, ker_h_start, output_ch * kernel_x)
                mov(m, 0)
                str_sp(m)
                mov(m, 0)
                str_sp(m)
                strd_sp(m)
                strd_sp(m)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                str_sp(m)
        in_w = -pad_x
        out_w = 0
        while out_w < output_x:
            ker_w_start = -in_w if in_w < 0 else 0            # ker_w_start = MAX(0, -in_w)
            ldr_sp(m)                                         # -in_w
            cmp(m, -in_w, 0)
            it(m, 1)                                          # ITE LE
            mov(m, ker_w_start)
            cmp(m, output_ch, 0)                              # out_ch < output_ch
            str_sp(m)
            bcc(m, output_ch <= 0)
            ker_w_end = input_x - in_w                        # MIN(kernel_x, input_x - in_w)
            if ker_w_end > kernel_x:
                ker_w_end = kernel_x
            if output_ch > 0:
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)                                 # kernel_x
                    ldr_sp(m)
                    str_sp(m)
                    add(m, input_x, -in_w)
                    cmp(m, kernel_x, input_x - in_w)
                    it(m, kernel_x < input_x - in_w)
                    if kernel_x >= input_x - in_w:
                        mov(m, input_x - in_w)
                    ldr_sp(m)
                    add(m, 0, 0)
                    str_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)                                 # bias
                    str_sp(m)
                    mla(m, ker_w_start, output_ch, 0)
                    str_sp(m)
                    ldr_sp(m)                                 # input
                    mla(m, ker_w_start, input_ch, input)
                    str_sp(m)
                    strd_sp(m)
                    ldr_sp(m)                                 # output_mult
                    str_sp(m)
                    ldr_sp(m)                                 # output_shift
                    str_sp(m)
                    mov(m, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)                                 # kernel_x
                    add(m, input_x, -in_w)
                    cmp(m, kernel_x, input_x - in_w)
                    it(m, kernel_x < input_x - in_w)
                    if kernel_x >= input_x - in_w:
                        mov(m, input_x - in_w)
                    ldr_sp(m)                                 # bias
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    ldr_sp(m)                                 # input
                    str_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)                                 # output_mult
                    mla(m, ker_w_start, output_ch, 0)
                    mla(m, ker_w_start, input_ch, input)
                    str_sp(m)
                    strd_sp(m)
                    ldr_sp(m)                                 # output_shift
                    str_sp(m)
                    add(m, 0, 0)
                    str_sp(m)
                    str_sp(m)
            tile = 0                                          # bias / output_mult / output_shift: 4 per tile
            in_ch = 0
            out_ch = 0
            while out_ch < output_ch:
                ldr_sp(m)                                     # ch_mult
                cmp(m, ch_mult, 0)                            # mult_tile < ch_mult
                bcc(m, ch_mult <= 0)
                if ch_mult > 0:
                    if m.dsp:
                        ldr_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        add(m, 0, 16)
                        ldr_sp(m)
                        add(m, 0, 16)
                        str_sp(m)
                        mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        strd_sp(m)
                        add(m, 0, 0)
                        mov(m, 0)
                        ldr_sp(m)
                        str_sp(m)
                    else:
                        mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        add(m, 0, 16)
                        ldr_sp(m)
                        strd_sp(m)
                        add(m, 0, 16)
                        str_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                        ldr_sp(m)
                        str_sp(m)
                mult_tile = 0
                while mult_tile < ch_mult:
                    ldr_sp(m)                                 # bias
                    cmp(m, bias, 0)                           # if (bias)
                    bcc(m, bias == 0)
                    if bias != 0:
                        b0, b1 = ldrd(m, bias + 16 * tile)    # out_buff[0] = *bias++; out_buff[1] = *bias++;
                        b2, b3 = ldrd(m, bias + 16 * tile + 8)  # out_buff[2] = *bias++; out_buff[3] = *bias++;
                        add(m, 0, 16)
                        str_sp(m)
                    else:
                        ldr_sp(m)                             # the NULL bias pointer: 0
                        b3 = mov(m, 0)
                        b2 = mov(m, 0)
                        b1 = mov(m, 0)
                        b0 = 0
                        b(m)
                    ldr_sp(m)                                 # ker_h_start
                    ldr_sp(m)                                 # MIN(kernel_y, input_y - in_h)
                    cmp(m, ker_h_start, ker_h_end)
                    bcc(m, ker_h_start >= ker_h_end)
                    if ker_h_start < ker_h_end:
                        if m.dsp:
                            ldr_sp(m)
                            ldr_sp(m)
                            str_sp(m)
                            add(m, 0, 0)
                            ldr_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                        else:
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            add(m, 0, 0)
                            str_sp(m)
                        ker_h = ker_h_start
                        while ker_h < ker_h_end:
                            # kernel = kernel_base + mult_tile + ker_idx; in_idx
                            kptr = kernel + mult_tile + ker_h * (output_ch * kernel_x) \
                                + ker_w_start * output_ch + out_ch
                            in_idx = (in_h + ker_h) * (input_ch * input_x) + in_w * input_ch + in_ch
                            if m.dsp:
                                ldr_sp(m)                     # ker_w_start
                                cmp(m, ker_w_start, ker_w_end)
                                mov(m, 0)
                            else:
                                ldr_sp(m)
                                mov(m, 0)
                                cmp(m, ker_w_start, ker_w_end)
                            bcc(m, ker_w_start >= ker_w_end)
                            if ker_w_start < ker_w_end:
                                if m.dsp:
                                    ldr_sp(m)
                                    strd_sp(m)
                                    add(m, 0, 0)
                                else:
                                    mov(m, 0)
                                    strd_sp(m)
                                    ldr_sp(m)
                                    add(m, 0, 0)
                                ker_w = ker_w_start
                                while ker_w < ker_w_end:  # for (ker_w = ker_w_start; ker_w < MIN(...); ++ker_w, kernel += output_ch)
                                    v = ldrsb(m, input + in_idx + ker_w * input_ch)  # input[in_idx + ker_w * input_ch]
                                    k0 = ldrsb(m, kptr)
                                    in_val = add(m, v, input_offset)          # + input_offset
                                    b0 = mla(m, in_val, k0, b0)               # out_buff[0] += in_val * kernel[0];
                                    k1 = ldrsb(m, kptr + 1)
                                    if m.dsp:
                                        b1 = mla(m, in_val, k1, b1)           # out_buff[1] += in_val * kernel[1];
                                        k2 = ldrsb(m, kptr + 2)
                                        ker_w = add(m, ker_w, 1)
                                        b2 = mla(m, in_val, k2, b2)           # out_buff[2] += in_val * kernel[2];
                                        k3 = ldrsb(m, kptr + 3)
                                        cmp(m, ker_w, ker_w_end)
                                        add(m, 0, 0)
                                        b3 = mla(m, in_val, k3, b3)           # out_buff[3] += in_val * kernel[3];
                                        kptr = add(m, kptr, output_ch)
                                    else:
                                        ker_w = add(m, ker_w, 1)
                                        b1 = mla(m, in_val, k1, b1)
                                        k2 = ldrsb(m, kptr + 2)
                                        cmp(m, ker_w, ker_w_end)
                                        b2 = mla(m, in_val, k2, b2)
                                        k3 = ldrsb(m, kptr + 3)
                                        add(m, 0, 0)
                                        b3 = mla(m, in_val, k3, b3)
                                        kptr = add(m, kptr, output_ch)
                                    bcc(m, ker_w != ker_w_end)
                                ldrd_sp(m)
                            if m.dsp:
                                ldr_sp(m)
                                add(m, 0, 0)
                                ldr_sp(m)
                                add(m, 0, 0)
                                ldr_sp(m)
                                ker_h = add(m, ker_h, 1)
                            else:
                                ldr_sp(m)
                                ker_h = add(m, ker_h, 1)
                                add(m, 0, 0)
                                ldr_sp(m)
                                add(m, 0, 0)
                                ldr_sp(m)
                            cmp(m, ker_h, ker_h_end)
                            bcc(m, ker_h != ker_h_end)
                        ldr_sp(m)
                    qm = output_mult + 16 * tile              # *output_mult++
                    qs = output_shift + 16 * tile             # *output_shift++
                    b0 = _requantize_tile(m, b0, qm, qs, 0)
                    b1 = _requantize_tile(m, b1, qm + 4, qs + 4, 1)
                    b2 = _requantize_tile(m, b2, qm + 8, qs + 8, 2)
                    b3 = _requantize_tile(m, b3, qm + 12, qs + 12, 3)
                    # out_buff[i] += output_offset; MIN(MAX(out_buff[i], min), max)
                    if m.dsp:
                        ldr_sp(m)
                        ldr_sp(m)
                        b0 = add(m, b0, output_offset)
                        cmp(m, b0, act_min)
                        b0 = _max(m, b0, act_min)
                        ldr_sp(m)
                        b1 = add(m, b1, output_offset)
                        ldr_sp(m)
                        cmp(m, b0, act_max)
                        b0 = _min(m, b0, act_max)
                        ldr_sp(m)
                        cmp(m, b1, act_min)
                        b1 = _max(m, b1, act_min)
                        ldr_sp(m)
                        b2 = add(m, b2, output_offset)
                        ldr_sp(m)
                        cmp(m, b1, act_max)
                        b1 = _min(m, b1, act_max)
                        ldr_sp(m)
                        cmp(m, b2, act_min)
                        b2 = _max(m, b2, act_min)
                        ldr_sp(m)
                        b3 = add(m, b3, output_offset)
                        ldr_sp(m)
                        cmp(m, b2, act_max)
                        b2 = _min(m, b2, act_max)
                        ldr_sp(m)
                        cmp(m, b3, act_min)
                        b3 = _max(m, b3, act_min)
                        ldr_sp(m)
                        cmp(m, b3, act_max)
                        b3 = _min(m, b3, act_max)
                        ldr_sp(m)
                        add(m, 0, 16)
                        str_sp(m)
                        word = mov(m, 0)
                    else:
                        ldr_sp(m)
                        ldr_sp(m)
                        b0 = add(m, b0, output_offset)
                        cmp(m, b0, act_min)
                        b0 = _max(m, b0, act_min)
                        ldr_sp(m)
                        ldr_sp(m)
                        b1 = add(m, b1, output_offset)
                        ldr_sp(m)
                        add(m, 0, 16)
                        cmp(m, b1, act_min)
                        b1 = _max(m, b1, act_min)
                        ldr_sp(m)
                        b2 = add(m, b2, output_offset)
                        ldr_sp(m)
                        cmp(m, b2, act_min)
                        b2 = _max(m, b2, act_min)
                        ldr_sp(m)
                        b3 = add(m, b3, output_offset)
                        ldr_sp(m)
                        cmp(m, b3, act_min)
                        b3 = _max(m, b3, act_min)
                        ldr_sp(m)
                        cmp(m, b0, act_max)
                        add(m, 0, 16)
                        b0 = _min(m, b0, act_max)
                        str_sp(m)
                        cmp(m, b1, act_max)
                        word = mov(m, 0)
                        b1 = _min(m, b1, act_max)
                        cmp(m, b2, act_max)
                        b2 = _min(m, b2, act_max)
                        cmp(m, b3, act_max)
                        b3 = _min(m, b3, act_max)
                    word = bfi(m, word, b0, 0, 8)             # *output++ = (int8_t)out_buff[0]; (x 4, one word)
                    word = bfi(m, word, b1, 8, 8)
                    word = bfi(m, word, b2, 16, 8)
                    ldr_sp(m)                                 # output
                    word = bfi(m, word, b3, 24, 8)
                    ldr_sp(m)                                 # mult_tile
                    str_(m, output + mult_tile, word)
                    ldr_sp(m)                                 # ch_mult
                    mult_tile = add(m, mult_tile, 4)          # mult_tile += 4
                    cmp(m, ch_mult, mult_tile)
                    if m.dsp:
                        add(m, 0, 16)
                    str_sp(m)
                    tile += 1
                    bcc(m, ch_mult > mult_tile)
                if ch_mult > 0:                               # output advanced past the tiles
                    if m.dsp:
                        ldr_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        add(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        add(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        ldrd_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                        ldr_sp(m)
                        str_sp(m)
                    else:
                        ldrd_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        add(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        add(m, 0, 0)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        add(m, 0, 0)
                        str_sp(m)
                    output += 4 * tiles
                # ++in_ch, out_ch += ch_mult
                in_ch += 1
                out_ch += ch_mult
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    ldr_sp(m)
                    add(m, in_ch, 0)
                    str_sp(m)
                    ldr_sp(m)
                    cmp(m, output_ch, out_ch)
                    add(m, 0, 0)
                    str_sp(m)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    ldr_sp(m)
                    cmp(m, output_ch, out_ch)
                    add(m, in_ch, 0)
                    str_sp(m)
                    ldr_sp(m)
                    str_sp(m)
                    add(m, 0, 0)
                bcc(m, output_ch > out_ch)
            if output_ch > 0:
                if m.dsp:
                    ldrd_sp(m)
                    ldr_sp(m)
                else:
                    ldrd_sp(m)
            # in_w += stride_x, ++out_w
            if m.dsp:
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
                sub(m, 0, 0)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                out_w = add(m, out_w, 1)
                cmp(m, output_x, out_w)
            else:
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                str_sp(m)
                ldr_sp(m)
                out_w = add(m, out_w, 1)
                add(m, 0, 0)
                ldr_sp(m)
                str_sp(m)
                cmp(m, output_x, out_w)
                sub(m, 0, 0)
            in_w += stride_x
            bcc(m, out_w != output_x)
        if output_x > 0:
            if m.dsp:
                str_sp(m)
                ldrd_sp(m)
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                mov(m, 0)
                ldr_sp(m)
            else:
                ldrd_sp(m)
                ldrd_sp(m)
                mov(m, 0)
                str_sp(m)
                ldr_sp(m)
                mov(m, 0)
                ldr_sp(m)
        # in_h += stride_y, ++out_h
        if m.dsp:
            ldr_sp(m)
            out_h = add(m, out_h, 1)
            cmp(m, output_y, out_h)
            add(m, 0, 0)
            sub(m, 0, 0)
        else:
            ldr_sp(m)
            ldr_sp(m)
            add(m, 0, 0)
            sub(m, 0, 0)
            ldr_sp(m)
            out_h = add(m, out_h, 1)
            cmp(m, output_y, out_h)
            str_sp(m)
        in_h += stride_y
        bcc(m, out_h != output_y)
    add(m, 0, 0)                                              # add sp, #148
    pop_pc(m, 9)


@kernel
def _return_after_mult_4(m):
    """arm_depthwise_conv_s8 after its call of depthwise_conv_s8_mult_4."""
    b(m)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #292
    pop_pc(m, 9)


@kernel(inline=True)
def _requantize_generic(outer, acc, mult_ptr, shift_ptr):
    """acc_0 = arm_nn_requantize(acc_0, output_mult[idx_out_ch], output_shift[idx_out_ch])."""
    m = outer
    if m.dsp:
        ldr_sp(m)
        shift = ldr(m, shift_ptr)
        str_sp(m)
        ldr_sp(m)
    else:
        ldr_sp(m)
        mov(m, 1 << 30)
        shift = ldr(m, shift_ptr)
    m = enter_region(outer, REQUANTIZE)
    if m.single_rounding:                                     # CMSIS_NN_USE_SINGLE_ROUNDING: estimated
        if not m.dsp:
            mov(m, 0)
            str_sp(m)
            ldr_sp(m)
        mult = ldr(m, mult_ptr)
        if m.dsp:
            str_sp(m)
        acc = arm_nn_requantize(m, acc, mult, shift)
        leave_region(outer, m)
        return acc
    left = bic(m, shift, shift >> 31)                         # shift > 0 ? shift : 0
    if m.dsp:
        mult = ldr(m, mult_ptr)
        str_sp(m)
        x = lsl(m, acc, left)
        mov(m, 1 << 30)
        mov(m, 0)
        lo, hi = smlal(m, 1 << 30, 0, x, mult)
        lo = lsr(m, lo, 31)
        cmp(m, shift, 0)
    else:
        x = lsl(m, acc, left)
        mov(m, 0)
        str_sp(m)
        ldr_sp(m)
        cmp(m, shift, 0)
        mult = ldr(m, mult_ptr)
        lo, hi = smlal(m, 1 << 30, 0, x, mult)
        lo = lsr(m, lo, 31)
        str_sp(m)
    acc = orr(m, lo, hi << 1)
    bcc(m, shift > 0)
    if shift <= 0:
        acc = _round(m, acc, shift, not m.dsp)
    leave_region(outer, m)
    return acc


@kernel
def arm_depthwise_conv_s8(m, ctx, dw_conv_params, quant_params, input_dims, input,
                          filter_dims, kernel, bias_dims, bias, output_dims, output):
    ch_mult = dw_conv_params.ch_mult
    input_n = input_dims.n
    dilation_x = dw_conv_params.dilation.w & 0xFFFF           # const uint16_t dilation_x
    dilation_y = dw_conv_params.dilation.h & 0xFFFF
    push(m, 9)                                                # push {r4-r11, lr}
    mov(m, 0)
    mov(m, 0)
    ldrd_sp(m)                                                # dw_conv_params->dilation.w, h
    sub(m, 0, 0)                                              # sub sp, #292
    uxth(m, dilation_x, 0)
    mov(m, 0)
    ldr_sp(m)                                                 # dw_conv_params->ch_mult
    str_sp(m)
    uxth(m, dilation_y, 0)
    str_sp(m)
    lsl(m, ch_mult, 30)                                       # dw_conv_params->ch_mult % 4 == 0
    ldr_sp(m)                                                 # filter_dims (stacked)
    ldr_sp(m)                                                 # output_dims (stacked)
    ldr_sp(m)                                                 # input_dims->n
    bcc(m, (ch_mult & 3) != 0)
    fast = (ch_mult & 3) == 0
    if fast:
        cmp(m, input_n, 1)                                    # input_dims->n == 1
        bcc(m, input_n == 1)
        fast = input_n == 1
    if fast:
        cmp(m, dw_conv_params.dilation.w, 1)                  # dilation.w == 1
        bcc(m, dw_conv_params.dilation.w != 1)
        fast = dw_conv_params.dilation.w == 1
    if fast:
        cmp(m, dw_conv_params.dilation.h, 1)                  # dilation.h == 1
        bcc(m, dw_conv_params.dilation.h != 1)
        fast = dw_conv_params.dilation.h == 1
    if fast:
        # depthwise_conv_s8_mult_4(input, input_dims->w, ..., activation.max): 19 stacked
        if m.dsp:
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
            for _ in range(6):
                ldr_sp(m)
                str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            for _ in range(5):
                ldr_sp(m)
                str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            ldrd_sp(m)
            str_sp(m)
        else:
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            for _ in range(6):
                ldr_sp(m)
                str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            for _ in range(6):
                ldr_sp(m)
                str_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            str_sp(m)
            ldr_sp(m)
            ldrd_sp(m)
            str_sp(m)
        bl(m)                                                 # call_depthwise_conv_s8 runs it
        return 0, MULT_4

    # depthwise_conv_s8_generic(input, input_dims->n, ...): its uint16_t arguments
    input_batches = input_n & 0xFFFF
    input_x = input_dims.w & 0xFFFF
    input_y = input_dims.h & 0xFFFF
    input_ch = input_dims.c & 0xFFFF
    ch_mult = ch_mult & 0xFFFF
    kernel_x = filter_dims.w & 0xFFFF
    kernel_y = filter_dims.h & 0xFFFF
    pad_x = dw_conv_params.padding.w & 0xFFFF
    pad_y = dw_conv_params.padding.h & 0xFFFF
    stride_x = dw_conv_params.stride.w & 0xFFFF
    stride_y = dw_conv_params.stride.h & 0xFFFF
    output_x = output_dims.w & 0xFFFF
    output_y = output_dims.h & 0xFFFF
    output_shift = quant_params.shift
    output_mult = quant_params.multiplier
    output_offset = dw_conv_params.output_offset
    input_offset = dw_conv_params.input_offset
    act_min = dw_conv_params.activation.min
    act_max = dw_conv_params.activation.max
    if m.dsp:
        ldrh_sp(m)                                            # padding.h
        str_sp(m)
        ldrh_sp(m)                                            # stride.h
        str_sp(m)
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        str_sp(m)
        ldr_sp(m)                                             # output_offset
        ldr_sp(m)                                             # input_dims->c
        str_sp(m)
        ldrd_sp(m)                                            # input_dims->h, w
        ldr_sp(m)                                             # input_offset
        ldr_sp(m)                                             # filter_dims->w
        ldr_sp(m)                                             # filter_dims->h
        ldrh_sp(m)                                            # stride.w
        str_sp(m)
        str_sp(m)
        ldrh_sp(m)                                            # padding.w
        ldr_sp(m)                                             # activation.min
        ldr_sp(m)                                             # activation.max
        str_sp(m)
        uxth(m, input_batches, 0)
        ldrd_sp(m)                                            # output_dims->h, w
        str_sp(m)
        str_sp(m)
        str_sp(m)
    else:
        ldrd_sp(m)                                            # input_dims->h, w
        ldrh_sp(m)                                            # stride.h
        ldrh_sp(m)                                            # padding.w
        str_sp(m)
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        ldr_sp(m)                                             # input_dims->c
        str_sp(m)
        ldr_sp(m)                                             # output_offset
        ldr_sp(m)                                             # filter_dims->w
        str_sp(m)
        ldr_sp(m)                                             # filter_dims->h
        ldr_sp(m)                                             # input_offset
        str_sp(m)
        str_sp(m)
        ldrh_sp(m)                                            # padding.h
        ldrh_sp(m)                                            # stride.w
        str_sp(m)
        ldr_sp(m)                                             # activation.min
        ldr_sp(m)                                             # activation.max
        uxth(m, input_batches, 0)
        str_sp(m)
        str_sp(m)
        ldr_sp(m)                                             # output_dims->w
        str_sp(m)
        ldr_sp(m)                                             # output_dims->h
        str_sp(m)
    cmp(m, input_batches, 0)                                  # i_batch < input_batches
    bcc(m, input_batches == 0)
    if input_batches != 0:
        # loop invariants
        if m.dsp:
            uxth(m, dilation_x, 0)
            rsb(m, pad_x, 0)
            uxth(m, -pad_x, 0)
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)kernel_y
            str_sp(m)
            uxth(m, input_x, 0)
            ldrh_sp(m)                                        # (uint16_t)kernel_x
            str_sp(m)
            uxth(m, input_y, 0)
            uxth(m, input_ch, 0)
            uxth(m, ch_mult, 0)
            mul(m, input_y, input_x)
            uxth(m, output_y, 0)
            mul(m, input_ch, input_y * input_x)               # input_x * input_y * input_ch
            mul(m, ch_mult, input_ch)                         # input_ch * ch_mult
            str_sp(m)
            lsl(m, ch_mult, 2)
            mov(m, 0)
            str_sp(m)
            mul(m, dilation_x, input_ch)                      # dilation_x * input_ch
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            str_sp(m)
            str_sp(m)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
        else:
            uxth(m, ch_mult, 0)
            mov(m, 0)
            uxth(m, dilation_x, 0)
            ldr_sp(m)
            uxth(m, input_x, 0)
            rsb(m, pad_x, 0)
            uxth(m, -pad_x, 0)
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)kernel_y
            uxth(m, input_y, 0)
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)kernel_x
            uxth(m, input_ch, 0)
            str_sp(m)
            mul(m, input_y, input_x)
            mul(m, input_ch, input_y * input_x)               # input_x * input_y * input_ch
            str_sp(m)
            mul(m, ch_mult, input_ch)                         # input_ch * ch_mult
            str_sp(m)
            mul(m, dilation_x, input_ch)                      # dilation_x * input_ch
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            str_sp(m)
            mov(m, 0)
            lsl(m, ch_mult, 2)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            uxth(m, output_y, 0)
            str_sp(m)
            str_sp(m)
    i_out = 0
    i_batch = 0
    while i_batch < input_batches:
        cmp(m, output_y, 0)                                   # i_out_y < output_y
        bcc(m, output_y == 0)
        if output_y != 0:
            if m.dsp:
                ldr_sp(m)
                uxth(m, dilation_y, 0)
                rsb(m, pad_y, 0)
                uxth(m, output_x, 0)
                strd_sp(m)
                uxth(m, -pad_y, 0)
                mov(m, 0)
                mov(m, 0)
                str_sp(m)
                mov(m, 0)
            else:
                mov(m, 0)
                rsb(m, pad_y, 0)
                uxth(m, -pad_y, 0)
                strd_sp(m)
                uxth(m, dilation_y, 0)
                mov(m, 0)
                mov(m, 0)
                strd_sp(m)
                uxth(m, output_x, 0)
                str_sp(m)
                str_sp(m)
        i_out_y = 0
        while i_out_y < output_y:
            base_idx_y = ((i_out_y * stride_y - pad_y + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_y * stride_y) - pad_y)
            if m.dsp:
                ldr_sp(m)                                     # output_x
            sxth(m, base_idx_y, 0)
            str_sp(m)
            cmp(m, output_x, 0)                               # i_out_x < output_x
            bcc(m, output_x == 0)
            # dilation 1: ker_y_start = MAX(0, -base_idx_y); ker_y_end = MIN(kernel_y, input_y - base_idx_y)
            ker_y_start1 = -base_idx_y if base_idx_y < 0 else 0
            ker_y_end1 = input_y - base_idx_y
            if ker_y_end1 > kernel_y:
                ker_y_end1 = kernel_y
            if output_x != 0:
                if m.dsp:
                    cmp(m, base_idx_y, 0)
                    rsb(m, base_idx_y, 0)
                    ldr_sp(m)                                 # kernel_y
                    str_sp(m)
                    it(m, base_idx_y <= 0)
                    if base_idx_y > 0:
                        mov(m, 0)
                    sub(m, input_y, base_idx_y)
                    str_sp(m)
                    sub(m, dilation_y, base_idx_y)
                    sub(m, 0, 1)
                    cmp(m, kernel_y, input_y - base_idx_y)
                    str_sp(m)
                    mov(m, 0)
                    it(m, kernel_y < input_y - base_idx_y)
                    if kernel_y >= input_y - base_idx_y:
                        mov(m, input_y - base_idx_y)
                    ldr_sp(m)
                    str_sp(m)
                    strd_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                else:
                    cmp(m, base_idx_y, 0)
                    rsb(m, base_idx_y, 0)
                    it(m, base_idx_y <= 0)
                    if base_idx_y > 0:
                        mov(m, 0)
                    str_sp(m)
                    sub(m, input_y, base_idx_y)
                    mov(m, 0)
                    ldr_sp(m)                                 # kernel_y
                    str_sp(m)
                    cmp(m, kernel_y, input_y - base_idx_y)
                    it(m, kernel_y < input_y - base_idx_y)
                    if kernel_y >= input_y - base_idx_y:
                        mov(m, input_y - base_idx_y)
                    ldr_sp(m)
                    mov(m, 0)
                    sub(m, dilation_y, base_idx_y)
                    add(m, 0, -1)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                    ldr_sp(m)
                    str_sp(m)
                    str_sp(m)
                    str_sp(m)
            i_out_x = 0
            while i_out_x < output_x:
                base_idx_x = ((i_out_x * stride_x - pad_x + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_x * stride_x) - pad_x)
                if m.dsp:
                    ldr_sp(m)                                 # input_ch
                    sxth(m, base_idx_x, 0)
                    str_sp(m)
                else:
                    ldrsh_sp(m)                               # base_idx_x
                    ldr_sp(m)                                 # input_ch
                    str_sp(m)
                cmp(m, input_ch, 0)                           # i_input_ch < input_ch
                bcc(m, input_ch == 0)
                ker_x_start1 = -base_idx_x if base_idx_x < 0 else 0
                ker_x_end1 = input_x - base_idx_x
                if ker_x_end1 > kernel_x:
                    ker_x_end1 = kernel_x
                if input_ch != 0:
                    if m.dsp:
                        cmp(m, base_idx_x, 0)
                        rsb(m, base_idx_x, 0)
                        it(m, base_idx_x <= 0)
                        if base_idx_x > 0:
                            mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        sub(m, input_x, base_idx_x)
                        ldr_sp(m)                             # kernel_x
                        str_sp(m)
                        cmp(m, kernel_x, input_x - base_idx_x)
                        it(m, kernel_x < input_x - base_idx_x)
                        if kernel_x >= input_x - base_idx_x:
                            mov(m, input_x - base_idx_x)
                        str_sp(m)
                        ldrd_sp(m)
                        strd_sp(m)
                        mov(m, 0)
                        sub(m, dilation_x, base_idx_x)
                        mvn(m, 3)
                        mov(m, 0)
                        str_sp(m)
                        mov(m, 0)
                        mov(m, 0)
                    else:
                        mov(m, 0)
                        cmp(m, base_idx_x, 0)
                        rsb(m, base_idx_x, 0)
                        it(m, base_idx_x <= 0)
                        if base_idx_x > 0:
                            mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)                             # kernel_x
                        sub(m, input_x, base_idx_x)
                        cmp(m, kernel_x, input_x - base_idx_x)
                        it(m, kernel_x < input_x - base_idx_x)
                        if kernel_x >= input_x - base_idx_x:
                            mov(m, input_x - base_idx_x)
                        mvn(m, 3)
                        mov(m, 0)
                        mov(m, 0)
                        sub(m, dilation_x, base_idx_x)
                        str_sp(m)
                        str_sp(m)
                        str_sp(m)
                i_input_ch = 0
                while i_input_ch < input_ch:
                    if m.dsp:
                        cmp(m, ch_mult, 0)                    # i_ch_mult < ch_mult
                    else:
                        ldr_sp(m)                             # ch_mult
                        cmp(m, ch_mult, 0)
                    bcc(m, ch_mult == 0)
                    if ch_mult != 0:
                        if m.dsp:
                            ldr_sp(m)
                            ldr_sp(m)
                            str_sp(m)
                            mov(m, 0)
                            add(m, i_out, -1)
                            ldr_sp(m)                         # output
                            add(m, output, i_out - 1)
                            str_sp(m)
                            ldr_sp(m)
                            add(m, 0, 0)
                            add(m, 0, -1)
                            str_sp(m)
                            ldr_sp(m)                         # output_mult
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)                         # output_shift
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)
                            strd_sp(m)
                            sub(m, 0, 1)
                            add(m, 0, 0)
                            str_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                        else:
                            mov(m, 0)
                            mov(m, 0)
                            ldr_sp(m)
                            strd_sp(m)
                            add(m, i_out, -1)
                            ldr_sp(m)                         # output
                            strd_sp(m)
                            add(m, output, i_out - 1)
                            add(m, 0, 0)
                            str_sp(m)
                            add(m, 0, -1)
                            str_sp(m)
                            ldr_sp(m)                         # output_mult
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)                         # output_shift
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)
                            sub(m, 0, 1)
                            str_sp(m)
                            ldr_sp(m)
                            add(m, 0, 0)
                    i_ch_mult = 0
                    while i_ch_mult < ch_mult:
                        idx_out_ch = i_ch_mult + i_input_ch * ch_mult  # const int idx_out_ch = i_ch_mult + i_input_ch * ch_mult;
                        ldr_sp(m)                             # dilation_x
                        cmp(m, dilation_x, 1)                 # if (dilation_x > 1)
                        bcc(m, dilation_x <= 1)
                        if dilation_x > 1:
                            if m.dsp:
                                ldr_sp(m)
                                ldr_sp(m)
                                ker_x_start = sdiv(m, -base_idx_x + dilation_x - 1, dilation_x)  # start_x_max
                                ldr_sp(m)
                                ker_x_end = sdiv(m, input_x - base_idx_x + dilation_x - 1, dilation_x)  # end_min_x
                                ldr_sp(m)                     # kernel_x
                                cmp(m, ker_x_end, kernel_x)
                                it(m, ker_x_end < kernel_x)
                                if ker_x_end >= kernel_x:     # ker_x_end = MIN(kernel_x, end_min_x)
                                    ker_x_end = mov(m, kernel_x)
                                ldr_sp(m)                     # dilation_y
                                cmp(m, dilation_y, 1)
                                ker_x_start = bic(m, ker_x_start, ker_x_start >> 31)  # MAX(0, start_x_max)
                            else:
                                ldr_sp(m)
                                start = sdiv(m, -base_idx_x + dilation_x - 1, dilation_x)
                                ldr_sp(m)
                                ker_x_start = bic(m, start, start >> 31)
                                ker_x_end = sdiv(m, input_x - base_idx_x + dilation_x - 1, dilation_x)
                                ldr_sp(m)                     # kernel_x
                                cmp(m, ker_x_end, kernel_x)
                                it(m, ker_x_end < kernel_x)
                                if ker_x_end >= kernel_x:
                                    ker_x_end = mov(m, kernel_x)
                                ldr_sp(m)                     # dilation_y
                                cmp(m, dilation_y, 1)
                            bcc(m, dilation_y <= 1)
                        else:
                            ker_x_start = ker_x_start1
                            ker_x_end = ker_x_end1
                            if m.dsp:
                                ldr_sp(m)                     # dilation_y
                                ldr_sp(m)
                                ldr_sp(m)
                                cmp(m, dilation_y, 1)
                            else:
                                ldr_sp(m)
                                ldr_sp(m)
                                cmp(m, dilation_y, 1)
                                ldr_sp(m)
                            bcc(m, dilation_y > 1)
                        if dilation_y > 1:
                            if m.dsp:
                                ldr_sp(m)
                                add(m, 0, 0)
                                ldr_sp(m)                     # kernel_y
                                sub(m, 0, 1)
                                ker_y_end = sdiv(m, input_y - base_idx_y + dilation_y - 1, dilation_y)
                                cmp(m, ker_y_end, kernel_y)
                                it(m, ker_y_end < kernel_y)
                                if ker_y_end >= kernel_y:
                                    ker_y_end = mov(m, kernel_y)
                                ldr_sp(m)
                                start = sdiv(m, -base_idx_y + dilation_y - 1, dilation_y)
                                ker_y_start = bic(m, start, start >> 31)
                                ldr_sp(m)                     # bias
                                cmp(m, bias, 0)
                                bcc(m, bias == 0)
                            else:
                                ldr_sp(m)
                                ldr_sp(m)
                                ldr_sp(m)
                                add(m, 0, 0)
                                sub(m, 0, 1)
                                ker_y_end = sdiv(m, input_y - base_idx_y + dilation_y - 1, dilation_y)
                                start = sdiv(m, -base_idx_y + dilation_y - 1, dilation_y)
                                ldr_sp(m)                     # kernel_y
                                ker_y_start = bic(m, start, start >> 31)
                                cmp(m, ker_y_end, kernel_y)
                                it(m, ker_y_end < kernel_y)
                                if ker_y_end >= kernel_y:
                                    ker_y_end = mov(m, kernel_y)
                                ldr_sp(m)                     # bias
                                cmp(m, bias, 0)
                                bcc(m, bias == 0)
                        else:
                            ker_y_start = ker_y_start1
                            ker_y_end = ker_y_end1
                            if m.dsp:
                                ldr_sp(m)
                                ldr_sp(m)
                                b(m)
                                ldr_sp(m)                     # bias
                                cmp(m, bias, 0)
                                bcc(m, bias == 0)
                            else:
                                ldr_sp(m)                     # bias
                                ldr_sp(m)
                                ldr_sp(m)
                                cmp(m, bias, 0)
                                bcc(m, bias != 0)
                        if bias != 0:                         # acc_0 = bias[idx_out_ch];
                            acc_0 = ldr(m, bias + 4 * idx_out_ch)
                        else:
                            ldr_sp(m)                         # int32_t acc_0 = 0 (the NULL bias)
                            acc_0 = 0
                            b(m)
                        cmp(m, ker_y_end, ker_y_start)        # i_ker_y < ker_y_end
                        bcc(m, ker_y_end <= ker_y_start)
                        if ker_y_end > ker_y_start:
                            if m.dsp:
                                ldrd_sp(m)
                                mla(m, dilation_x, ker_x_start, base_idx_x)
                                str_sp(m)
                                str_sp(m)
                            else:
                                mov(m, 0)
                                ldr_sp(m)
                                mla(m, dilation_x, ker_x_start, base_idx_x)
                                str_sp(m)
                            i_ker_y = ker_y_start
                            while i_ker_y < ker_y_end:
                                idx_y = base_idx_y + dilation_y * i_ker_y  # const int32_t idx_y = base_idx_y + dilation_y * i_ker_y;
                                if m.dsp:
                                    ldr_sp(m)
                                    cmp(m, ker_x_end, ker_x_start)
                                    mla(m, dilation_y, i_ker_y, base_idx_y)
                                else:
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    cmp(m, ker_x_end, ker_x_start)
                                    mla(m, dilation_y, i_ker_y, base_idx_y)
                                bcc(m, ker_x_end <= ker_x_start)
                                if ker_x_end > ker_x_start:
                                    idx_x = base_idx_x + dilation_x * ker_x_start
                                    idx_0 = (idx_y * input_x + idx_x) * input_ch + i_input_ch
                                    ker_idx_0 = (i_ker_y * kernel_x + ker_x_start) * (input_ch * ch_mult) + idx_out_ch
                                    in_step = dilation_x * input_ch
                                    ker_step = input_ch * ch_mult
                                    if m.dsp:
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_x, idx_y, idx_x)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_ch, idx_y * input_x + idx_x, i_input_ch)
                                        ldr_sp(m)             # input
                                        add(m, input, idx_0)
                                        ldr_sp(m)             # kernel_x
                                        mla(m, i_ker_y, kernel_x, ker_x_start)
                                        mla(m, ker_step, i_ker_y * kernel_x + ker_x_start, idx_out_ch)
                                        ldr_sp(m)             # kernel
                                        mov(m, 0)
                                        add(m, kernel, ker_idx_0)
                                        mov(m, 0)
                                    else:
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_x, idx_y, idx_x)
                                        mov(m, 0)
                                        mov(m, 0)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_ch, idx_y * input_x + idx_x, i_input_ch)
                                        ldr_sp(m)             # input
                                        add(m, input, idx_0)
                                        ldr_sp(m)             # kernel_x
                                        str_sp(m)
                                        mla(m, i_ker_y, kernel_x, ker_x_start)
                                        ldr_sp(m)
                                        mla(m, ker_step, i_ker_y * kernel_x + ker_x_start, idx_out_ch)
                                        ldr_sp(m)             # kernel
                                        add(m, kernel, ker_idx_0)
                                        ldr_sp(m)
                                    i_ker_x = ker_x_start
                                    while i_ker_x < ker_x_end:
                                        # acc_0 += (input[idx_0] + input_offset) * kernel[ker_idx_0];
                                        ldr_sp(m)             # dilation_x * input_ch
                                        v = ldrsb(m, input + idx_0)
                                        idx_0 = add(m, idx_0, in_step)
                                        ldr_sp(m)             # input_offset
                                        if m.dsp:
                                            v = add(m, v, input_offset)
                                            k = ldrsb(m, kernel + ker_idx_0)
                                            i_ker_x = add(m, i_ker_x, 1)
                                            acc_0 = mla(m, k, v, acc_0)
                                            ldr_sp(m)         # input_ch * ch_mult
                                            cmp(m, i_ker_x, ker_x_end)
                                        else:
                                            i_ker_x = add(m, i_ker_x, 1)
                                            v = add(m, v, input_offset)
                                            k = ldrsb(m, kernel + ker_idx_0)
                                            cmp(m, i_ker_x, ker_x_end)
                                            acc_0 = mla(m, k, v, acc_0)
                                            ldr_sp(m)         # input_ch * ch_mult
                                        ker_idx_0 = add(m, ker_idx_0, ker_step)
                                        bcc(m, i_ker_x != ker_x_end)
                                    ldrd_sp(m)
                                    mov(m, 0)
                                i_ker_y = add(m, i_ker_y, 1)
                                cmp(m, i_ker_y, ker_y_end)
                                bcc(m, i_ker_y < ker_y_end)
                            if m.dsp:
                                ldr_sp(m)
                            else:
                                mov(m, 0)
                        acc_0 = _requantize_generic(m, acc_0, output_mult + 4 * idx_out_ch,
                                                    output_shift + 4 * idx_out_ch)
                        # acc_0 += output_offset; MAX(acc_0, min); MIN(acc_0, max)
                        ldr_sp(m)
                        if not m.dsp:
                            add(m, 0, 1)                      # i_ch_mult++ (the running index)
                        acc_0 = add(m, acc_0, output_offset)
                        ldr_sp(m)
                        cmp(m, acc_0, act_min)
                        acc_0 = _max(m, acc_0, act_min)
                        ldr_sp(m)
                        cmp(m, acc_0, act_max)
                        acc_0 = _min(m, acc_0, act_max)
                        ldr_sp(m)                             # output + i_out
                        i_ch_mult += 1
                        if m.dsp:
                            add(m, 0, 1)
                            strb(m, output + i_out, acc_0)    # output[i_out++] = acc_0;
                            cmp(m, ch_mult, i_ch_mult)
                            str_sp(m)
                        else:
                            cmp(m, ch_mult, i_ch_mult)
                            strb(m, output + i_out, acc_0)
                            str_sp(m)
                        i_out += 1
                        bcc(m, i_ch_mult != ch_mult)
                    if ch_mult != 0:
                        if m.dsp:
                            ldr_sp(m)
                            ldr_sp(m)
                            ldrd_sp(m)
                            add(m, 0, 0)
                            mov(m, 0)
                            mov(m, 0)
                            str_sp(m)
                        else:
                            ldrd_sp(m)
                            ldrd_sp(m)
                            mov(m, 0)
                            ldr_sp(m)
                            ldr_sp(m)
                            add(m, 0, 0)
                            str_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    i_input_ch += 1
                    if m.dsp:
                        ldr_sp(m)
                        add(m, i_input_ch, 0)
                    else:
                        add(m, i_input_ch, 0)
                        ldr_sp(m)
                    cmp(m, input_ch, i_input_ch)
                    bcc(m, i_input_ch != input_ch)
                if input_ch != 0:
                    if m.dsp:
                        ldrd_sp(m)
                    else:
                        ldr_sp(m)
                # i_out_x++: base_idx_x (uint16_t) += stride_x
                i_out_x += 1
                if m.dsp:
                    add(m, 0, 0)
                    uxth(m, 0, 0)
                    ldr_sp(m)                                 # output_x
                    add(m, i_out_x, 0)
                    cmp(m, i_out_x, output_x)
                else:
                    ldr_sp(m)
                    add(m, i_out_x, 0)
                    add(m, 0, 0)
                    uxth(m, 0, 0)
                    cmp(m, i_out_x, output_x)
                    str_sp(m)
                bcc(m, i_out_x != output_x)
            if output_x != 0:
                if m.dsp:
                    mov(m, 0)
                    ldrd_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    ldr_sp(m)
                    mov(m, 0)
                    ldr_sp(m)
                else:
                    mov(m, 0)
                    mov(m, 0)
                    ldr_sp(m)
                    ldr_sp(m)
            # i_out_y++: base_idx_y (uint16_t) += stride_y
            ldr_sp(m)                                         # stride_y
            i_out_y = add(m, i_out_y, 1)
            add(m, 0, 0)
            if m.dsp:
                cmp(m, i_out_y, output_y)
                uxth(m, 0, 0)
            else:
                cmp(m, i_out_y, output_y)
                uxth(m, 0, 0)
            bcc(m, i_out_y != output_y)
        if output_y != 0:
            if m.dsp:
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
            else:
                ldrd_sp(m)
                ldrd_sp(m)
                ldr_sp(m)
        # input += (input_x * input_y * input_ch);
        ldr_sp(m)
        if not m.dsp:
            ldr_sp(m)
        i_batch = add(m, i_batch, 1)
        input = add(m, input, input_x * input_y * input_ch)
        cmp(m, input_batches, i_batch)
        str_sp(m)
        bcc(m, i_batch != input_batches)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                              # add sp, #292
    pop_pc(m, 9)
    return 0, GENERIC


def call_depthwise_conv_s8(m, ctx, dw_conv_params, quant_params, input_dims, input,
                           filter_dims, kernel, bias_dims, bias, output_dims, output,
                           tracer=None):
    """Run arm_depthwise_conv_s8 as the C does: depthwise_conv_s8_mult_4 is a function of its
    own (run here, between the entry point's call and its epilogue), so the generic body is
    compiled without it.  Returns (status, GENERIC or MULT_4)."""
    status, helper = run(arm_depthwise_conv_s8, m, ctx, dw_conv_params, quant_params,
                         input_dims, input, filter_dims, kernel, bias_dims, bias, output_dims,
                         output, tracer=tracer)
    if helper == MULT_4:
        p = dw_conv_params
        run(depthwise_conv_s8_mult_4, m, input, input_dims.w, input_dims.h, input_dims.c, kernel,
            output_dims.c, p.ch_mult, filter_dims.w, filter_dims.h, p.padding.w, p.padding.h,
            p.stride.w, p.stride.h, bias, output, quant_params.shift, quant_params.multiplier,
            output_dims.w, output_dims.h, p.output_offset, p.input_offset, p.activation.min,
            p.activation.max, tracer=tracer)
        run(_return_after_mult_4, m, tracer=tracer)
    return status, helper
