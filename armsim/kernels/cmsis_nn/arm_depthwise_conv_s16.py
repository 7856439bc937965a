"""arm_depthwise_conv_s16 (Source/ConvolutionFunctions/arm_depthwise_conv_s16.c): the
generic 16x8 depthwise convolution, `depthwise_conv_s16_generic_s16` inlined (the file's
`depthwise_conv_s16_mult_4_s16` is UNUSED_ATTR and never called).

Per output pixel, input channel and channel multiplier: REDUCE_MULTIPLIER of the channel's
multiplier, the kernel window clipped to the input (MAX/MIN, with a division by the
dilation when it is > 1), one 16x8 multiply-accumulate per tap into the int64 accumulator
that starts at the bias (SMLALBB on the M4; the M3 build keeps the accumulator in registers
and spills the loop's counters around an SMLAL), arm_nn_requantize_s64 (UMULL and MUL/MLA,
the 64-bit shift with two IT PL), clamp, STRH.  No ARM_MATH_DSP branch: the M4 and M3 builds
run the same C, scheduled differently (`m.dsp` picks the build).

Arguments are the C function's: `arm_nn_types` structs, pointers as simulated addresses
(bias 0 = NULL; int64 bias).  Returns 0 (ARM_CMSIS_NN_SUCCESS).

Every instruction, stack traffic included, is read off gcc 12.2 -O2's code of this file.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, bic, cmp, it, ldr, ldr_lit, ldr_sp, ldrd,
                            ldrd_sp, ldrh, ldrh_sp, ldrsb, ldrsh, ldrsh_sp, lsl, lsr, mla, mov, mul,
                            mvn, orr, pop_pc, push, rsb, sdiv, smlal, smlalbb, str_sp, strd_sp,
                            strh, sub, sxth, umull, uxth)

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel(inline=True)
def requantize_s64(m, lo, hi, reduced, reduced_sign, shift_ptr):
    """arm_nn_requantize_s64(acc, reduced_multiplier, *shift) up to its rounding, as gcc
    inlines it here: new_val = acc * reduced_multiplier (MUL, MLA, UMULL, ADD), then the
    64-bit shift by n = 14 - shift keeping the low word: (lo >> n) | (hi << (32 - n)), or
    for n >= 32 hi >> (n - 32) (SUBS, IT PL ASRPL, ORR, IT PL ORRPL).  The caller does
    (result + 1) >> 1."""
    if m.dsp:
        t = mul(m, lo, reduced_sign)                          # lo(acc) * sign(multiplier)
        t = mla(m, reduced, hi, t)                            # + multiplier * hi(acc)
        ldr_sp(m)                                             # the output_shift pointer
        plo, phi = umull(m, lo, reduced)                      # lo(acc) * multiplier, unsigned
        phi = add(m, phi, t)
        shift = ldr(m, shift_ptr)                             # *output_shift
        str_sp(m)
    else:
        t = mul(m, lo, reduced_sign)
        plo, phi = umull(m, lo, reduced)
        t = mla(m, reduced, hi, t)
        shift = ldr(m, shift_ptr)
        phi = add(m, phi, t)
    n = rsb(m, shift, 14)                                     # 14 - shift
    up = add(m, shift, 18)                                    # 32 - n
    result = lsr(m, plo, n)
    left = lsl(m, phi, up)
    over = sub(m, n, 32)
    it(m, over < 0)                                           # IT PL: n >= 32
    if over >= 0:
        wide = asr(m, phi, over)
    result = orr(m, result, left)
    it(m, over < 0)
    if over >= 0:
        result = orr(m, result, wide)
    return result


@kernel(inline=True)
def _reduce_multiplier(m, mult):
    """REDUCE_MULTIPLIER(mult): ((mult + (1 << 15)) >> 16, its sign word), or 0x7FFF, 0."""
    ldr_lit(m)                                                # 0x7FFEFFFF
    cmp(m, mult, 0x7FFEFFFF)
    bcc(m, mult > 0x7FFEFFFF)
    if mult <= 0x7FFEFFFF:
        t = add(m, mult, 1 << 15)
        if m.dsp:
            reduced = asr(m, t, 16)
            sign = asr(m, t, 31)
        else:
            reduced = asr(m, t, 16)
            sign = asr(m, t, 31)
        return reduced, sign
    return 0x7FFF, 0


@kernel
def arm_depthwise_conv_s16(m, ctx, dw_conv_params, quant_params, input_dims, input,
                           filter_dims, kernel, bias_dims, bias, output_dims, output):
    # depthwise_conv_s16_generic_s16's uint16_t arguments
    input_batches = input_dims.n & 0xFFFF
    input_x = input_dims.w & 0xFFFF
    input_y = input_dims.h & 0xFFFF
    input_ch = input_dims.c & 0xFFFF
    ch_mult = dw_conv_params.ch_mult & 0xFFFF
    kernel_x = filter_dims.w & 0xFFFF
    kernel_y = filter_dims.h & 0xFFFF
    pad_x = dw_conv_params.padding.w & 0xFFFF
    pad_y = dw_conv_params.padding.h & 0xFFFF
    stride_x = dw_conv_params.stride.w & 0xFFFF
    stride_y = dw_conv_params.stride.h & 0xFFFF
    output_x = output_dims.w & 0xFFFF
    output_y = output_dims.h & 0xFFFF
    dilation_x = dw_conv_params.dilation.w & 0xFFFF
    dilation_y = dw_conv_params.dilation.h & 0xFFFF
    output_shift = quant_params.shift
    output_mult = quant_params.multiplier
    act_min = dw_conv_params.activation.min
    act_max = dw_conv_params.activation.max
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #228 / #220
    if m.dsp:
        mov(m, 0)
        ldr_sp(m)                                             # filter_dims (stacked)
        ldr_sp(m)                                             # output_dims (stacked)
        ldr_sp(m)                                             # filter_dims->w
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)                                             # filter_dims->h
        str_sp(m)
        ldrd_sp(m)                                            # dilation.w, h
        ldrh_sp(m)                                            # stride.w
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        ldr_sp(m)                                             # ch_mult
        ldrh_sp(m)                                            # padding.w
        ldrh_sp(m)                                            # padding.h
        str_sp(m)
        str_sp(m)
        ldrh_sp(m)                                            # stride.h
        str_sp(m)
        ldrd_sp(m)                                            # output_dims->h, w
        ldr_sp(m)                                             # activation.min
        ldr_sp(m)                                             # activation.max
        ldrh_sp(m)                                            # input_dims->n
        str_sp(m)
        uxth(m, dilation_x, 0)
        str_sp(m)
        uxth(m, dilation_y, 0)
        ldrd_sp(m)                                            # input_dims->h, w
        str_sp(m)
        ldr_sp(m)                                             # input_dims->c
        str_sp(m)
    else:
        mov(m, 0)
        ldr_sp(m)                                             # filter_dims (stacked)
        ldr_sp(m)                                             # output_dims (stacked)
        ldr_sp(m)                                             # filter_dims->w
        ldr_sp(m)                                             # filter_dims->h
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        ldrd_sp(m)                                            # output_dims->h, w
        ldrd_sp(m)                                            # dilation.w, h
        ldr_sp(m)                                             # ch_mult... input_dims->w
        ldrh_sp(m)                                            # stride.w
        str_sp(m)
        ldr_sp(m)                                             # quant_params->shift
        ldr_sp(m)                                             # quant_params->multiplier
        ldrh_sp(m)                                            # input_dims->n
        str_sp(m)
        ldr_sp(m)                                             # activation.min
        ldr_sp(m)                                             # input_dims->h
        str_sp(m)
        ldr_sp(m)                                             # activation.max
        ldr_sp(m)                                             # input_dims->c
        str_sp(m)
        uxth(m, dilation_x, 0)
        str_sp(m)
        uxth(m, dilation_y, 0)
        str_sp(m)
        ldr_sp(m)                                             # ch_mult
        ldrh_sp(m)                                            # padding.w
        ldrh_sp(m)                                            # padding.h
        ldrh_sp(m)                                            # stride.h
        str_sp(m)
        str_sp(m)
    cmp(m, input_batches, 0)                                  # i_batch < input_batches
    bcc(m, input_batches == 0)
    if input_batches != 0:
        if m.dsp:
            uxth(m, input_x, 0)
            uxth(m, dilation_x, 0)
            rsb(m, pad_x, 0)
            uxth(m, -pad_x, 0)
            uxth(m, input_ch, 0)
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)kernel_y
            str_sp(m)
            uxth(m, output_y, 0)
            mul(m, input_x, input_y)
            mul(m, input_ch, input_x * input_y)
            lsl(m, 0, 1)                                      # (input_x * input_y * input_ch) * 2
            str_sp(m)
            mul(m, dilation_x, input_ch)
            uxth(m, ch_mult, 0)
            lsl(m, 0, 1)
            str_sp(m)
            mul(m, ch_mult, input_ch)
            str_sp(m)
            lsl(m, ch_mult, 2)
            str_sp(m)
            lsl(m, ch_mult, 1)
            str_sp(m)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            str_sp(m)
            mov(m, 0)
            uxth(m, output_x, 0)
            mov(m, 0)
            mov(m, 0)
        else:
            uxth(m, input_ch, 0)
            uxth(m, dilation_x, 0)
            rsb(m, pad_x, 0)
            uxth(m, -pad_x, 0)
            ldrh_sp(m)                                        # (uint16_t)kernel_x
            str_sp(m)
            ldrh_sp(m)                                        # (uint16_t)kernel_y
            uxth(m, input_x, 0)
            str_sp(m)
            mul(m, input_x, kernel_x)
            mul(m, input_ch, input_x * kernel_x)
            uxth(m, ch_mult, 0)
            str_sp(m)
            lsl(m, 0, 1)
            mul(m, dilation_x, input_ch)
            mul(m, ch_mult, input_ch)
            str_sp(m)
            lsl(m, ch_mult, 2)
            lsl(m, 0, 1)
            str_sp(m)
            lsl(m, ch_mult, 1)
            str_sp(m)
            str_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            uxth(m, output_y, 0)
            str_sp(m)
    out = output
    i_batch = 0
    while i_batch < input_batches:
        cmp(m, output_y, 0)                                   # i_out_y < output_y
        bcc(m, output_y == 0)
        if output_y != 0:
            if m.dsp:
                rsb(m, pad_y, 0)
                uxth(m, -pad_y, 0)
                strd_sp(m)
                uxth(m, dilation_y, 0)
                strd_sp(m)
                str_sp(m)
                ldrh_sp(m)                                    # (uint16_t)kernel_x
                str_sp(m)
                uxth(m, output_x, 0)
                mov(m, 0)
            else:
                strd_sp(m)
                mov(m, 0)
                mov(m, 0)
                rsb(m, pad_y, 0)
                uxth(m, -pad_y, 0)
                str_sp(m)
                uxth(m, output_x, 0)
                str_sp(m)
                uxth(m, dilation_y, 0)
                str_sp(m)
                strd_sp(m)
                ldrh_sp(m)                                    # (uint16_t)kernel_x
                str_sp(m)
        i_out_y = 0
        while i_out_y < output_y:
            base_idx_y = ((i_out_y * stride_y - pad_y + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_y * stride_y) - pad_y)
            if m.dsp:
                sxth(m, base_idx_y, 0)
                str_sp(m)
            else:
                ldrsh_sp(m)                                   # base_idx_y
                ldr_sp(m)                                     # output_x
                str_sp(m)
            cmp(m, output_x, 0)                               # i_out_x < output_x
            bcc(m, output_x == 0)
            ker_y_start1 = -base_idx_y if base_idx_y < 0 else 0  # MAX(0, -base_idx_y)
            ker_y_end1 = input_y - base_idx_y                 # MIN(kernel_y, input_y - base_idx_y)
            if ker_y_end1 > kernel_y:
                ker_y_end1 = kernel_y
            if output_x != 0:
                if m.dsp:
                    cmp(m, base_idx_y, 0)
                    rsb(m, base_idx_y, 0)
                    it(m, 1)                                  # ITE LE: one of the MOVs fails
                    mov(m, ker_y_start1)
                    str_sp(m)
                    ldr_sp(m)
                    sub(m, dilation_y, base_idx_y)
                    sub(m, input_y, base_idx_y)
                    sub(m, 0, 1)
                    str_sp(m)
                    ldr_sp(m)                                 # kernel_y
                    ldr_sp(m)
                    str_sp(m)
                    cmp(m, kernel_y, input_y - base_idx_y)
                    strd_sp(m)
                    strd_sp(m)
                    it(m, kernel_y < input_y - base_idx_y)
                    if kernel_y >= input_y - base_idx_y:
                        mov(m, input_y - base_idx_y)
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    str_sp(m)
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
                    mov(m, 0)
                    cmp(m, kernel_y, input_y - base_idx_y)
                    it(m, kernel_y < input_y - base_idx_y)
                    if kernel_y >= input_y - base_idx_y:
                        mov(m, input_y - base_idx_y)
                    ldr_sp(m)
                    str_sp(m)
                    sub(m, dilation_y, base_idx_y)
                    sub(m, 0, 1)
                    str_sp(m)
                    mov(m, 0)
                    ldr_sp(m)
                    str_sp(m)
                    str_sp(m)
                    str_sp(m)
            i_out_x = 0
            while i_out_x < output_x:
                base_idx_x = ((i_out_x * stride_x - pad_x + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_x * stride_x) - pad_x)
                if m.dsp:
                    ldr_sp(m)                                 # input_ch
                    ldrsh_sp(m)                               # base_idx_x
                    str_sp(m)
                else:
                    ldr_sp(m)                                 # input_ch
                    sxth(m, base_idx_x, 0)
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
                        it(m, 1)                              # ITE LE
                        mov(m, ker_x_start1)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)                             # kernel_x
                        sub(m, input_x, base_idx_x)
                        cmp(m, kernel_x, input_x - base_idx_x)
                        it(m, kernel_x < input_x - base_idx_x)
                        if kernel_x >= input_x - base_idx_x:
                            mov(m, input_x - base_idx_x)
                        str_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        sub(m, dilation_x, base_idx_x)
                        strd_sp(m)
                        mvn(m, 3)
                        mov(m, 0)
                        str_sp(m)
                        mov(m, 0)
                    else:
                        mov(m, 0)
                        cmp(m, base_idx_x, 0)
                        rsb(m, base_idx_x, 0)
                        it(m, 1)                              # ITE LE
                        mov(m, ker_x_start1)
                        str_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)                             # kernel_x
                        sub(m, input_x, base_idx_x)
                        cmp(m, kernel_x, input_x - base_idx_x)
                        it(m, kernel_x < input_x - base_idx_x)
                        if kernel_x >= input_x - base_idx_x:
                            mov(m, input_x - base_idx_x)
                        mvn(m, 3)
                        str_sp(m)
                        mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        strd_sp(m)
                        sub(m, dilation_x, base_idx_x)
                        str_sp(m)
                        str_sp(m)
                        str_sp(m)
                i_input_ch = 0
                while i_input_ch < input_ch:
                    cmp(m, ch_mult, 0)                        # i_ch_mult < ch_mult
                    bcc(m, ch_mult == 0)
                    if ch_mult != 0:
                        if m.dsp:
                            ldr_sp(m)
                            ldr_sp(m)
                            str_sp(m)
                            add(m, 0, 0)
                            add(m, 0, -1)
                            str_sp(m)
                            ldr_sp(m)                         # output_mult
                            str_sp(m)
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)                         # output_shift
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)                         # output
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)
                            strd_sp(m)
                            sub(m, 0, 1)
                            mov(m, 0)
                            str_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                        else:
                            strd_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                            ldr_sp(m)
                            ldr_sp(m)
                            strd_sp(m)
                            add(m, 0, 0)
                            sub(m, 0, 1)
                            str_sp(m)
                            ldr_sp(m)                         # output_mult
                            ldr_sp(m)
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)                         # output_shift
                            str_sp(m)
                            add(m, 0, 0)
                            ldr_sp(m)                         # output
                            add(m, 0, 0)
                            str_sp(m)
                            ldr_sp(m)
                            sub(m, 0, 1)
                            str_sp(m)
                    i_ch_mult = 0
                    while i_ch_mult < ch_mult:
                        idx_out_ch = i_ch_mult + i_input_ch * ch_mult  # const int idx_out_ch = i_ch_mult + i_input_ch * ch_mult;
                        ldr_sp(m)                             # the output_mult pointer
                        mult = ldr(m, output_mult + 4 * idx_out_ch)  # output_mult[idx_out_ch] (pre-indexed)
                        str_sp(m)
                        reduced, reduced_sign = _reduce_multiplier(m, mult)  # REDUCE_MULTIPLIER(...)
                        if mult > 0x7FFEFFFF:                 # the 0x7FFF branch
                            ldr_sp(m)                         # dilation_x
                            if m.dsp:
                                cmp(m, dilation_x, 1)
                                mov(m, 0x7FFF)
                                mov(m, 0)
                            else:
                                mov(m, 0x7FFF)
                                cmp(m, dilation_x, 1)
                                mov(m, 0)
                        else:
                            ldr_sp(m)                         # dilation_x
                            cmp(m, dilation_x, 1)
                        bcc(m, dilation_x <= 1 if mult <= 0x7FFEFFFF else dilation_x > 1)
                        if dilation_x > 1:                    # ker_x_start = MAX(0, start_x_max); ker_x_end = MIN(kernel_x, end_min_x)
                            if m.dsp:
                                ldr_sp(m)
                                ldr_sp(m)
                                start = sdiv(m, -base_idx_x + dilation_x - 1, dilation_x)
                                ldr_sp(m)
                                ker_x_end = sdiv(m, input_x - base_idx_x + dilation_x - 1, dilation_x)
                                ldr_sp(m)                     # kernel_x
                                cmp(m, ker_x_end, kernel_x)
                                ker_x_start = bic(m, start, start >> 31)
                                it(m, ker_x_end < kernel_x)
                                if ker_x_end >= kernel_x:
                                    ker_x_end = mov(m, kernel_x)
                            else:
                                ldr_sp(m)
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
                        else:
                            ker_x_start = ker_x_start1
                            ker_x_end = ker_x_end1
                            ldr_sp(m)
                            ldr_sp(m)
                            b(m)
                        ldr_sp(m)                             # dilation_y
                        cmp(m, dilation_y, 1)
                        bcc(m, dilation_y <= 1)
                        if dilation_y > 1:                    # ker_y_start / ker_y_end with the division
                            if m.dsp:
                                ldr_sp(m)
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
                            else:
                                ldr_sp(m)
                                ldr_sp(m)
                                add(m, 0, 0)
                                sub(m, 0, 1)
                                ker_y_end = sdiv(m, input_y - base_idx_y + dilation_y - 1, dilation_y)
                                ldr_sp(m)
                                start = sdiv(m, -base_idx_y + dilation_y - 1, dilation_y)
                                ldr_sp(m)                     # kernel_y
                                ker_y_start = bic(m, start, start >> 31)
                                cmp(m, ker_y_end, kernel_y)
                                it(m, ker_y_end < kernel_y)
                                if ker_y_end >= kernel_y:
                                    ker_y_end = mov(m, kernel_y)
                        else:
                            ker_y_start = ker_y_start1
                            ker_y_end = ker_y_end1
                            ldr_sp(m)
                            ldr_sp(m)
                            b(m)
                        ldr_sp(m)                             # bias
                        cmp(m, bias, 0)                       # if (bias)
                        bcc(m, bias == 0)
                        if bias != 0:                         # acc_0 = bias[idx_out_ch];
                            if m.dsp:
                                add(m, bias, idx_out_ch << 3)
                                lo, hi = ldrd(m, bias + 8 * idx_out_ch)
                            else:
                                add(m, bias, idx_out_ch << 3)
                                hi = ldr(m, bias + 8 * idx_out_ch + 4)
                                ldr_sp(m)
                                lo = ldr(m, bias + 8 * idx_out_ch)
                        else:
                            if m.dsp:
                                lo = mov(m, 0)
                                hi = mov(m, 0)
                            else:
                                ldr_sp(m)                     # the NULL bias: 0
                                lo = 0
                                hi = mov(m, 0)
                            b(m)
                        cmp(m, ker_y_end, ker_y_start)        # i_ker_y < ker_y_end
                        bcc(m, ker_y_end <= ker_y_start)
                        if ker_y_end > ker_y_start:
                            if m.dsp:
                                ldr_sp(m)
                                ldr_sp(m)
                                mla(m, dilation_x, ker_x_start, base_idx_x)
                                strd_sp(m)
                                str_sp(m)
                                mov(m, 0)
                                mov(m, 0)
                            else:
                                ldr_sp(m)
                                str_sp(m)
                                mla(m, dilation_x, ker_x_start, base_idx_x)
                                str_sp(m)
                                mov(m, 0)
                                mov(m, 0)
                                mov(m, 0)
                            i_ker_y = ker_y_start
                            while i_ker_y < ker_y_end:
                                idx_y = base_idx_y + dilation_y * i_ker_y  # const int32_t idx_y = base_idx_y + dilation_y * i_ker_y;
                                ldr_sp(m)
                                ldr_sp(m)
                                cmp(m, ker_x_end, ker_x_start)
                                mla(m, dilation_y, i_ker_y, base_idx_y)
                                bcc(m, ker_x_end <= ker_x_start)
                                if ker_x_end > ker_x_start:
                                    idx_x = base_idx_x + dilation_x * ker_x_start
                                    idx_0 = (idx_y * input_x + idx_x) * input_ch + i_input_ch
                                    ker_idx_0 = (i_ker_y * kernel_x + ker_x_start) * (input_ch * ch_mult) + idx_out_ch
                                    in_step = 2 * dilation_x * input_ch
                                    ker_step = input_ch * ch_mult
                                    if m.dsp:
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_x, idx_y, idx_x)
                                        ldr_sp(m)
                                        mla(m, input_ch, idx_y * input_x + idx_x, i_input_ch)
                                        ldr_sp(m)             # input
                                        add(m, input, idx_0 << 1)
                                        ldr_sp(m)             # kernel_x
                                        mla(m, i_ker_y, kernel_x, ker_x_start)
                                        ldr_sp(m)
                                        strd_sp(m)
                                        mla(m, ker_step, i_ker_y * kernel_x + ker_x_start, idx_out_ch)
                                        ldr_sp(m)             # kernel
                                        mov(m, 0)
                                        add(m, kernel, ker_idx_0)
                                        mov(m, 0)
                                        mov(m, 0)
                                    else:
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        str_sp(m)
                                        mla(m, input_x, idx_y, idx_x)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        mla(m, input_ch, idx_y * input_x + idx_x, i_input_ch)
                                        mov(m, 0)
                                        ldr_sp(m)             # input
                                        add(m, input, idx_0 << 1)
                                        ldr_sp(m)             # kernel_x
                                        str_sp(m)
                                        mla(m, i_ker_y, kernel_x, ker_x_start)
                                        ldr_sp(m)
                                        mla(m, ker_step, i_ker_y * kernel_x + ker_x_start, idx_out_ch)
                                        ldr_sp(m)             # kernel
                                        add(m, kernel, ker_idx_0)
                                        ldr_sp(m)
                                        str_sp(m)
                                    i_ker_x = ker_x_start
                                    while i_ker_x < ker_x_end:
                                        # acc_0 += input[idx_0] * kernel[ker_idx_0];
                                        if m.dsp:
                                            ldr_sp(m)         # input_ch * ch_mult
                                            k = ldrsb(m, kernel + ker_idx_0)
                                            v = ldrh(m, input + 2 * idx_0)
                                            ker_idx_0 = add(m, ker_idx_0, ker_step)
                                            ldrd_sp(m)        # acc_0
                                            lo, hi = smlalbb(m, lo, hi, v, k)
                                            strd_sp(m)
                                            i_ker_x = add(m, i_ker_x, 1)
                                            ldr_sp(m)         # dilation_x * input_ch * 2
                                            cmp(m, i_ker_x, ker_x_end)
                                            idx_0 = add(m, idx_0, in_step >> 1)
                                        else:
                                            ldr_sp(m)         # i_ker_x
                                            i_ker_x = add(m, i_ker_x, 1)
                                            str_sp(m)
                                            v = ldrsh(m, input + 2 * idx_0)
                                            str_sp(m)
                                            ldr_sp(m)         # dilation_x * input_ch * 2
                                            idx_0 = add(m, idx_0, in_step >> 1)
                                            k = ldrsb(m, kernel + ker_idx_0)
                                            mov(m, k)
                                            ldr_sp(m)
                                            lo, hi = smlal(m, lo, hi, v, k)
                                            ldr_sp(m)         # input_ch * ch_mult
                                            ker_idx_0 = add(m, ker_idx_0, ker_step)
                                            ldr_sp(m)
                                            cmp(m, i_ker_x, ker_x_end)
                                        bcc(m, i_ker_x != ker_x_end)
                                    if m.dsp:
                                        mov(m, 0)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                    else:
                                        mov(m, 0)
                                        ldr_sp(m)
                                i_ker_y = add(m, i_ker_y, 1)
                                cmp(m, i_ker_y, ker_y_end)
                                bcc(m, i_ker_y < ker_y_end)
                            if m.dsp:
                                mov(m, 0)
                                ldrd_sp(m)
                                mov(m, 0)
                            else:
                                mov(m, 0)
                                mov(m, 0)
                                mov(m, 0)
                                ldr_sp(m)
                        # result = arm_nn_requantize_s64(acc_0, reduced_multiplier, output_shift[idx_out_ch]);
                        result = requantize_s64(m, lo, hi, reduced, reduced_sign,
                                                output_shift + 4 * idx_out_ch)
                        ldr_sp(m)                             # output_activation_min
                        result = asr(m, add(m, result, 1), 1)  # (result + 1) >> 1
                        cmp(m, result, act_min)               # result = MAX(result, output_activation_min);
                        it(m, result >= act_min)
                        if result < act_min:
                            result = mov(m, act_min)
                        ldr_sp(m)                             # output_activation_max
                        if not m.dsp:
                            add(m, 0, 1)                      # the running channel index
                        cmp(m, result, act_max)               # result = MIN(result, output_activation_max);
                        it(m, result < act_max)
                        if result >= act_max:
                            result = mov(m, act_max)
                        ldr_sp(m)                             # output
                        strh(m, out, result)                  # *output++ = (int16_t)result;
                        out += 2
                        mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)                             # this input channel's last output
                        cmp(m, 0, 0)
                        if m.dsp:
                            add(m, 0, 1)
                        i_ch_mult += 1
                        bcc(m, i_ch_mult != ch_mult)
                    if ch_mult != 0:
                        if m.dsp:
                            mov(m, 0)
                            ldrd_sp(m)
                            ldrd_sp(m)
                            mov(m, 0)
                        else:
                            ldrd_sp(m)
                            mov(m, 0)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                    ldr_sp(m)
                    if m.dsp:
                        add(m, 0, 0)
                        ldr_sp(m)
                        add(m, i_input_ch, 1)
                        i_input_ch += 1
                        cmp(m, i_input_ch, input_ch)
                        add(m, 0, 0)
                    else:
                        ldr_sp(m)
                        add(m, 0, 0)
                        ldr_sp(m)
                        add(m, i_input_ch, 1)
                        i_input_ch += 1
                        cmp(m, i_input_ch, input_ch)
                        str_sp(m)
                        add(m, 0, 0)
                    bcc(m, i_input_ch != input_ch)
                if input_ch != 0:
                    if m.dsp:
                        ldrd_sp(m)
                    else:
                        ldrd_sp(m)
                        ldr_sp(m)
                # i_out_x++: base_idx_x (uint16_t) += stride_x
                i_out_x += 1
                if m.dsp:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, i_out_x, 0)
                    add(m, 0, 0)
                    uxth(m, 0, 0)
                    cmp(m, i_out_x, output_x)
                    str_sp(m)
                else:
                    ldr_sp(m)
                    add(m, i_out_x, 0)
                    add(m, 0, 0)
                    ldr_sp(m)
                    uxth(m, 0, 0)
                    cmp(m, i_out_x, output_x)
                bcc(m, i_out_x != output_x)
            if output_x != 0:
                if m.dsp:
                    ldrd_sp(m)
                    ldrd_sp(m)
                    mov(m, 0)
                else:
                    mov(m, 0)
                    ldr_sp(m)
                    ldr_sp(m)
            # i_out_y++: base_idx_y (uint16_t) += stride_y
            i_out_y += 1
            if m.dsp:
                add(m, i_out_y, 0)
                add(m, 0, 0)
                cmp(m, i_out_y, output_y)
                uxth(m, 0, 0)
            else:
                ldr_sp(m)
                add(m, i_out_y, 0)
                add(m, 0, 0)
                uxth(m, 0, 0)
                cmp(m, i_out_y, output_y)
                str_sp(m)
            bcc(m, i_out_y != output_y)
        if output_y != 0:
            if m.dsp:
                ldrd_sp(m)
                ldrd_sp(m)
            else:
                ldrd_sp(m)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
        # input += (input_x * input_y * input_ch);
        ldr_sp(m)
        if m.dsp:
            ldr_sp(m)
        i_batch += 1
        add(m, i_batch, 0)
        input = add(m, input, 2 * input_x * input_y * input_ch)
        cmp(m, input_batches, i_batch)
        str_sp(m)
        bcc(m, i_batch != input_batches)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0
