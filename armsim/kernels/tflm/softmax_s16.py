"""TFLM's int16 softmax: the lookup tables its Prepare generates (softmax_common.cc
InitializeLutForInt16 -> LUTPopulate<int16_t>, kernels/internal/common.h) and
tflite::reference_ops::SoftmaxInt16 (kernels/internal/reference/softmax.h).

`softmax_luts` runs on the host, as Prepare does (float arithmetic, 513 entries each):
    exp LUT:        LUTPopulate(10/65535, 32767, 2/65535, 0, exp)   -> exp(x), x in [-10, 0]
    1/(1 + x) LUT:  LUTPopulate(1/65535, -32768, 2/65535, 0, 1/(1 + x)), x in [0, 1]
LUTPopulateInt16<float> samples 512 steps of the input range; each entry is the rounded
sample minus half the rounded error of linear interpolation at the step's midpoint, clamped
to int16; entry 512 is the last sample.  std::exp(float) is the host libm's expf (what
TFLM's Python interpreter calls), reached through ctypes.

SoftmaxInt16, per row: max; every column exp = LUTLookup(clamp(MultiplyByQuantizedMultiplier(
input - max, mult, shift) + 32767), exp_lut), cached in the output and summed (Q16.15);
headroom_plus_one = clz(sum); shifted_sum = ((int64)sum << (headroom_plus_one - 1) + 2^13)
>> 14; reciprocal = LUTLookup(clamp(shifted_sum - 98304), one_over_one_plus_x_lut);
output = clamp((exp * reciprocal + 2^(right_shift - 1)) >> right_shift, 0, 32767),
right_shift = 31 - headroom_plus_one.

There is no measured reference-kernel case: the instruction sequence (LUTLookup and
SoftMaxCalculateExp inlined, a BL to the out-of-line MultiplyByQuantizedMultiplier per
column, the 64-bit rounding product of the last pass as SMULL / ADDS / ADC / LSR / ORR) is
written from the C as gcc -O2 compiles such loops, not fitted.
"""
import ctypes
import ctypes.util
import math

import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (adc, add, and_, asr, bcc, bl, carry_of_add, clz, cmp, ldr_sp,
                            ldrsh, lsl, lsr, mov, mul, mvn, orr, pop_pc, push, rsb,
                            smull, str_sp, strh, sub, sxth, uxth)
from armsim.kernels.minmax import max_lt, min_ge

from .common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::reference_ops::SoftmaxInt16"
LUT_SIZE = 513

_libm = ctypes.CDLL(ctypes.util.find_library("m"))
_libm.expf.restype = ctypes.c_float
_libm.expf.argtypes = [ctypes.c_float]
_f32 = np.float32


def _round(x):
    """TfLiteRound(float): std::round, half away from zero (exact: a float32 plus 0.5 is
    exact in double)."""
    return _f32(math.copysign(math.floor(abs(float(x)) + 0.5), float(x)))


def _lut_populate_int16(input_scale, input_zero_point, output_scale, output_zero_point,
                        transform):
    """detail::LUTPopulateInt16<float>, every operation in float32 as the C++ does it."""
    input_scale, output_scale = _f32(input_scale), _f32(output_scale)
    input_min = input_scale * _f32(-32768 - input_zero_point)
    input_max = input_scale * _f32(32767 - input_zero_point)
    output_min = output_scale * _f32(-32768 - output_zero_point)
    output_max = output_scale * _f32(32767 - output_zero_point)
    nb_steps = 512
    step = (input_max - input_min) / _f32(nb_steps)
    half_step = step / _f32(2)
    output_scaling_inv = _f32(65536) / (output_max - output_min)
    lut = np.zeros(LUT_SIZE, np.int16)
    for i in range(nb_steps):
        val = transform(input_min + _f32(i) * step)
        val_midpoint = transform(input_min + _f32(i) * step + half_step)
        val_next = transform(input_min + _f32(i + 1) * step)
        sample_val = _round(val * output_scaling_inv)
        midpoint_interp_val = _round((val_next * output_scaling_inv
                                      + _round(val * output_scaling_inv)) / _f32(2))
        midpoint_val = _round(val_midpoint * output_scaling_inv)
        midpoint_err = midpoint_interp_val - midpoint_val
        bias = _round(midpoint_err / _f32(2))
        lut[i] = int(min(max(sample_val - bias, _f32(-32768)), _f32(32767)))
    lut[nb_steps] = int(min(max(_round(transform(input_max) * output_scaling_inv),
                                _f32(-32768)), _f32(32767)))
    return lut


def _exp(x):
    return _f32(_libm.expf(float(x)))


def _one_over_one_plus_x(x):
    return _f32(1) / (_f32(1) + x)


def softmax_luts():
    """(exp_lut, one_over_one_plus_x_lut) as InitializeLutForInt16 fills them."""
    span = _f32(65535)                                  # int16 max - min
    exp_lut = _lut_populate_int16(_f32(10) / span, 32767, _f32(2) / span, 0, _exp)
    recip_lut = _lut_populate_int16(_f32(1) / span, -32768, _f32(2) / span, 0,
                                    _one_over_one_plus_x)
    return exp_lut, recip_lut


