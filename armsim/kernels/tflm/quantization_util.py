"""TFLite Micro's QuantizeMultiplier family (tensorflow/lite/kernels/internal/quantization_util.cc).

A real multiplier M is represented as ``quantized_multiplier * 2**(shift - 31)`` with
``quantized_multiplier`` a Q31 value in [2**30, 2**31) (or 0), and ``shift`` at most
MAX_LEFT_SHIFT (larger shifts are refused, see `quantize_multiplier`).  TFLM computes it in
one of two ways, selected at build time:

* default: ``q = std::frexp(M, &shift)``, ``q_fixed = TfLiteRound(q * 2**31)`` (round half
  away from zero) -- `quantize_multiplier_frexp`;
* ``TFLITE_EMULATE_FLOAT``: `integer_frexp`, which reads the IEEE-754 binary64 bit pattern,
  keeps the top 30 fraction bits under the implicit one and rounds on the 22 discarded bits
  (``discarded > 0x200000``: an exact tie rounds DOWN there, where std::round rounds up) --
  `quantize_multiplier_integer`.

Both then apply the same fix-ups: a mantissa that rounded up to 1.0 (``q_fixed == 2**31``)
becomes 2**30 with ``shift + 1``, and a shift below -31 flushes the multiplier to 0 with
shift 0.  The default (double-rounding) build is modelled: no single-rounding clamp of
``shift`` to 30.
"""
import math
import struct

import numpy as np

INT32_MAX = 2**31 - 1
INT_MAX = 2**31 - 1          # std::numeric_limits<int>::max() on a 32-bit target

_SIGN_MASK = 0x8000000000000000
_EXPONENT_MASK = 0x7FF0000000000000
_EXPONENT_SHIFT = 52
_EXPONENT_BIAS = 1023
_EXPONENT_IS_BAD_NUM = 0x7FF
_FRACTION_MASK = 0x000FFFFFFFC00000
_FRACTION_SHIFT = 22
_FRACTION_ROUNDING_MASK = 0x003FFFFF
_FRACTION_ROUNDING_THRESHOLD = 0x00200000


class QuantizationError(ValueError):
    """A TFLITE_CHECK of quantization_util.cc failed."""


def tflite_round(x):
    """TfLiteRound (std::round): round half away from zero, on a double."""
    a = abs(x)
    f = math.floor(a)
    if a - f >= 0.5:            # exact: a - floor(a) loses no bits
        f += 1.0
    return math.copysign(f, x)


def checked_log2(x):
    """tflite::CheckedLog2 (quantization_util.h) in float32: (round(log2 x), whether x is
    within 1e-3 of that power of two in log2)."""
    x_log2 = np.float32(np.log(np.float32(x))) * np.float32(1.0 / np.log(np.float32(2.0)))
    rounded = np.float32(tflite_round(float(x_log2)))
    return int(rounded), bool(abs(np.float32(x_log2 - rounded)) < np.float32(1e-3))


def integer_frexp(value):
    """IntegerFrExp(double input, int* shift) -> (fraction, shift), bit manipulation only.

    ``fraction`` is the Q31 mantissa (|fraction| in [2**30, 2**31]), as int64."""
    (u,) = struct.unpack("<Q", struct.pack("<d", float(value)))
    if (u & ~_SIGN_MASK) == 0:
        return 0, 0
    exponent_part = (u & _EXPONENT_MASK) >> _EXPONENT_SHIFT
    if exponent_part == _EXPONENT_IS_BAD_NUM:
        if u & _FRACTION_MASK:
            return 0, INT_MAX                       # NaN
        return (-(2**63) if u & _SIGN_MASK else 2**63 - 1), INT_MAX   # +/- infinity
    shift = (exponent_part - _EXPONENT_BIAS) + 1
    fraction = 0x40000000 + ((u & _FRACTION_MASK) >> _FRACTION_SHIFT)
    if (u & _FRACTION_ROUNDING_MASK) > _FRACTION_ROUNDING_THRESHOLD:
        fraction += 1
    if u & _SIGN_MASK:
        fraction = -fraction
    return fraction, shift


def _finish(q_fixed, shift):
    """The common tail of QuantizeMultiplier after the mantissa is found."""
    if q_fixed > 2**31:
        raise QuantizationError(f"q_fixed {q_fixed} > 2^31")
    if q_fixed == 2**31:                 # the mantissa rounded up to 1.0
        q_fixed //= 2
        shift += 1
    if q_fixed > INT32_MAX:
        raise QuantizationError(f"q_fixed {q_fixed} > INT32_MAX")
    if shift < -31:                      # every bit would be shifted out: flush to zero
        shift = 0
        q_fixed = 0
    return int(q_fixed), int(shift)


