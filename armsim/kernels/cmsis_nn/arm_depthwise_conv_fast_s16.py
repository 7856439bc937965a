"""arm_depthwise_conv_fast_s16 (Source/ConvolutionFunctions/arm_depthwise_conv_fast_s16.c),
non-MVE build.

ch_mult 1 (input_ch == output_ch), kernel_x * kernel_y < 512.  The function checks its
arguments (and calls arm_depthwise_conv_fast_s16_get_buffer_size when ctx->buf is NULL);
without ARM_MATH_DSP it then tail-calls arm_depthwise_conv_s16 (`call_depthwise_conv_fast_s16`
runs it on the host side).  With ARM_MATH_DSP, per output pixel: im2col of the kernel window
into ctx->buf (newlib memset of the padding rows, memset or memcpy per tap of a row), then
four channels at a time: REDUCE_MULTIPLIER of the four multipliers, two taps per step (two
weight words widened by SXTB16 / ROR, four q15x2 reads repacked by PKHBT / PKHTB, four SMLAD),
the odd last tap with LDRH + SMLABB, the int64 bias (ADDS / ADC), arm_nn_requantize_s64 per
channel (interleaved by gcc), the clamps, and the four int16 outputs packed with BFI into
two words; the remaining `output_ch & 3` channels one by one.

Arguments are the C function's: `arm_nn_types` structs, pointers as simulated addresses
(bias 0 = NULL, ctx.buf 0 = NULL).  Returns 0, -1 (ARM_CMSIS_NN_ARG_ERROR) or, plain C,
TAIL_CALL_GENERIC.

Every instruction, stack traffic included, is read off gcc 12.2 -O2's code of this file.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bfi, bl, cbz, cmp, it, ldr, ldr_lit,
                            ldr_sp, ldrd_sp, ldrh, ldrh_sp, ldrsb, ldrsh_sp, lsl, lsr, mla, mov,
                            mul, orr, pkhbt, pkhtb, pop, pop_pc, push, ror, rsb, smlabb, smlad,
                            smulbb, str_, str_sp, strd_sp, strh, sub, sxtb16, sxth, ubfx, umull,
                            uxth)
from armsim.cpu.ops import carry_of_add
from armsim.kernels.cmsis_nn.arm_depthwise_conv_get_buffer_sizes_s16 import (
    MAX_COL_COUNT, arm_depthwise_conv_fast_s16_get_buffer_size)
from armsim.kernels.cmsis_nn.arm_depthwise_conv_s16 import arm_depthwise_conv_s16
from armsim.kernels.libc import memcpy, memset

DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

#: the plain-C build's return: arm_depthwise_conv_s16 is to run next (its tail call)
TAIL_CALL_GENERIC = 1


@kernel(inline=True)
def _reduce(m, mult):
    """REDUCE_MULTIPLIER(mult) and its sign word, the literal-pool compare first."""
    ldr_lit(m)                                                # 0x7FFEFFFF
    cmp(m, mult, 0x7FFEFFFF)
    bcc(m, mult > 0x7FFEFFFF)
    if mult <= 0x7FFEFFFF:
        t = add(m, mult, 1 << 15)
        return asr(m, t, 16), asr(m, t, 31)
    return 0x7FFF, 0


@kernel(inline=True)
def _add_bias(m, lo, blo_ptr):
    """acc += *bias++ (int64): LDR, ADDS, MOV, LDR, ADC."""
    blo = ldr(m, blo_ptr)
    carry = carry_of_add(lo, blo)
    lo = add(m, lo, blo)
    mov(m, lo)
    bhi = ldr(m, blo_ptr + 4)
    return lo, bhi, carry


@kernel(inline=True)
def _shift64(m, plo, phi, t, shift):
    """A block channel's arm_nn_requantize_s64 shift, up to its ORR: the product's high word
    finished (ADD), then the low word of (phi:plo) >> (14 - shift) as LSRS / LSL with
    IT PL ASRPL for a shift of 32 or more.  Returns (low part, high part, wide part, n - 32)."""
    n = rsb(m, shift, 14)                                     # 14 - shift
    phi = add(m, phi, t)
    result = lsr(m, plo, n)
    up = add(m, shift, 18)                                    # 32 - n
    over = sub(m, n, 32)
    it(m, 1 if over < 0 else 0)                               # IT PL
    wide = 0
    if over >= 0:
        wide = asr(m, phi, over)
    left = lsl(m, phi, up)
    return result, left, wide, over


@kernel(inline=True)
def _reduced_spill(m, mult):
    """The block's reduced multiplier and its sign word into their stack slots (STRD of
    0x7FFF, 0 and a branch back for a saturated multiplier)."""
    if mult > 0x7FFEFFFF:
        mov(m, 0x7FFF)
        mov(m, 0)
        strd_sp(m)
        b(m)
    else:
        str_sp(m)
        str_sp(m)


@kernel(inline=True)
def _next_product(m, result, left, wide, over, lo, hi, red, sign):
    """A channel's shift finished (ORR, IT PL ORRPL, the + 1) with the next channel's
    product started in between (MUL, MLA, UMULL), as gcc interleaves them."""
    ldr_sp(m)                                                 # the next channel's sign word
    result = orr(m, result, left)
    ldr_sp(m)                                                 # the next channel's multiplier
    it(m, 1 if over < 0 else 0)                               # IT PL
    if over >= 0:
        result = orr(m, result, wide)
    t = mla(m, red, hi, mul(m, lo, sign))
    result = add(m, result, 1)
    plo, phi = umull(m, lo, red)
    ldr_sp(m)                                                 # output_activation_min
    return t, plo, phi, result


@kernel(inline=True)
def _max(m, x, lo):
    """MAX(x, lo): CMP, IT LT, MOVLT."""
    cmp(m, x, lo)
    it(m, x >= lo)
    if x < lo:
        x = mov(m, lo)
    return x


@kernel(inline=True)
def _min(m, x, hi):
    """MIN(x, hi): CMP, IT GE, MOVGE."""
    cmp(m, x, hi)
    it(m, x < hi)
    if x >= hi:
        x = mov(m, hi)
    return x


@kernel
def arm_depthwise_conv_fast_s16(m, ctx, dw_conv_params, quant_params, input_dims, input,
                                filter_dims, kernel, bias_dims, bias, output_dims, output):
    input_ch = input_dims.c
    output_ch = output_dims.c
    push(m, 9)                                                # push {r4-r11, lr}
    sub(m, 0, 0)                                              # sub sp, #...
    if not m.dsp:
        # Plain C: the checks, then return arm_depthwise_conv_s16(ctx, dw_conv_params, ...)
        ldr_sp(m)                                             # output_dims (stacked)
        mov(m, 0)
        ldrd_sp(m)                                            # bias, output_dims (stacked)
        mov(m, 0)
        ldr_sp(m)                                             # input_dims->c
        ldr_sp(m)                                             # output_dims->c
        mov(m, 0)
        ldr_sp(m)
        cmp(m, input_ch, output_ch)                           # if (input_ch != output_ch)
        str_sp(m)
        ldr_sp(m)
        ldrd_sp(m)
        bcc(m, input_ch != output_ch)
        bad = input_ch != output_ch
        if not bad:                                           # filter_dims->w * filter_dims->h >= MAX_COL_COUNT
            ldrd_sp(m)
            taps = mul(m, filter_dims.h, filter_dims.w)
            cmp(m, taps, MAX_COL_COUNT)
            bcc(m, taps >= MAX_COL_COUNT)
            bad = taps >= MAX_COL_COUNT
        if not bad:
            ldr_sp(m)                                         # ctx->buf
            cbz(m, ctx.buf == 0)
            if ctx.buf == 0:                                  # && ..._get_buffer_size(...) > 0
                mov(m, 0)
                strd_sp(m)
                bl(m)
                size = arm_depthwise_conv_fast_s16_get_buffer_size(m, input_dims, filter_dims)
                ldrd_sp(m)
                cmp(m, size, 0)
                bcc(m, size <= 0)
                bad = size > 0
        if bad:
            mov(m, -1)                                        # return ARM_CMSIS_NN_ARG_ERROR;
            add(m, 0, 0)
            pop_pc(m, 9)
            return -1
        mov(m, 0)
        strd_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)
        strd_sp(m)
        strd_sp(m)
        str_sp(m)
        add(m, 0, 0)
        pop(m, 9)                                             # pop {r4-r11, lr}
        b(m)                                                  # b.w arm_depthwise_conv_s16
        return TAIL_CALL_GENERIC

    mov(m, 0)
    ldr_sp(m)                                                 # output_dims (stacked)
    ldr_sp(m)                                                 # input_dims->c
    ldr_sp(m)                                                 # output_dims->c
    ldr_sp(m)                                                 # filter_dims (stacked)
    str_sp(m)
    cmp(m, input_ch, output_ch)                               # if (input_ch != output_ch)
    bcc(m, input_ch != output_ch)
    bad = input_ch != output_ch
    if not bad:
        ldr_sp(m)                                             # filter_dims->w
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)                                             # filter_dims->h
        str_sp(m)
        taps = mul(m, filter_dims.h, filter_dims.w)
        cmp(m, taps, MAX_COL_COUNT)                           # filter_dims->w * filter_dims->h >= MAX_COL_COUNT
        bcc(m, taps >= MAX_COL_COUNT)
        bad = taps >= MAX_COL_COUNT
    if not bad:
        ldr_sp(m)                                             # ctx->buf
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        cmp(m, ctx.buf, 0)
        bcc(m, ctx.buf == 0)
        if ctx.buf == 0:                                      # && ..._get_buffer_size(...) > 0
            mov(m, 0)
            mov(m, 0)
            bl(m)
            size = arm_depthwise_conv_fast_s16_get_buffer_size(m, input_dims, filter_dims)
            cmp(m, size, 0)
            bcc(m, size > 0)
            bad = size > 0
            if not bad:
                for _ in range(3):                            # ctx->buf, filter w and h again
                    ldr_sp(m)
                    str_sp(m)
                b(m)
    if bad:
        mov(m, -1)                                            # return ARM_CMSIS_NN_ARG_ERROR;
        b(m)
        add(m, 0, 0)
        pop_pc(m, 9)
        return -1
    input_x = input_dims.w
    input_y = input_dims.h
    input_batches = input_dims.n
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
    act_min = dw_conv_params.activation.min
    act_max = dw_conv_params.activation.max
    col_buffer_start = ctx.buf                                # int16_t *const col_buffer_start = buffer_a;
    for _ in range(5):                                        # the struct fields into stack slots
        ldr_sp(m)
        str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    for _ in range(2):
        ldr_sp(m)
        str_sp(m)
    cmp(m, input_batches, 0)                                  # i_batch < input_batches
    for _ in range(4):
        ldr_sp(m)
    str_sp(m)
    bcc(m, input_batches <= 0)
    kxy = kernel_x * kernel_y
    row_count4 = (output_ch // 4) & 0xFFFF if output_ch >= 0 else ((output_ch + 3) >> 2) & 0xFFFF
    col_count2 = (kxy // 2) & 0xFFFF
    odd = kxy & 1
    if input_batches > 0:
        # loop invariants
        ldr_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        cmp(m, output_ch, 0)
        mul(m, input_ch, kernel_x)                            # kernel_x * input_ch
        lsl(m, input_ch, 1)
        and_(m, output_ch, 3)
        mov(m, output_ch)
        it(m, 1 if output_ch >= 0 else 0)                     # output_ch / 4: IT LT ADDLT #3
        if output_ch < 0:
            add(m, output_ch, 3)
        ldr_sp(m)
        str_sp(m)
        ubfx(m, output_ch, 2, 16)                             # row_count = output_ch / 4
        mul(m, kernel_x, kernel_y)
        add(m, kxy, 0)
        ubfx(m, kxy, 1, 16)                                   # col_count = (kernel_x * kernel_y) / 2
        sub(m, 0, 1)
        mov(m, 0)
        str_sp(m)
        uxth(m, 0, 0)
        sub(m, 0, 1)
        uxth(m, 0, 0)
        add(m, 0, 1)
        lsl(m, 0, 1)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        mul(m, input_ch, input_x)
        lsl(m, 0, 1)
        str_sp(m)
        sub(m, 0, 1)
        uxth(m, 0, 0)
        ldr_sp(m)
        lsl(m, input_ch, 2)
        smulbb(m, kernel_x, kernel_y)                         # (uint16_t)(kernel_x * kernel_y)
        str_sp(m)
        add(m, kernel_x, -1)
        ldr_sp(m)
        mul(m, input_ch, kernel_x - 1)
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 32)
        add(m, 0, 1)
        add(m, 0, 0)
        str_sp(m)
        mov(m, 0)
        lsl(m, 0, 2)
        uxth(m, 0, 0)
        mov(m, 0)
        uxth(m, kxy, 0)
        str_sp(m)
        and_(m, kxy, 1)
        ldr_sp(m)
        str_sp(m)
        add(m, 0, 4)
        str_sp(m)
        mul(m, 0, 0)
        ldr_sp(m)
        str_sp(m)
        mla(m, 0, 0, 0)
        str_sp(m)
        add(m, 0, 0)
        str_sp(m)
        ldr_sp(m)
        add(m, 0, 0)
        mov(m, 0)
        mla(m, 0, 0, 0)
        str_sp(m)
        lsl(m, 0, 3)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        for _ in range(5):
            mov(m, 0)
    out = output
    i_batch = 0
    while i_batch < input_batches:
        cmp(m, output_y, 0)                                   # i_out_y < output_y
        bcc(m, output_y <= 0)
        if output_y > 0:
            ldr_sp(m)
            uxth(m, 0, 0)
            strd_sp(m)
            rsb(m, pad_y, 0)
            mov(m, 0)
            mov(m, 0)
            ldr_sp(m)
            strd_sp(m)
            mov(m, 0)
            uxth(m, -pad_y, 0)
            for _ in range(4):
                mov(m, 0)
        i_out_y = 0
        while i_out_y < output_y:
            base_idx_y = ((i_out_y * stride_y - pad_y + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_y * stride_y) - pad_y)
            ldr_sp(m)                                         # output_x
            sxth(m, base_idx_y, 0)
            cmp(m, output_x, 0)                               # i_out_x < output_x
            str_sp(m)
            bcc(m, output_x <= 0)
            ker_y_start = -base_idx_y if base_idx_y < 0 else 0   # MAX(0, -base_idx_y)
            below = input_y - base_idx_y
            ker_y_end = kernel_y if kernel_y < below else below  # MIN(kernel_y, input_y - base_idx_y)
            if output_x > 0:
                ldr_sp(m)                                     # kernel_y
                sub(m, input_y, base_idx_y)
                cmp(m, kernel_y, below)
                mov(m, kernel_y)
                rsb(m, base_idx_y, 0)
                it(m, kernel_y < below)
                if kernel_y >= below:
                    mov(m, below)
                mov(m, kernel_y)
                diff = sub(m, kernel_y, ker_y_end)            # const int diff = kernel_y - ker_y_end;
                diff_bytes = lsl(m, mul(m, input_ch * kernel_x, diff), 1)
                str_sp(m)
                start_index = mul(m, input_ch * kernel_x, -base_idx_y)  # (kernel_x * input_ch) * ker_y_start
                str_sp(m)
                str_sp(m)
                mov(m, 0)
                ldr_sp(m)                                     # pad_x
                str_sp(m)
                rsb(m, pad_x, 0)
                uxth(m, -pad_x, 0)                            # base_idx_x, kept as uint16_t
                str_sp(m)
                start_bytes = lsl(m, start_index, 1)
                str_sp(m)
                strd_sp(m)
                ldrh_sp(m)                                    # (uint16_t)stride_x
                str_sp(m)
                strd_sp(m)
                strd_sp(m)
                mov(m, 0)
                str_sp(m)
                str_sp(m)
                mov(m, 0)
            i_out_x = 0
            while i_out_x < output_x:
                base_idx_x = ((i_out_x * stride_x - pad_x + 0x8000) & 0xFFFF) - 0x8000  # (int16_t)((i_out_x * stride_x) - pad_x)
                ldrsh_sp(m)                                   # base_idx_x
                str_sp(m)
                ldr_sp(m)                                     # base_idx_y
                cmp(m, base_idx_y, 0)                         # if (ker_y_start != 0)
                bcc(m, base_idx_y < 0)
                index = 0                                     # int32_t index = 0;
                if base_idx_y < 0:                            # memset(&col_buffer[index], 0, (kernel_x * input_ch) * ker_y_start * 2)
                    ldr_sp(m)
                    ldr_sp(m)
                    mov(m, 0)
                    bl(m)
                    memset(m, col_buffer_start, 0, start_bytes)
                    ldr_sp(m)
                    ldr_sp(m)
                    b(m)
                    index = start_index
                else:
                    mov(m, 0)
                    mov(m, 0)
                i_ker_y = ker_y_start
                ldr_sp(m)                                     # ker_y_end
                cmp(m, i_ker_y, ker_y_end)
                bcc(m, i_ker_y >= ker_y_end)
                if i_ker_y < ker_y_end:
                    for _ in range(4):
                        ldr_sp(m)
                    str_sp(m)
                    idx_y = add(m, base_idx_y, i_ker_y)       # base_idx_y + i_ker_y
                    row = mla(m, input_x, idx_y, base_idx_x)
                    src = mla(m, input_ch * 2, row, input)    # input + (idx_y * input_x + idx_x) * input_ch
                    mov(m, 0)
                    ldr_sp(m)
                    mov(m, 0)
                    add(m, base_idx_x, kernel_x)
                    mov(m, 0)
                    mov(m, 0)
                    while i_ker_y < ker_y_end:
                        ldr_sp(m)                             # kernel_x
                        cmp(m, kernel_x, 0)
                        bcc(m, kernel_x <= 0)
                        if kernel_x > 0:
                            ldr_sp(m)                         # col_buffer
                            ldr_sp(m)
                            str_sp(m)
                            dst = add(m, col_buffer_start, index << 1)  # &col_buffer[index]
                            mov(m, 0)
                            b(m)
                            tap_src = src
                            i_ker_x = 0
                            idx_x = base_idx_x
                            while i_ker_x < kernel_x:
                                cmp(m, idx_x, 0)              # if (idx_x < 0 || idx_x >= input_x)
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
                                if outside:                   # memset(&col_buffer[index], 0, input_ch * sizeof(int16_t))
                                    add(m, idx_x, 0)
                                    bl(m)
                                    memset(m, dst, 0, input_ch * 2)
                                    cmp(m, kernel_x, i_ker_x)
                                    dst = add(m, dst, input_ch * 2)
                                    tap_src = add(m, tap_src, input_ch * 2)
                                    bcc(m, i_ker_x == kernel_x)
                                else:                         # arm_memcpy_q15(&col_buffer[index], input + ..., input_ch * 2)
                                    mov(m, 0)
                                    add(m, idx_x, 0)
                                    bl(m)
                                    memcpy(m, dst, tap_src, input_ch * 2)
                                    cmp(m, kernel_x, i_ker_x)
                                    dst = add(m, dst, input_ch * 2)
                                    tap_src = add(m, tap_src, input_ch * 2)
                                    bcc(m, i_ker_x != kernel_x)
                            index += kernel_x * input_ch      # index += input_ch (per tap)
                            ldr_sp(m)
                            ldr_sp(m)
                            mov(m, 0)
                            add(m, 0, 0)
                            ldr_sp(m)
                            add(m, 0, 0)
                        ldr_sp(m)                             # input_x * input_ch * 2
                        src = add(m, src, input_x * input_ch * 2)
                        ldr_sp(m)                             # ker_y_end
                        i_ker_y = add(m, i_ker_y, 1)
                        cmp(m, i_ker_y, ker_y_end)
                        bcc(m, i_ker_y != ker_y_end)
                    ldr_sp(m)
                    mov(m, 0)
                ldr_sp(m)                                     # kernel_y
                ldr_sp(m)                                     # input_y - base_idx_y
                cmp(m, kernel_y, below)                       # if (diff != 0)
                bcc(m, kernel_y > below)
                if kernel_y > below:                          # memset(&col_buffer[index], 0, (kernel_x * input_ch) * diff * 2)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, col_buffer_start, index << 1)
                    mov(m, 0)
                    bl(m)
                    memset(m, col_buffer_start + 2 * index, 0, diff_bytes)
                ldr_sp(m)                                     # row_count
                cmp(m, row_count4, 0)                         # while (row_count)
                bcc(m, row_count4 == 0 if kernel_y <= below else row_count4 != 0)
                ch = 0                                        # bias / output_mult / output_shift index
                if row_count4 != 0:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)                                 # bias
                    str_sp(m)
                    add(m, 0, 16)
                    add(m, 0, 16)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)                                 # row_shift = 0
                    str_sp(m)
                    mov(m, 0)
                else:
                    ldr_sp(m)
                    ldr_sp(m)
                    ldrd_sp(m)
                    mov(m, 0)
                    b(m)
                row_count = row_count4
                while row_count:
                    # output_mult_N = REDUCE_MULTIPLIER(output_mult[N]); output_mult += 4;
                    mult = ldr(m, output_mult + 4 * ch)
                    red0, sign0 = _reduce(m, mult)
                    _reduced_spill(m, mult)
                    mult = ldr(m, output_mult + 4 * ch + 4)
                    red1, sign1 = _reduce(m, mult)
                    _reduced_spill(m, mult)
                    mult = ldr(m, output_mult + 4 * ch + 8)
                    red2, sign2 = _reduce(m, mult)
                    _reduced_spill(m, mult)
                    mult = ldr(m, output_mult + 4 * ch + 12)
                    red3, sign3 = _reduce(m, mult)
                    _reduced_spill(m, mult)
                    row_shift = ch                            # row_shift (uint16_t): 4 per block
                    ldr_sp(m)                                 # row_shift
                    ldr_sp(m)                                 # col_buffer_start
                    ldr_sp(m)                                 # (kernel_x * kernel_y) / 2
                    add(m, row_shift, 4)                      # row_shift += 4;
                    col_pos = add(m, col_buffer_start, row_shift << 1)  # col_pos = col_buffer_start + row_shift
                    ldr_sp(m)                                 # kernel
                    uxth(m, row_shift + 4, 0)
                    row_pos = add(m, kernel, row_shift)       # row_pos = kernel + row_shift
                    str_sp(m)
                    col_count = col_count2
                    cmp(m, col_count, 0)                      # while (col_count)
                    bcc(m, col_count == 0)
                    sum_1 = 0
                    sum_2 = 0
                    sum_3 = 0
                    sum_4 = 0
                    if col_count != 0:
                        mov(m, 0)
                        strd_sp(m)
                        strd_sp(m)
                        strd_sp(m)
                        for _ in range(4):
                            mov(m, 0)
                        while col_count:
                            ldr_sp(m)                         # input_ch
                            row_b1 = ldr(m, row_pos)          # row_b1 = arm_nn_read_s8x4(row_pos);
                            row_a1 = ldr(m, row_pos + input_ch)  # row_a1 = arm_nn_read_s8x4(row_pos + input_ch);
                            col_a = ldr(m, col_pos)           # col_a = arm_nn_read_s16x2(col_pos);
                            col_b = ldr(m, col_pos + 2 * input_ch)  # col_b = arm_nn_read_s16x2(col_pos + input_ch);
                            ldr_sp(m)                         # sum_1
                            col_c = pkhbt(m, col_b, col_a, 16)  # col_c = PKHBT(col_b, col_a, 16);
                            ror_b1 = ror(m, row_b1, 8)
                            ror_a1 = ror(m, row_a1, 8)
                            row_a2 = sxtb16(m, row_b1, 0)     # row_a2 = SXTB16(row_b1);
                            row_b2 = sxtb16(m, row_a1, 0)     # row_b2 = SXTB16(row_a1);
                            col_a = pkhtb(m, col_b, col_a, 16)  # col_a = PKHTB(col_b, col_a, 16);
                            row_b1 = sxtb16(m, ror_b1, 0)     # row_b1 = SXTB16(ROR(row_b1, 8));
                            row_a1 = sxtb16(m, ror_a1, 0)     # row_a1 = SXTB16(ROR(row_a1, 8));
                            row_c = pkhbt(m, row_b2, row_a2, 16)  # row_c = PKHBT(row_b2, row_a2, 16);
                            sum_1 = smlad(m, col_c, row_c, sum_1)  # sum_1 = SMLAD(col_c, row_c, sum_1);
                            str_sp(m)
                            row_c = pkhbt(m, row_b1, row_a1, 16)  # row_c = PKHBT(row_b1, row_a1, 16);
                            sum_2 = smlad(m, col_a, row_c, sum_2)  # sum_2 = SMLAD(col_a, row_c, sum_2);
                            row_c = pkhtb(m, row_a2, row_b2, 16)  # row_c = PKHTB(row_a2, row_b2, 16);
                            ldr_sp(m)                         # (input_ch << 1) + 4
                            col_a = ldr(m, col_pos + 4)       # col_a = arm_nn_read_s16x2(col_pos + 2);
                            col_b = ldr(m, col_pos + 2 * input_ch + 4)  # col_b = arm_nn_read_s16x2(col_pos + input_ch + 2);
                            col_c = pkhbt(m, col_b, col_a, 16)  # col_c = PKHBT(col_b, col_a, 16);
                            col_a = pkhtb(m, col_b, col_a, 16)  # col_a = PKHTB(col_b, col_a, 16);
                            sum_3 = smlad(m, col_c, row_c, sum_3)  # sum_3 = SMLAD(col_c, row_c, sum_3);
                            ldr_sp(m)                         # sum_4
                            row_c = pkhtb(m, row_a1, row_b1, 16)  # row_c = PKHTB(row_a1, row_b1, 16);
                            sum_4 = smlad(m, col_a, row_c, sum_4)  # sum_4 = SMLAD(col_a, row_c, sum_4);
                            str_sp(m)
                            col_count = sub(m, col_count, 1)  # col_count--;
                            ldr_sp(m)                         # input_ch * 4
                            col_count = uxth(m, col_count, 0)
                            row_pos = add(m, row_pos, input_ch << 1)  # row_pos += input_ch << 1;
                            col_pos = add(m, col_pos, input_ch << 2)  # col_pos += input_ch << 1;  (int16_t *)
                            cmp(m, col_count, 0)
                            bcc(m, col_count != 0)
                        ldrd_sp(m)
                        ldr_sp(m)
                        ldrd_sp(m)
                        add(m, 0, 0)
                        ldrd_sp(m)
                        ldr_sp(m)
                        add(m, 0, 0)
                    else:
                        ldr_sp(m)                             # the zeros
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        b(m)
                    ldr_sp(m)                                 # (kernel_x * kernel_y) & 0x1
                    cbz(m, odd == 0)                          # while (col_count)  (0 or 1 iteration)
                    if odd != 0:                              # sum_N += row_pos[N] * col_pos[N];
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
                    # int64_t acc_N = sum_N;  if (bias) acc_N += *bias++;
                    lo0 = sum_1
                    lo1 = sum_2
                    lo2 = sum_3
                    lo3 = sum_4
                    hi0 = asr(m, sum_1, 31)
                    hi1 = asr(m, sum_2, 31)
                    hi2 = asr(m, sum_3, 31)
                    hi3 = asr(m, sum_4, 31)
                    cbz(m, bias == 0)
                    if bias != 0:
                        lo0, bhi, carry = _add_bias(m, lo0, bias + 8 * ch)
                        hi0 = adc(m, hi0, bhi, carry)
                        lo1, bhi, carry = _add_bias(m, lo1, bias + 8 * ch + 8)
                        hi1 = adc(m, hi1, bhi, carry)
                        lo2, bhi, carry = _add_bias(m, lo2, bias + 8 * ch + 16)
                        hi2 = adc(m, hi2, bhi, carry)
                        blo = ldr(m, bias + 8 * ch + 24)
                        carry = carry_of_add(lo3, blo)
                        lo3 = add(m, lo3, blo)
                        mov(m, lo3)
                        bhi = ldr(m, bias + 8 * ch + 28)
                        add(m, 0, 32)
                        hi3 = adc(m, hi3, bhi, carry)
                    # result = arm_nn_requantize_s64(acc_N, output_mult_N, *output_shift++) and
                    # MAX(result, min): gcc interleaves each channel's product with the previous
                    # channel's shift
                    shift_ptr = output_shift + 4 * ch
                    ldr_sp(m)                                 # sign of output_mult_1
                    ldr_sp(m)                                 # output_mult_1
                    t = mla(m, red0, hi0, mul(m, lo0, sign0))
                    plo, phi = umull(m, lo0, red0)
                    ldr_sp(m)                                 # the output_shift pointer
                    shift = ldr(m, shift_ptr)
                    res0, left, wide, over = _shift64(m, plo, phi, t, shift)
                    t, plo, phi, res0 = _next_product(m, res0, left, wide, over, lo1, hi1, red1, sign1)
                    res0 = _max(m, asr(m, res0, 1), act_min)
                    ldr_sp(m)
                    shift = ldr(m, shift_ptr + 4)
                    res1, left, wide, over = _shift64(m, plo, phi, t, shift)
                    t, plo, phi, res1 = _next_product(m, res1, left, wide, over, lo2, hi2, red2, sign2)
                    res1 = _max(m, asr(m, res1, 1), act_min)
                    ldr_sp(m)
                    shift = ldr(m, shift_ptr + 8)
                    res2, left, wide, over = _shift64(m, plo, phi, t, shift)
                    t, plo, phi, res2 = _next_product(m, res2, left, wide, over, lo3, hi3, red3, sign3)
                    res2 = _max(m, asr(m, res2, 1), act_min)
                    ldr_sp(m)
                    shift = ldr(m, shift_ptr + 12)
                    phi = add(m, phi, t)
                    n = rsb(m, shift, 14)
                    up = add(m, shift, 18)
                    left = lsl(m, phi, up)
                    res3 = lsr(m, plo, n)
                    over = sub(m, n, 32)
                    res3 = orr(m, res3, left)
                    it(m, 2 if over < 0 else 0)               # ITT PL
                    if over >= 0:
                        wide = asr(m, phi, over)
                        res3 = orr(m, res3, wide)
                    ldr_sp(m)                                 # output_activation_min
                    res3 = add(m, res3, 1)
                    res3 = _max(m, asr(m, res3, 1), act_min)
                    # result = MIN(result, output_activation_max)
                    ldr_sp(m)
                    res0 = _min(m, res0, act_max)
                    res2 = _min(m, res2, act_max)
                    res1 = _min(m, res1, act_max)
                    res3 = _min(m, res3, act_max)
                    ldr_sp(m)                                 # the output_shift pointer += 4
                    add(m, 0, 16)
                    str_sp(m)
                    low = mov(m, 0)                           # *output++ = (int16_t)result; (x 4, two words)
                    high = mov(m, low)
                    high = bfi(m, high, res2, 0, 16)
                    low = bfi(m, low, res0, 0, 16)
                    ldr_sp(m)                                 # output
                    low = bfi(m, low, res1, 16, 16)
                    high = bfi(m, high, res3, 16, 16)
                    str_(m, out, low)
                    str_(m, out + 4, high)
                    out = add(m, out, 8)
                    str_sp(m)
                    ldr_sp(m)                                 # the blocks' end
                    add(m, 0, 16)
                    row_count -= 1                            # row_count--;
                    ch += 4
                    cmp(m, row_count, 0)
                    bcc(m, row_count != 0)
                if row_count4 != 0:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    ldrd_sp(m)
                    mov(m, 0)
                    ldr_sp(m)
                    mov(m, 0)
                row_count = output_ch & 3                     # row_count = output_ch & 0x3;
                ldr_sp(m)
                cmp(m, row_count, 0)
                bcc(m, row_count == 0)
                if row_count != 0:
                    sub(m, 0, 4)
                    add(m, ch, row_count)
                    uxth(m, 0, 0)
                    mov(m, 0)
                    ldr_sp(m)                                 # input_ch
                    str_sp(m)
                    mov(m, 0)
                    ldr_sp(m)                                 # (uint16_t)(kernel_x * kernel_y)
                    mov(m, 0)
                    mov(m, 0)
                    mov(m, 0)
                col_count1 = kxy & 0xFFFF
                while row_count:
                    row_shift = ch
                    add(m, row_shift, 1)                      # row_shift += 1;
                    mov(m, row_shift)
                    uxth(m, row_shift + 1, 0)
                    cmp(m, col_count1, 0)
                    bcc(m, col_count1 == 0)
                    acc = 0
                    if col_count1 != 0:                       # for (int i = 0; i < col_count; i++)
                        ldr_sp(m)                             # kernel
                        str_sp(m)
                        row_pos = add(m, kernel, row_shift)   # row_pos = kernel + row_shift
                        ldr_sp(m)                             # col_buffer_start
                        i = mov(m, 0)
                        col_pos = add(m, col_buffer_start, row_shift << 1)  # col_pos = col_buffer_start + row_shift
                        acc = mov(m, 0)
                        b(m)
                        while i < col_count1:                 # sum += row_pos[i * input_ch] * col_pos[i * input_ch];
                            r = ldrsb(m, row_pos)
                            c = ldrh(m, col_pos)
                            i = add(m, i, 1)
                            cmp(m, i, col_count1)
                            row_pos = add(m, row_pos, input_ch)
                            acc = smlabb(m, c, r, acc)
                            col_pos = add(m, col_pos, input_ch << 1)
                            bcc(m, i != col_count1)
                        ldr_sp(m)
                        hi = asr(m, acc, 31)                  # int64_t acc = sum;
                    else:
                        mov(m, 0)
                        hi = mov(m, 0)
                        b(m)
                    lo = acc
                    cbz(m, bias == 0)                         # if (bias) acc += *bias++;
                    if bias != 0:
                        bhi = ldr(m, bias + 8 * ch + 4)
                        blo = ldr(m, bias + 8 * ch)
                        carry = carry_of_add(lo, blo)
                        lo = add(m, lo, blo)
                        hi = adc(m, hi, bhi, carry)
                        mov(m, lo)
                    mult = ldr(m, output_mult + 4 * ch)       # REDUCE_MULTIPLIER(*output_mult)
                    red, sign = _reduce(m, mult)
                    if mult > 0x7FFEFFFF:
                        mov(m, 0x7FFF)
                        mov(m, 0)
                        b(m)
                    t = mla(m, red, hi, mul(m, lo, sign))
                    plo, phi = umull(m, lo, red)
                    phi = add(m, phi, t)
                    shift = ldr(m, output_shift + 4 * ch)     # *output_shift++
                    n = rsb(m, shift, 14)
                    up = add(m, shift, 18)
                    result = lsr(m, plo, n)
                    left = lsl(m, phi, up)
                    over = sub(m, n, 32)
                    it(m, 1 if over < 0 else 0)               # IT PL
                    wide = 0
                    if over >= 0:
                        wide = asr(m, phi, over)
                    result = orr(m, result, left)
                    it(m, 1 if over < 0 else 0)
                    if over >= 0:
                        result = orr(m, result, wide)
                    ldr_sp(m)
                    result = add(m, result, 1)
                    result = _max(m, asr(m, result, 1), act_min)
                    ldr_sp(m)
                    result = _min(m, result, act_max)
                    cmp(m, row_count, 1)
                    strh(m, out, result)                      # *output++ = (int16_t)result;
                    out += 2
                    ch += 1
                    row_count -= 1                            # row_count--;
                    bcc(m, row_count != 0)
                if output_ch & 3:
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                # i_out_x++ (base_idx_x kept as uint16_t)
                ldr_sp(m)
                ldr_sp(m)
                add(m, 0, 0)
                uxth(m, 0, 0)
                ldr_sp(m)                                     # i_out_x
                str_sp(m)
                ldr_sp(m)                                     # output_x
                i_out_x = add(m, i_out_x, 1)
                cmp(m, output_x, i_out_x)
                str_sp(m)
                bcc(m, i_out_x != output_x)
            if output_x > 0:
                ldrd_sp(m)
                ldrd_sp(m)
                ldrd_sp(m)
                mov(m, 0)
            i_out_y = add(m, i_out_y, 1)
            add(m, 0, 0)                                      # base_idx_y (uint16_t) += stride_y
            cmp(m, output_y, i_out_y)
            uxth(m, 0, 0)
            bcc(m, i_out_y != output_y)
        if output_y > 0:
            mov(m, 0)
            mov(m, 0)
            ldr_sp(m)
            ldr_sp(m)
            ldr_sp(m)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            ldr_sp(m)
        # input += (input_x * input_y * input_ch);
        ldr_sp(m)
        i_batch = add(m, i_batch, 1)
        input = add(m, input, 2 * input_x * input_y * input_ch)
        cmp(m, input_batches, i_batch)
        str_sp(m)
        bcc(m, i_batch != input_batches)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


def call_depthwise_conv_fast_s16(m, ctx, dw_conv_params, quant_params, input_dims, input,
                                 filter_dims, kernel, bias_dims, bias, output_dims, output,
                                 tracer=None):
    """Run arm_depthwise_conv_fast_s16 and, in the plain-C build, the arm_depthwise_conv_s16 it
    tail-calls.  Returns the fast kernel's status (TAIL_CALL_GENERIC when it handed over)."""
    args = (ctx, dw_conv_params, quant_params, input_dims, input, filter_dims, kernel,
            bias_dims, bias, output_dims, output)
    status = run(arm_depthwise_conv_fast_s16, m, *args, tracer=tracer)
    if status == TAIL_CALL_GENERIC:
        run(arm_depthwise_conv_s16, m, *args, tracer=tracer)
    return status
