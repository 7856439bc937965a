"""Plain-numpy oracles of the 16x8 families (int16 activations, int8 weights), written from
the vectors' README ("Requantization of the 16x8 kernels") and TFLite's reference kernels.

Independent of the counted kernels, like `armsim.kernels.oracle`: whole-array int64 numpy.
The 64-bit requantization is TFLite's `MultiplyByQuantizedMultiplier(int64_t x, ...)`
(kernels/internal/common.cc, double-rounding build): the multiplier reduced to 16 bits,
one rounding shift of the 64-bit product.
"""
import numpy as np

from armsim.kernels.oracle import _bias, _per_channel, _wrap32, requantize


def reduce_multiplier(mult):
    """REDUCE_MULTIPLIER / TFLite's reduced_multiplier: the Q31 multiplier to Q15, rounded."""
    mult = np.asarray(mult, np.int64)
    return np.where(mult < 0x7FFF0000, (mult + (1 << 15)) >> 16, 0x7FFF)


def requantize_s64(acc, mult, shift):
    """(acc * reduced + 2^(total - 1)) >> total with total = 15 - shift (acc < 2^47)."""
    total = 15 - np.asarray(shift, np.int64)
    acc = np.asarray(acc, np.int64) * reduce_multiplier(mult) + (np.int64(1) << (total - 1))
    return acc >> total


def _clamp16(y, lo, hi):
    return np.clip(y, lo, hi).astype(np.int16)


def fully_connected_s16(case):
    depth = case["filter_dims"]["n"]
    out_c = case["output_dims"]["c"]
    p = case["fc_params"]
    x = np.asarray(case["input"], np.int64).reshape(-1, depth)
    wt = np.asarray(case["weights"], np.int64).reshape(out_c, depth)
    acc = x @ wt.T + _bias(case, out_c)
    mult, shift = _per_channel(case, out_c)
    y = requantize_s64(acc, mult, shift) + p["output_offset"]
    return _clamp16(y, p["activation"]["min"], p["activation"]["max"]).ravel()


__all__ = ["fully_connected_s16", "requantize_s64", "reduce_multiplier", "requantize",
           "_wrap32"]
