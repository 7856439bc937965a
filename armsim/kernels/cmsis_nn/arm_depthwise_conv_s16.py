"""arm_depthwise_conv_s16 (Source/ConvolutionFunctions/arm_depthwise_conv_s16.c): the
generic 16x8 depthwise convolution, `depthwise_conv_s16_generic_s16` (the file's
`depthwise_conv_s16_mult_4_s16` is UNUSED_ATTR and never called).

Per output pixel, input channel and channel multiplier: REDUCE_MULTIPLIER of the channel's
multiplier, the kernel window clipped to the input (`ker_x_start`/`ker_x_end` from
MAX/MIN, with a division by the dilation when it is > 1), one SMLAL per tap into the int64
accumulator that starts at the bias, arm_nn_requantize_s64, clamp, STRH.  The same code in
both builds (no ARM_MATH_DSP branch).

Calibration (../shared/reference/dw_s16_3x3_8x8x16_m1_p1 scalar_O2, where
arm_depthwise_conv_fast_s16 falls back here: function arm_depthwise_conv_s16 319,186
instructions for 1,024 outputs, 8,464 taps): the per-output and per-tap index arithmetic
and stack traffic (`fitted_ldr_sp`, `mov`, `add`, `mla` marked "fitted") are set to that total.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cmp, fitted_add, fitted_ldr_sp, fitted_mov, fitted_str_sp,
                            fitted_strd_sp, ldr, ldrd, ldrsb, ldrsh, mla, mov, pop_pc, push,
                            sdiv, strh, sub)
from armsim.kernels.minmax import max_lt, min_gt

from .arm_nn_mat_mult_kernel_s16 import mac64
from .arm_nn_requantize_s64 import arm_nn_requantize_s64, reduce_multiplier, requantize_s64_setup


@kernel(inline=True)
def _clamp_branch(m, x, bound, below):
    """MAX(x, bound) (below) or MIN(x, bound) as a compare and branch around a MOV."""
    cmp(m, x, bound)
    clamp = x < bound if below else x > bound
    bcc(m, not clamp)
    if clamp:
        x = mov(m, bound)
    return x


@kernel(inline=True)
def _window(m, base, dilation, size, kernel_size):
    """(start, end) of the kernel taps inside the input along one axis (C division)."""
    if dilation > 1:
        start = sdiv(m, add(m, sub(m, 0, base), dilation - 1), dilation)  # (-base + d - 1) / d
        start = _clamp_branch(m, start, 0, True)                         # MAX(0, start_max)
        end = sdiv(m, add(m, sub(m, size, base), dilation - 1), dilation)  # (size - base + d - 1) / d
        return start, _clamp_branch(m, end, kernel_size, False)          # MIN(kernel, end_min)
    start = _clamp_branch(m, sub(m, 0, base), 0, True)                   # MAX(0, -base_idx)
    return start, _clamp_branch(m, sub(m, size, base), kernel_size, False)  # MIN(kernel, size - base_idx)


@kernel
def arm_depthwise_conv_s16(m, input, input_batches, input_x, input_y, input_ch, kernel_,
                           ch_mult, kernel_x, kernel_y, pad_x, pad_y, stride_x, stride_y,
                           bias, output, output_shift, output_mult, output_x, output_y,
                           act_min, act_max, dilation_x, dilation_y):
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, #frame
    for _ in range(12):                                 # struct fields, stacked arguments
        fitted_ldr_sp(m)
    for _batch in range(input_batches):
        for i_out_y in range(output_y):
            base_idx_y = sub(m, mla(m, i_out_y, stride_y, 0), pad_y)
            for i_out_x in range(output_x):
                base_idx_x = sub(m, mla(m, i_out_x, stride_x, 0), pad_x)
                for i_input_ch in range(input_ch):
                    for i_ch_mult in range(ch_mult):
                        idx_out_ch = i_ch_mult + i_input_ch * ch_mult
                        for _ in range(9):              # fitted: per-output reloads,
                            fitted_ldr_sp(m)            # spills, branches and arithmetic
                        for _ in range(2):
                            fitted_strd_sp(m)
                            b(m)
                        for _ in range(3):
                            fitted_add(m)
                        for _ in range(4):              # fitted: the window tests' branches
                            bcc(m, False)
                        reduced = reduce_multiplier(m, ldr(m, output_mult + 4 * idx_out_ch))
                        lo = mov(m, 0)                  # int64_t acc_0 = 0;
                        hi = mov(m, 0)
                        cmp(m, dilation_x, 1)
                        bcc(m, dilation_x <= 1)
                        ker_x_start, ker_x_end = _window(m, base_idx_x, dilation_x, input_x,
                                                         kernel_x)
                        cmp(m, dilation_y, 1)
                        bcc(m, dilation_y <= 1)
                        ker_y_start, ker_y_end = _window(m, base_idx_y, dilation_y, input_y,
                                                         kernel_y)
                        cmp(m, bias, 0)                 # if (bias)
                        bcc(m, bias == 0)
                        if bias != 0:
                            lo, hi = ldrd(m, bias + 8 * idx_out_ch)   # acc_0 = bias[idx_out_ch];
                        for i_ker_y in range(ker_y_start, ker_y_end):
                            idx_y = add(m, base_idx_y, dilation_y * i_ker_y)
                            for i_ker_x in range(ker_x_start, ker_x_end):
                                for k in range(12):     # fitted: per-tap reloads of the
                                    fitted_ldr_sp(m)    # uint16_t parameters, spills and
                                    if k < 4:           # index arithmetic, interleaved
                                        fitted_str_sp(m)  # as gcc schedules them
                                    elif k < 6:
                                        fitted_mov(m)
                                    elif k < 8:
                                        fitted_add(m)
                                idx_x = add(m, base_idx_x, dilation_x * i_ker_x)
                                idx_0 = mla(m, add(m, add(m, idx_y * input_x, 0), idx_x),
                                            input_ch, i_input_ch)
                                ker_idx_0 = mla(m, i_ker_y * kernel_x + i_ker_x,
                                                input_ch * ch_mult, idx_out_ch)
                                in_val = ldrsh(m, input + 2 * idx_0)
                                k_val = ldrsb(m, kernel_ + ker_idx_0)
                                lo, hi = mac64(m, lo, hi, in_val, k_val)  # acc_0 += in * k
                                cmp(m, i_ker_x + 1, ker_x_end)
                                bcc(m, i_ker_x + 1 < ker_x_end)
                            cmp(m, i_ker_y + 1, ker_y_end)
                            bcc(m, i_ker_y + 1 < ker_y_end)
                        shift = ldr(m, output_shift + 4 * idx_out_ch)
                        n, n_left, sign = requantize_s64_setup(m, reduced, shift)
                        result = arm_nn_requantize_s64(m, lo, hi, reduced, n, n_left, sign)
                        result = max_lt(m, result, act_min)   # MAX(result, output_activation_min)
                        result = min_gt(m, result, act_max)   # MIN(result, output_activation_max)
                        strh(m, output, result)               # *output++ = (int16_t)result;
                        output += 2
                        fitted_str_sp(m)
                        cmp(m, i_ch_mult + 1, ch_mult)
                        bcc(m, i_ch_mult + 1 < ch_mult)
                    cmp(m, i_input_ch + 1, input_ch)
                    bcc(m, i_input_ch + 1 < input_ch)
                cmp(m, i_out_x + 1, output_x)
                bcc(m, i_out_x + 1 < output_x)
            cmp(m, i_out_y + 1, output_y)
            bcc(m, i_out_y + 1 < output_y)
        input = add(m, input, 2 * input_x * input_y * input_ch)
    fitted_add(m)
    pop_pc(m, 9)
    return 0
