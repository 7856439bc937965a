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


def conv_s16(case):
    """README conv with int16 input and output; int64 accumulation and requantize_s64, or,
    with `is_int32_bias`, int32 accumulation and the int8 requantization."""
    from armsim.kernels.oracle import _dims, _padded, _tap
    n, h, w, c = _dims(case["input_dims"])
    oc, fh, fw, fc = _dims(case["filter_dims"])
    _, out_h, out_w, _ = _dims(case["output_dims"])
    p = case["conv_params"]
    x = np.asarray(case["input"], np.int64).reshape(n, h, w, c)
    wt = np.asarray(case["weights"], np.int64).reshape(oc, fh, fw, fc)
    xp = _padded(x, p["padding"], out_h, out_w, fh, fw, p["stride"], p["dilation"], 0)
    acc = np.zeros((n, out_h, out_w, oc), np.int64)
    for ky in range(fh):
        for kx in range(fw):
            acc += _tap(xp, ky, kx, out_h, out_w, p["stride"], p["dilation"]) @ wt[:, ky, kx, :].T
    acc += _bias(case, oc)
    mult, shift = np.asarray(case["output_mult"], np.int64), np.asarray(case["output_shift"], np.int64)
    if case.get("is_int32_bias", case.get("bias_is_int32", False)):
        y = requantize(_wrap32(acc), mult, shift)
    else:
        y = requantize_s64(acc, mult, shift)
    y = y + p["output_offset"]
    return _clamp16(y, p["activation"]["min"], p["activation"]["max"]).ravel()


def depthwise_conv_s16(case):
    """README depthwise conv with int16 input and output, int64 accumulation."""
    from armsim.kernels.oracle import _dims, _padded, _tap
    n, h, w, c = _dims(case["input_dims"])
    _, fh, fw, oc = _dims(case["filter_dims"])
    _, out_h, out_w, _ = _dims(case["output_dims"])
    p = case["dw_conv_params"]
    mult = p["ch_mult"]
    x = np.repeat(np.asarray(case["input"], np.int64).reshape(n, h, w, c), mult, axis=3)
    wt = np.asarray(case["weights"], np.int64).reshape(fh, fw, oc)
    xp = _padded(x, p["padding"], out_h, out_w, fh, fw, p["stride"], p["dilation"], 0)
    acc = np.zeros((n, out_h, out_w, oc), np.int64)
    for ky in range(fh):
        for kx in range(fw):
            acc += _tap(xp, ky, kx, out_h, out_w, p["stride"], p["dilation"]) * wt[ky, kx]
    acc += _bias(case, oc)
    y = requantize_s64(acc, case["output_mult"], case["output_shift"]) + p["output_offset"]
    return _clamp16(y, p["activation"]["min"], p["activation"]["max"]).ravel()


# --- SOFTMAX int16 / int8 -> int16, BATCH_MATMUL int16 --------------------------------------

def _clz32(x):
    from armsim.kernels.oracle import _clz32 as clz
    return clz(x)


def _lut_lookup(value, lut):
    """TFLite's LUTLookup(int16_t, const int16_t*): 9-bit index, 7-bit linear interpolation."""
    value = np.asarray(value, np.int64)
    lut = np.asarray(lut, np.int64)
    index = 256 + (value >> 7)
    base = lut[index]
    slope = (lut[index + 1] - base).astype(np.int16).astype(np.int64)
    return (base + ((slope * (value & 0x7F) + 64) >> 7)).astype(np.int16).astype(np.int64)


def softmax_s16(case):
    """reference_ops::SoftmaxInt16 with the case's exp / 1/(1 + x) LUTs, row by row."""
    x = np.asarray(case["input"], np.int64).reshape(case["num_rows"], case["row_size"])
    diff = x - x.max(axis=1, keepdims=True)
    scaled = requantize(diff, case["mult"], case["shift"])
    exps = _lut_lookup(np.clip(scaled + 32767, -32768, 32767), case["exp_lut"])
    total = exps.sum(axis=1, keepdims=True)
    headroom_plus_one = _clz32(total)                  # CountLeadingZeros((uint32_t)sum)
    shifted = ((total << (headroom_plus_one - 1)) + (1 << 13)) >> 14
    sym = np.clip(shifted - ((1 << 15) + (1 << 16)), -32768, 32767)
    recip = _lut_lookup(sym, case["one_by_one_lut"])
    right_shift = 31 - headroom_plus_one
    y = (exps * recip + (np.int64(1) << (right_shift - 1))) >> right_shift
    return np.clip(y, 0, 32767).astype(np.int16).ravel()


def softmax_s8_s16(case):
    """reference_ops::Softmax<int8_t, int16_t>: the int8 softmax of `oracle.softmax` with 16
    output bits (exponent 12 - headroom + 31 - 16, zero point -32768)."""
    from armsim.kernels.oracle import (_clz32, _exp_on_negative_values, _one_over_one_plus_x,
                                       rdbpot, srdhm)
    x = np.asarray(case["input"], np.int64).reshape(case["num_rows"], case["row_size"])
    diff = x - x.max(axis=1, keepdims=True)
    valid = diff >= case["diff_min"]
    exps = _exp_on_negative_values(srdhm(_wrap32(diff << case["shift"]), case["mult"]))
    total = _wrap32(np.where(valid, rdbpot(exps, 12), 0).sum(axis=1))
    headroom = _clz32(total)
    scale = _one_over_one_plus_x(_wrap32((total << headroom) - (1 << 31)))
    out = rdbpot(srdhm(scale[:, None], exps), (12 - headroom + 31 - 16)[:, None]) - 32768
    return np.where(valid, np.clip(out, -32768, 32767), -32768).astype(np.int16).ravel()


