"""arm_depthwise_conv_s4 (Source/ConvolutionFunctions/arm_depthwise_conv_s4.c).

The generic depthwise convolution on packed int4 weights (two weights per byte, element 2k
in the low nibble of byte k): any channel multiplier, batches, dilation.  The static helper
`depthwise_conv_s4_generic` is inlined into the entry point.  It has four loops, chosen by
the parity of input_ch and ch_mult:
  even input_ch, ch_mult == 1:  two input channels per step, one weight byte (both nibbles);
  even input_ch, odd ch_mult:   one output channel per step, nibble picked by get_low_nibble;
  even input_ch, even ch_mult:  two ch_mult steps per weight byte;
  odd input_ch:                 one output channel per step, the nibble flipping per tap.
No ARM_MATH_DSP variant: the DSP and plain-C builds run the same C, one MLA per tap.
The nibbles are extracted as gcc does it: SBFX #0,#4 (low, `(int8_t)(k << 4) >> 4`),
ASR #4 (high, `k >> 4`).
With odd input_ch the C's nibble walk (get_low_nibble flipped per tap executed, and once more
per odd kernel_x * kernel_y) leaves the weight layout when a window is clipped by padding or a
second batch starts; this port does what the C does there (checked against the host-compiled
C), which then differs from TFLM's reference.  CMSIS-NN's own odd-input_ch vectors avoid it.

Counts: the operations of the C; only the even-ch_mult tap loop is transcribed from gcc 12.2
-O2's objdump (its stack reloads/spills as fitted_* ops: 6 reloads per tap on M4, 8 reloads
and 2 spills on M3).  The even-ch_mult row loop's stack traffic is transcribed from the M4 objdump (used for M3
too); the rest of that branch's per-step stack traffic is fitted (`_fitted_step_even_ch_mult`)
to dw_s4_3x3_6x6x8_m2_p1, the one measured case reaching this kernel.  The other three loops
count the C's operations only (no stack traffic: low, uncalibrated).

Arguments are the C function's, flattened (struct fields as ints, pointers as simulated
addresses, bias 0 = NULL).  Returns 0 (ARM_CMSIS_NN_SUCCESS).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, asr, b, bcc, cmp, eor, fitted_add, fitted_ldr_sp,
                            fitted_ldrd_sp, fitted_mov, fitted_str_sp, fitted_strd_sp, ldr, ldrsb,
                            mla, mov, mul, pop_pc, push, rsb, sbfx, sdiv, strb, sub)
from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize
from armsim.kernels.minmax import max_lt, min_gt


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
def _window(m, base_idx, dilation, input_size, kernel_size):
    """ker_start / ker_end of depthwise_conv_s4_generic along one axis."""
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
def _nibble(m, kernel, ker_idx, low):
    """ker_val = low ? (int8_t)(kernel[ker_idx] << 4) >> 4 : kernel[ker_idx] >> 4."""
    byte = ldrsb(m, kernel + ker_idx)
    if low:
        return sbfx(m, byte, 0, 4)
    return asr(m, byte, 4)


@kernel(inline=True)
def _row_spills_even_ch_mult(m):
    """The even-ch_mult row loop's stack traffic and register moves around the tap loop
    (gcc 12.2 -O2 -mcpu=cortex-m4 objdump; used for the M3 build as well)."""
    for _ in range(4):
        fitted_ldr_sp(m)
    fitted_ldrd_sp(m)
    fitted_strd_sp(m)
    fitted_str_sp(m)
    for _ in range(5):
        fitted_mov(m)


@kernel(inline=True)
def _fitted_step_even_ch_mult(m):
    """Fitted: the even-ch_mult channel step's stack traffic, moves and index adds that the
    C's operations above do not count, fitted to dw_s4_3x3_6x6x8_m2_p1 (288 steps, 768 rows:
    the measured histogram minus the port's, per step, after the rows' transcribed share)."""
    if m.dsp:
        for _ in range(43):
            fitted_ldr_sp(m)                                  # fitted
        for _ in range(11):
            fitted_str_sp(m)                                  # fitted
        for _ in range(2):
            fitted_ldrd_sp(m)                                 # fitted
            fitted_strd_sp(m)                                 # fitted
        for _ in range(7):
            fitted_mov(m)                                     # fitted
    else:
        for _ in range(39):
            fitted_ldr_sp(m)                                  # fitted
        for _ in range(14):
            fitted_str_sp(m)                                  # fitted
        for _ in range(3):
            fitted_ldrd_sp(m)                                 # fitted
        fitted_strd_sp(m)                                     # fitted
        for _ in range(4):
            fitted_mov(m)                                     # fitted
    for _ in range(14):
        fitted_add(m)                                         # fitted
    b(m)                                                      # fitted: the two requantize joins
    b(m)                                                      # fitted


@kernel(inline=True)
def depthwise_conv_s4_generic(m, input, input_batches, input_x, input_y, input_ch, kernel,
                              ch_mult, kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y,
                              bias, output, output_shift, output_mult, output_x, output_y,
                              output_offset, input_offset, act_min, act_max, dilation_x,
                              dilation_y):
    i_out = 0
    kernel_index_offset = asr(m, input_ch, 1)                 # input_ch >> 1
    even_ch = (input_ch & 1) == 0
    cmp(m, input_ch & 1, 0)                                   # if (!(input_ch % 2))
    bcc(m, not even_ch)
    ker_step = mul(m, kernel_index_offset, ch_mult)           # kernel_index_offset * ch_mult
    if ch_mult == 1:
        ker_step = kernel_index_offset
    pair_outputs = even_ch and (ch_mult & 1) == 0 or even_ch and ch_mult == 1
    step_outputs = 2 if pair_outputs else 1                   # outputs per channel step
    i_batch = 0
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)
    while i_batch < input_batches:
        i_out_y = 0
        while i_out_y < output_y:
            base_idx_y = sub(m, mul(m, i_out_y, stride_y), pad_y)   # (i_out_y * stride_y) - pad_y
            i_out_x = 0
            while i_out_x < output_x:
                base_idx_x = sub(m, mul(m, i_out_x, stride_x), pad_x)
                idx_out_ch_s4 = mov(m, 0)                     # int idx_out_ch_s4 = 0;
                get_low_nibble = mov(m, 1)                    # int get_low_nibble = 1;
                if even_ch:
                    cmp(m, ch_mult, 1)                        # if (ch_mult == 1) / else if (ch_mult % 2)
                    bcc(m, ch_mult != 1)
                idx_out_ch = 0                                # output channel of this step
                while idx_out_ch < input_ch * ch_mult:
                    i_input_ch = idx_out_ch // ch_mult
                    if not pair_outputs and idx_out_ch != 0 and idx_out_ch % 2 == 0:
                        cmp(m, idx_out_ch & 1, 0)             # if (idx_out_ch && (idx_out_ch % 2 == 0))
                        idx_out_ch_s4 = add(m, idx_out_ch_s4, 1)
                    uneven = 0                                # kernel_index_offset_uneven = 0
                    ker_x_start, ker_x_end = _window(m, base_idx_x, dilation_x, input_x, kernel_x)
                    ker_y_start, ker_y_end = _window(m, base_idx_y, dilation_y, input_y, kernel_y)
                    acc_0 = mov(m, 0)
                    acc_1 = 0
                    if pair_outputs:
                        acc_1 = mov(m, 0)
                    cmp(m, bias, 0)                           # if (bias)
                    bcc(m, bias == 0)
                    if bias != 0:
                        acc_0 = ldr(m, bias + 4 * idx_out_ch)
                        if pair_outputs:
                            acc_1 = ldr(m, bias + 4 * idx_out_ch + 4)
                    if pair_outputs and ch_mult != 1:
                        _fitted_step_even_ch_mult(m)
                    idx_y = mla(m, dilation_y, ker_y_start, base_idx_y)
                    i_ker_y = ker_y_start
                    cmp(m, i_ker_y, ker_y_end)
                    bcc(m, i_ker_y >= ker_y_end)
                    while i_ker_y < ker_y_end:
                        idx_x = mla(m, dilation_x, ker_x_start, base_idx_x)
                        idx_0 = mla(m, mla(m, idx_y, input_x, idx_x), input_ch, i_input_ch)
                        ker_idx_0 = add(m, mla(m, mla(m, i_ker_y, kernel_x, ker_x_start),
                                               ker_step, idx_out_ch_s4), uneven)
                        in_step = mul(m, dilation_x, input_ch)
                        if pair_outputs and ch_mult != 1:
                            _row_spills_even_ch_mult(m)
                        i_ker_x = ker_x_start
                        cmp(m, i_ker_x, ker_x_end)
                        bcc(m, i_ker_x >= ker_x_end)
                        while i_ker_x < ker_x_end:
                            if pair_outputs and ch_mult != 1:
                                # even ch_mult: the tap loop as gcc 12.2 -O2 emits it
                                # (objdump, -mcpu=cortex-m4 / cortex-m3): its live values
                                # reloaded from stack slots, on M3 the two sums spilled too
                                fitted_ldr_sp(m)
                                fitted_ldr_sp(m)
                                fitted_ldr_sp(m)
                                byte = ldrsb(m, kernel + ker_idx_0)
                                ker_idx_0 = add(m, ker_idx_0, ker_step)
                                fitted_ldr_sp(m)
                                if not m.dsp:
                                    fitted_ldr_sp(m)          # acc_0
                                v0 = ldrsb(m, input + idx_0)
                                idx_0 = add(m, idx_0, in_step)
                                fitted_ldr_sp(m)              # input_offset
                                if m.dsp:
                                    v0 = add(m, v0, input_offset)
                                    low = sbfx(m, byte, 0, 4)
                                    acc_1 = mla(m, v0, asr(m, byte, 4), acc_1)
                                    fitted_ldr_sp(m)          # ker_x_end
                                    i_ker_x = add(m, i_ker_x, 1)
                                    cmp(m, i_ker_x, ker_x_end)
                                    acc_0 = mla(m, v0, low, acc_0)
                                else:
                                    i_ker_x = add(m, i_ker_x, 1)
                                    v0 = add(m, v0, input_offset)
                                    acc_0 = mla(m, v0, sbfx(m, byte, 0, 4), acc_0)
                                    fitted_str_sp(m)          # acc_0
                                    fitted_ldr_sp(m)          # acc_1
                                    acc_1 = mla(m, v0, asr(m, byte, 4), acc_1)
                                    fitted_str_sp(m)          # acc_1
                                    fitted_ldr_sp(m)          # ker_x_end
                                    cmp(m, i_ker_x, ker_x_end)
                                bcc(m, i_ker_x < ker_x_end)
                                continue
                            v0 = add(m, ldrsb(m, input + idx_0), input_offset)
                            if pair_outputs:                  # one byte, both nibbles
                                byte = ldrsb(m, kernel + ker_idx_0)
                                acc_0 = mla(m, v0, sbfx(m, byte, 0, 4), acc_0)
                                v1 = v0
                                if ch_mult == 1:              # the next input channel
                                    v1 = add(m, ldrsb(m, input + idx_0 + 1), input_offset)
                                acc_1 = mla(m, v1, asr(m, byte, 4), acc_1)
                                ker_idx_0 = add(m, ker_idx_0, ker_step)
                            elif even_ch:
                                cmp(m, get_low_nibble, 0)     # if (get_low_nibble)
                                bcc(m, get_low_nibble == 0)
                                acc_0 = mla(m, v0, _nibble(m, kernel, ker_idx_0,
                                                           get_low_nibble != 0), acc_0)
                                ker_idx_0 = add(m, ker_idx_0, ker_step)
                            else:
                                cmp(m, get_low_nibble, 0)     # if (get_low_nibble)
                                bcc(m, get_low_nibble == 0)
                                low = get_low_nibble != 0
                                ker_val = _nibble(m, kernel, ker_idx_0, low)
                                if low:
                                    get_low_nibble = mov(m, 0)
                                else:
                                    get_low_nibble = mov(m, 1)
                                    uneven = add(m, uneven, 1)  # kernel_index_offset_uneven++
                                acc_0 = mla(m, v0, ker_val, acc_0)
                                ker_idx_0 = add(m, add(m, ker_idx_0, ker_step), get_low_nibble)
                            idx_0 = add(m, idx_0, in_step)
                            i_ker_x = add(m, i_ker_x, 1)
                            cmp(m, i_ker_x, ker_x_end)
                            bcc(m, i_ker_x < ker_x_end)
                        idx_y = add(m, idx_y, dilation_y)
                        i_ker_y = add(m, i_ker_y, 1)
                        cmp(m, i_ker_y, ker_y_end)
                        bcc(m, i_ker_y < ker_y_end)
                    if not pair_outputs:
                        if not even_ch and (kernel_x * kernel_y) % 2 == 1:
                            get_low_nibble = eor(m, get_low_nibble, 1)   # (kernel_x * kernel_y) % 2
                        get_low_nibble = eor(m, get_low_nibble, 1)       # !get_low_nibble
                    requantize_clamp_store(m, acc_0, output_mult + 4 * idx_out_ch,
                                           output_shift + 4 * idx_out_ch, output_offset,
                                           act_min, act_max, output + i_out)
                    i_out += 1
                    if pair_outputs:
                        requantize_clamp_store(m, acc_1, output_mult + 4 * idx_out_ch + 4,
                                               output_shift + 4 * idx_out_ch + 4, output_offset,
                                               act_min, act_max, output + i_out)
                        i_out += 1
                        idx_out_ch_s4 = add(m, idx_out_ch_s4, 1)
                    idx_out_ch += step_outputs
                    cmp(m, idx_out_ch, input_ch * ch_mult)
                    bcc(m, idx_out_ch < input_ch * ch_mult)
                i_out_x = add(m, i_out_x, 1)
                cmp(m, i_out_x, output_x)
                bcc(m, i_out_x < output_x)
            i_out_y = add(m, i_out_y, 1)
            cmp(m, i_out_y, output_y)
            bcc(m, i_out_y < output_y)
        input = add(m, input, mul(m, mul(m, input_x, input_y), input_ch))  # next batch
        i_batch = add(m, i_batch, 1)
        cmp(m, i_batch, input_batches)
        bcc(m, i_batch < input_batches)


@kernel
def arm_depthwise_conv_s4(m, input_x, input_y, input_ch, input_n, input, filter_w, filter_h,
                          kernel, bias, output_x, output_y, output, output_mult, output_shift,
                          pad_x, pad_y, stride_x, stride_y, dilation_x, dilation_y, ch_mult,
                          input_offset, output_offset, act_min, act_max):
    push(m, 9)                                                # push {r4-r11, lr}
    depthwise_conv_s4_generic(m, input, input_n, input_x, input_y, input_ch, kernel, ch_mult,
                              filter_w, filter_h, pad_x, pad_y, stride_x, stride_y, bias,
                              output, output_shift, output_mult, output_x, output_y,
                              output_offset, input_offset, act_min, act_max, dilation_x,
                              dilation_y)
    mov(m, 0)                                                 # return ARM_CMSIS_NN_SUCCESS;
    pop_pc(m, 9)
    return 0