def quantize_multiplier_frexp(double_multiplier):
    """QuantizeMultiplier, default build (std::frexp + TfLiteRound): (multiplier, shift)."""
    double_multiplier = float(double_multiplier)
    if double_multiplier == 0.0:
        return 0, 0
    if not math.isfinite(double_multiplier):
        raise QuantizationError(f"multiplier {double_multiplier!r} is not finite")
    q, shift = math.frexp(double_multiplier)
    q_fixed = int(tflite_round(q * float(1 << 31)))
    return _finish(q_fixed, shift)


def quantize_multiplier_integer(double_multiplier):
    """QuantizeMultiplier, TFLITE_EMULATE_FLOAT build (IntegerFrExp): (multiplier, shift)."""
    double_multiplier = float(double_multiplier)
    if double_multiplier == 0.0:
        return 0, 0
    q_fixed, shift = integer_frexp(double_multiplier)
    return _finish(q_fixed, shift)


# MultiplyByQuantizedMultiplier (and CMSIS-NN's arm_nn_requantize) compute
# ``x * (1 << left_shift)`` in 32-bit int: a shift of 32 or more is undefined behaviour, and
# the platforms differ -- x86 (TFLM's Python interpreter) masks the count to 5 bits, a
# Cortex-M's LSL by register gives 0 -- so no answer would be TFLM's.
MAX_LEFT_SHIFT = 31


def quantize_multiplier(double_multiplier):
    """QuantizeMultiplier as the default TFLM build computes it: (multiplier, shift).

    A multiplier of 2**31 or more (a left shift beyond MAX_LEFT_SHIFT, e.g. a scale of 1e38
    or a QUANTIZE output scale of 1e-12) raises QuantizationError: its requantization is
    undefined in TFLM's C++."""
    multiplier, shift = quantize_multiplier_frexp(double_multiplier)
    if shift > MAX_LEFT_SHIFT:
        raise QuantizationError(
            f"effective scale {double_multiplier:.6g} needs a left shift of {shift}, beyond "
            f"the {MAX_LEFT_SHIFT} bits MultiplyByQuantizedMultiplier can shift (undefined in "
            f"TFLM's C++: x86 shifts by {shift % 32}, a Cortex-M by 0)")
    return multiplier, shift


def quantize_multiplier_greater_than_one(double_multiplier):
    """QuantizeMultiplierGreaterThanOne: (multiplier, left_shift >= 0)."""
    if not double_multiplier > 1.0:
        raise QuantizationError(f"multiplier {double_multiplier!r} must be > 1")
    multiplier, shift = quantize_multiplier(double_multiplier)
    if shift < 0:
        raise QuantizationError(f"left shift {shift} must be >= 0")
    return multiplier, shift


def quantize_multiplier_smaller_than_one_exp(double_multiplier):
    """QuantizeMultiplierSmallerThanOneExp: (multiplier, left_shift <= 0)."""
    if not double_multiplier < 1.0:
        raise QuantizationError(f"multiplier {double_multiplier!r} must be < 1")
    if not double_multiplier > 0.0:
        raise QuantizationError(f"multiplier {double_multiplier!r} must be > 0")
    multiplier, shift = quantize_multiplier(double_multiplier)
    if shift > 0:
        raise QuantizationError(f"shift {shift} must be <= 0")
    return multiplier, shift


def preprocess_softmax_scaling(beta, input_scale, input_integer_bits):
    """PreprocessSoftmaxScaling: (multiplier, left shift) of min(beta * input_scale *
    2^(31 - input_integer_bits), 2^31 - 1) by QuantizeMultiplierGreaterThanOne."""
    real = min(beta * input_scale * (1 << (31 - input_integer_bits)), (1 << 31) - 1.0)
    return quantize_multiplier_greater_than_one(real)


def calculate_input_radius(input_integer_bits, input_left_shift, total_signed_bits=31):
    """CalculateInputRadius: floor((2^bits - 1) * 2^(total - bits) / 2^left_shift)."""
    rescaled = 1.0 * ((1 << input_integer_bits) - 1) * \
        (1 << (total_signed_bits - input_integer_bits)) / (1 << input_left_shift)
    return math.floor(rescaled)


__all__ = ["MAX_LEFT_SHIFT", "QuantizationError", "calculate_input_radius", "integer_frexp",
           "preprocess_softmax_scaling", "quantize_multiplier", "quantize_multiplier_frexp",
           "quantize_multiplier_integer", "quantize_multiplier_greater_than_one",
           "quantize_multiplier_smaller_than_one_exp", "tflite_round"]