def batch_matmul_s16(case):
    """numpy matmul of the kernel-layout operands (rhs transposed), batch dims broadcast,
    int64 accumulation, requantize_s64 and the int16 clamp."""
    dims = "nhwc"
    lhs_d, rhs_d = case["input_lhs_dims"], case["input_rhs_dims"]
    lhs = np.asarray(case["input"], np.int64).reshape([lhs_d[d] for d in dims])
    rhs = np.asarray(case["input2"], np.int64).reshape([rhs_d[d] for d in dims])
    fc, q = case["bmm_params"]["fc_params"], case["quant_params"]
    acc = np.matmul(lhs + fc["input_offset"], np.swapaxes(rhs + fc["filter_offset"], -1, -2))
    y = requantize_s64(acc, q["multiplier"], q["shift"]) + fc["output_offset"]
    return _clamp16(y, fc["activation"]["min"], fc["activation"]["max"]).ravel()


def elementwise_add_s16(case):
    """README add with int16 arrays; the s16 kernels and TFLM's int16 Prepare take no offsets
    (zero points 0), so none is added: requantize(in_i << left_shift, mult_i, shift_i), summed,
    requantized, clamped."""
    from armsim.kernels.oracle import _wrap32
    ls = case["left_shift"]
    x1 = requantize(_wrap32(np.asarray(case["input"], np.int64) << ls), case["input_1_mult"],
                    case["input_1_shift"])
    x2 = requantize(_wrap32(np.asarray(case["input2"], np.int64) << ls), case["input_2_mult"],
                    case["input_2_shift"])
    y = requantize(_wrap32(x1 + x2), case["out_mult"], case["out_shift"])
    return _clamp16(y, case["out_activation_min"], case["out_activation_max"])


def elementwise_mul_s16(case):
    """README mul with int16 arrays, no offsets: clamp(requantize(in_1 * in_2))."""
    product = np.asarray(case["input"], np.int64) * np.asarray(case["input2"], np.int64)
    y = requantize(product, case["out_mult"], case["out_shift"])
    return _clamp16(y, case["out_activation_min"], case["out_activation_max"])


def avgpool_s16(case):
    """README average pooling on int16: the mean of the window taps inside the input, divided
    rounding half away from zero, clamped."""
    from armsim.kernels.oracle import _pool_windows
    xs, masks, act = _pool_windows(case)
    total = (xs * masks).sum(axis=0)
    count = np.broadcast_to(masks.sum(axis=0), total.shape)
    num = np.where(total >= 0, total + count // 2, total - count // 2)
    return _clamp16(np.sign(num) * (np.abs(num) // count), act["min"], act["max"]).ravel()


def maxpool_s16(case):
    """README max pooling on int16: the largest window tap inside the input, clamped."""
    from armsim.kernels.oracle import _pool_windows
    xs, masks, act = _pool_windows(case)
    largest = np.where(np.broadcast_to(masks, xs.shape), xs, -(2**31)).max(axis=0)
    return _clamp16(largest, act["min"], act["max"]).ravel()


def sigmoid_s16(x, multiplier, left_shift, tanh):
    """TFLite's int16 reference_integer_ops::Logistic (tanh False) / Tanh (True) on an int16
    array: the input rescaled (multiplier 0: 3 << shift, no shift), then linear interpolation
    in sigmoid_table_uint16 between |x| >> 9 (>> 8 for tanh) and the next entry, odd-symmetric
    around 1/2 (0 for tanh) in Q0.15."""
    from armsim.kernels.cmsis_nn.arm_nn_tables import SIGMOID_TABLE_UINT16
    if multiplier == 0:
        multiplier, left_shift = 3 << left_shift, 0
    rounding = 1 << (left_shift - 1) if left_shift > 0 else 0
    v = _wrap32(np.asarray(x, np.int64) * multiplier + rounding) >> left_shift
    a = np.abs(v)
    frac_bits = 8 if tanh else 9
    uh = a >> frac_bits
    table = SIGMOID_TABLE_UINT16.astype(np.int64)
    inside = uh < 255
    ua = table[np.where(inside, uh, 0)]
    ub = table[np.where(inside, uh + 1, 0)]
    ut = a & ((1 << frac_bits) - 1)
    r = np.where(inside, (ua << frac_bits) + ut * (ub - ua),
                 (0xFFFF << 8) if tanh else (0x7FFF << 10))
    if tanh:
        r = np.where(v >= 0, r - (1 << 23) + (1 << 7), -r + (1 << 23) + (1 << 7) - 1) >> 8
    else:
        r = np.where(v >= 0, r + (1 << 9), (1 << 25) - r + (1 << 9) - 1) >> 10
    return r.astype(np.int16)