@kernel(inline=True)
def LUTLookup(m, value, lut):
    """int16 LUTLookup (common.h), inlined: 9-bit index, 7-bit interpolation."""
    index = uxth(m, add(m, asr(m, value, 7), 256), 0)    # (uint16_t)(256 + (value >> 7))
    offset = and_(m, value, 0x7F)                       # value & 0x7f
    base = ldrsh(m, lut + 2 * index)                    # lut[index]
    nxt = ldrsh(m, lut + 2 * index + 2)                 # lut[index + 1]
    slope = sxth(m, sub(m, nxt, base), 0)               # (int16_t)(lut[index + 1] - lut[index])
    delta = asr(m, add(m, mul(m, slope, offset), 64), 7)    # (slope * offset + 64) >> 7
    return sxth(m, add(m, base, delta), 0)              # (int16_t)(base + delta)


@kernel
def SoftmaxInt16(m, input_multiplier, input_left_shift, exp_lut, one_over_one_plus_x_lut,
                 input_data, outer_size, depth, output_data):
    push(m, 9)                                          # push {r4-r11, lr}
    sub(m, 0, 0)                                        # sub sp, sp, #frame
    for _ in range(6):                                  # shapes and params (by reference)
        ldr_sp(m)
    for _ in range(4):                                  # MatchingFlatSizeSkipDim / MatchingDim
        cmp(m, 0, 0)
        add(m, 0, 0)
    for _ in range(3):
        str_sp(m)
    cmp(m, outer_size, 0)                               # for (int i = 0; i < outer_size; ++i)
    bcc(m, outer_size <= 0)
    for i in range(outer_size):
        row_in = input_data + 2 * i * depth
        row_out = output_data + 2 * i * depth
        ldr_sp(m)
        max_in_row = mvn(m, 32767)                      # numeric_limits<int16_t>::min()
        cmp(m, depth, 0)
        bcc(m, depth <= 0)
        for c in range(depth):                          # max_in_row = max(max_in_row, input[c])
            v = ldrsh(m, row_in + 2 * c)
            max_in_row = max_lt(m, max_in_row, v)
            cmp(m, c + 1, depth)
            bcc(m, c + 1 < depth)
        sum_of_exps = mov(m, 0)                         # int32_t sum_of_exps = 0;
        cmp(m, depth, 0)
        bcc(m, depth <= 0)
        for c in range(depth):
            ldr_sp(m)                                   # params (spilled)
            ldr_sp(m)
            input_diff = sub(m, ldrsh(m, row_in + 2 * c), max_in_row)
            bl(m)                                       # MultiplyByQuantizedMultiplier(...)
            scaled = MultiplyByQuantizedMultiplier(m, input_diff, input_multiplier,
                                                   input_left_shift)
            sym = add(m, scaled, 32767)                 # scaled_diff + 32767
            sym = max_lt(m, sym, -32768)                # std::max(sym, -32768)
            sym = min_ge(m, sym, 32767)                 # std::min(..., 32767)
            ldr_sp(m)                                   # params.exp_lut
            e = LUTLookup(m, sym, exp_lut)
            strh(m, row_out + 2 * c, e)                 # exp_results_Q015[c] = ...
            sum_of_exps = add(m, sum_of_exps, e)        # sum_of_exps += exp_results_Q015[c];
            cmp(m, c + 1, depth)
            bcc(m, c + 1 < depth)
        headroom_plus_one = clz(m, sum_of_exps)         # CountLeadingZeros((uint32_t)sum)
        n = sub(m, headroom_plus_one, 1)
        lo = lsl(m, sum_of_exps, n)                     # (int64_t)sum << (headroom_plus_one - 1)
        hi = asr(m, sum_of_exps, 31)                    # the high word (sum < 2^31: in range)
        carry = carry_of_add(lo, 1 << 13)
        lo = add(m, lo, 1 << 13)                        # + (1 << 13)
        hi = adc(m, hi, 0, carry)
        shifted_sum = orr(m, lsr(m, lo, 14), lsl(m, hi, 18))     # >> 14 (low word)
        sym_sum = sub(m, shifted_sum, 98304)            # + (-((1 << 15) + (1 << 16)))
        sym_sum = max_lt(m, sym_sum, -32768)
        sym_sum = min_ge(m, sym_sum, 32767)
        ldr_sp(m)                                       # params.one_over_one_plus_x_lut
        reciprocal = LUTLookup(m, sym_sum, one_over_one_plus_x_lut)
        right_shift = rsb(m, headroom_plus_one, 31)     # (uint8_t)(31 - headroom_plus_one)
        one = mov(m, 1)
        rnd = lsl(m, one, sub(m, right_shift, 1))       # 1 << (right_shift - 1)
        rnd_hi = asr(m, rnd, 31)
        for c in range(depth):
            e = ldrsh(m, row_out + 2 * c)               # exp_results_Q015[c]
            lo, hi = smull(m, e, reciprocal)            # (int64_t)exp * (int64_t)reciprocal
            carry = carry_of_add(lo, rnd)
            lo = add(m, lo, rnd)                        # + round
            hi = adc(m, hi, rnd_hi, carry)
            result = orr(m, lsr(m, lo, right_shift), lsl(m, hi, 32 - right_shift))  # >> shift
            result = max_lt(m, result, 0)               # std::max(result, 0)
            result = min_ge(m, result, 32767)           # std::min(..., 32767)
            strh(m, row_out + 2 * c, result)
            cmp(m, c + 1, depth)
            bcc(m, c + 1 < depth)
        cmp(m, i + 1, outer_size)
        bcc(m, i + 1 < outer_size)
    add(m, 0, 0)
    pop_pc(m, 9)
    return 0


def run_reference_s16(m, case, addr, tracer=None):
    run(SoftmaxInt16, m, case["mult"], case["shift"], addr["exp_lut"], addr["one_by_one_lut"],
        addr["input"], case["num_rows"], case["row_size"], addr["output"], tracer=tracer)
    return [NAME, MBQM]
