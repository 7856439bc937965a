"""Plain-numpy oracle per family, written from the vectors' README semantics.

Each family module names its function here as ORACLE (`armsim.kernels.families.oracle(case)`
runs it).  Independent of the counted kernels:
no armsim, whole-array int64 numpy arithmetic; convolutions are a sum over filter taps of
shifted input planes; the requantization is README's formula; softmax is gemmlowp's
fixed-point exp / reciprocal written over arrays.
"""
import numpy as np

I32_MIN, I32_MAX = -(2**31), 2**31 - 1


def _wrap32(x):
    """int64 array -> the int32 bit pattern's value (C's wrapping int32 arithmetic)."""
    x = np.asarray(x, np.int64)
    return ((x + 2**31) & 0xFFFFFFFF) - 2**31


def srdhm(a, b):
    """gemmlowp SaturatingRoundingDoublingHighMul on int32 arrays."""
    a = np.asarray(a, np.int64)
    b = np.asarray(b, np.int64)
    ab = a * b                                         # |ab| <= 2^62
    nudge = np.where(ab >= 0, 1 << 30, 1 - (1 << 30))
    s = ab + nudge
    q = np.where(s >= 0, s >> 31, -((-s) >> 31))       # C division by 2^31 (toward zero)
    return np.where((a == b) & (a == I32_MIN), I32_MAX, q)


def rdbpot(x, exponent):
    """gemmlowp RoundingDivideByPOT (round half away from zero); exponent >= 0."""
    x = np.asarray(x, np.int64)
    exponent = np.asarray(exponent, np.int64)
    mask = (np.int64(1) << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (x < 0)
    return (x >> exponent) + (remainder > threshold)


def requantize(acc, mult, shift):
    """README: left = max(shift, 0), right = max(-shift, 0); ((acc << left) * mult + 2^30) >> 31
    (the doubling high multiply), then rounding divide by 2^right."""
    shift = np.asarray(shift, np.int64)
    left = np.maximum(shift, 0)
    right = np.maximum(-shift, 0)
    x = _wrap32(np.asarray(acc, np.int64) << left)
    return rdbpot(srdhm(x, mult), right)


def requantize_single(acc, mult, shift):
    """CMSIS_NN_USE_SINGLE_ROUNDING's arm_nn_requantize: (int32)((acc * mult) >> (30 - shift)),
    then (result + 1) >> 1 -- one rounding instead of two."""
    shift = np.asarray(shift, np.int64)
    product = np.asarray(acc, np.int64) * np.asarray(mult, np.int64)
    return _wrap32(_wrap32(product >> (30 - shift)) + 1) >> 1


def _requantize(case):
    """The requantization of the build the case asks for (`single_rounding`: CMSIS-NN with
    CMSIS_NN_USE_SINGLE_ROUNDING)."""
    return requantize_single if case.get("single_rounding") else requantize


def _clamp8(y, lo, hi):
    return np.clip(y, lo, hi).astype(np.int8)


def _per_channel(case, n):
    if "output_mult" in case and case.get("quant_params", {}).get("per_channel", True):
        return (np.asarray(case["output_mult"], np.int64),
                np.asarray(case["output_shift"], np.int64))
    q = case["quant_params"]
    return np.full(n, q["multiplier"], np.int64), np.full(n, q["shift"], np.int64)


def _bias(case, n):
    if case.get("bias_is_null"):
        return np.zeros(n, np.int64)
    return np.asarray(case["bias"], np.int64)


def _dims(d):
    return d["n"], d["h"], d["w"], d["c"]


def _padded(x, p, out_h, out_w, fh, fw, stride, dil, fill):
    """Input planes padded with `fill` so that every tap of every output lies inside."""
    n, h, w, c = x.shape
    need_h = (out_h - 1) * stride["h"] + (fh - 1) * dil["h"] + 1
    need_w = (out_w - 1) * stride["w"] + (fw - 1) * dil["w"] + 1
    ph, pw = p["h"], p["w"]
    bottom = max(need_h - ph - h, 0)
    right = max(need_w - pw - w, 0)
    return np.pad(x, ((0, 0), (ph, bottom), (pw, right), (0, 0)), constant_values=fill)


def _tap(xp, ky, kx, out_h, out_w, stride, dil):
    y0, x0 = ky * dil["h"], kx * dil["w"]
    return xp[:, y0:y0 + (out_h - 1) * stride["h"] + 1:stride["h"],
              x0:x0 + (out_w - 1) * stride["w"] + 1:stride["w"], :]


def conv(case):
    n, h, w, c = _dims(case["input_dims"])
    oc, fh, fw, fc = _dims(case["filter_dims"])
    _, out_h, out_w, out_c = _dims(case["output_dims"])
    p = case["conv_params"]
    groups = c // fc
    per_group = out_c // groups
    # input + input_offset, padding = 0 (a tap outside the input contributes nothing)
    x = np.asarray(case["input"], np.int64).reshape(n, h, w, c) + p["input_offset"]
    xp = _padded(x, p["padding"], out_h, out_w, fh, fw, p["stride"], p["dilation"], 0)
    wt = np.asarray(case["weights"], np.int64).reshape(out_c, fh, fw, fc)
    acc = np.zeros((n, out_h, out_w, out_c), np.int64)
    for ky in range(fh):
        for kx in range(fw):
            t = _tap(xp, ky, kx, out_h, out_w, p["stride"], p["dilation"])
            for g in range(groups):
                xs = t[..., g * fc:(g + 1) * fc]
                ws = wt[g * per_group:(g + 1) * per_group, ky, kx, :]
                acc[..., g * per_group:(g + 1) * per_group] += xs @ ws.T
    acc = _wrap32(acc + _bias(case, out_c))
    mult, shift = _per_channel(case, out_c)
    y = _requantize(case)(acc, mult, shift) + p["output_offset"]
    return _clamp8(y, p["activation"]["min"], p["activation"]["max"]).ravel()


def depthwise_conv(case):
    n, h, w, c = _dims(case["input_dims"])
    _, fh, fw, out_c = _dims(case["filter_dims"])
    _, out_h, out_w, _ = _dims(case["output_dims"])
    p = case["dw_conv_params"]
    ch_mult = p["ch_mult"]
    x = np.asarray(case["input"], np.int64).reshape(n, h, w, c) + p["input_offset"]
    x = np.repeat(x, ch_mult, axis=3)           # output channel oc reads input oc // ch_mult
    xp = _padded(x, p["padding"], out_h, out_w, fh, fw, p["stride"], p["dilation"], 0)
    wt = np.asarray(case["weights"], np.int64).reshape(fh, fw, out_c)
    acc = np.zeros((n, out_h, out_w, out_c), np.int64)
    for ky in range(fh):
        for kx in range(fw):
            acc += _tap(xp, ky, kx, out_h, out_w, p["stride"], p["dilation"]) * wt[ky, kx]
    acc = _wrap32(acc + _bias(case, out_c))
    mult, shift = _per_channel(case, out_c)
    y = _requantize(case)(acc, mult, shift) + p["output_offset"]
    return _clamp8(y, p["activation"]["min"], p["activation"]["max"]).ravel()


def fully_connected(case):
    depth = case["filter_dims"]["n"]
    out_c = case["output_dims"]["c"]
    p = case["fc_params"]
    x = np.asarray(case["input"], np.int64).reshape(-1, depth) + p["input_offset"]
    wt = np.asarray(case["weights"], np.int64).reshape(out_c, depth) + p["filter_offset"]
    acc = _wrap32(x @ wt.T + _bias(case, out_c))
    mult, shift = _per_channel(case, out_c)
    y = _requantize(case)(acc, mult, shift) + p["output_offset"]
    return _clamp8(y, p["activation"]["min"], p["activation"]["max"]).ravel()


def _pool_windows(case):
    n, h, w, c = _dims(case["input_dims"])
    _, out_h, out_w, _ = _dims(case["output_dims"])
    fh, fw = case["filter_dims"]["h"], case["filter_dims"]["w"]
    p = case["pool_params"]
    x = np.asarray(case["input"], np.int64).reshape(n, h, w, c)
    inside = np.ones((1, h, w, 1), np.int64)
    one = {"h": 1, "w": 1}
    xs, masks = [], []
    for ky in range(fh):
        for kx in range(fw):
            xs.append(_tap(_padded(x, p["padding"], out_h, out_w, fh, fw, p["stride"], one, 0),
                           ky, kx, out_h, out_w, p["stride"], one))
            masks.append(_tap(_padded(inside, p["padding"], out_h, out_w, fh, fw, p["stride"],
                                      one, 0), ky, kx, out_h, out_w, p["stride"], one))
    return np.stack(xs), np.stack(masks).astype(bool), p["activation"]


def avgpool(case):
    xs, masks, act = _pool_windows(case)
    total = (xs * masks).sum(axis=0)
    count = np.broadcast_to(masks.sum(axis=0), total.shape)
    # divide rounding half away from zero (C division truncates toward zero)
    num = np.where(total >= 0, total + count // 2, total - count // 2)
    avg = np.sign(num) * (np.abs(num) // count)
    return _clamp8(avg, act["min"], act["max"]).ravel()


def maxpool(case):
    xs, masks, act = _pool_windows(case)
    m = np.where(np.broadcast_to(masks, xs.shape), xs, -(2**31)).max(axis=0)
    return _clamp8(m, act["min"], act["max"]).ravel()


# --- softmax: gemmlowp fixed point over arrays ------------------------------------------------

def _sat_shift_left(x, e):
    """SaturatingRoundingMultiplyByPOT<e> for e > 0."""
    threshold = (1 << (31 - e)) - 1
    return np.where(x > threshold, I32_MAX, np.where(x < -threshold, I32_MIN, _wrap32(x << e)))


def _exp_on_interval(a):
    """exp on [-1/4, 0): Taylor series around -1/8 (Q0.31 in, Q0.31 out)."""
    constant_term = 1895147668
    one_third = 715827883
    x = a + (1 << 28)
    x2 = srdhm(x, x)
    x3 = srdhm(x2, x)
    x4 = srdhm(x2, x2)
    x4_over_4 = rdbpot(x4, 2)
    poly = rdbpot(srdhm(x4_over_4 + x3, one_third) + x2, 1)
    return constant_term + srdhm(constant_term, x + poly)


def _exp_on_negative_values(a, integer_bits=5):
    frac_bits = 31 - integer_bits
    quarter = 1 << (frac_bits - 2)
    a_mod = (a & (quarter - 1)) - quarter
    result = _exp_on_interval(_sat_shift_left(a_mod, integer_bits))
    remainder = a_mod - a
    for exponent, mult in ((-2, 1672461947), (-1, 1302514674), (0, 790015084),
                           (1, 290630308), (2, 39332535), (3, 720401), (4, 242)):
        if integer_bits > exponent:
            bit = 1 << (frac_bits + exponent)
            result = np.where(remainder & bit, srdhm(result, mult), result)
    return np.where(a == 0, I32_MAX, result)


def _one_over_one_plus_x(a):
    """1 / (1 + a) for a in [0, 1): Newton-Raphson, Q0.31 in, Q0.31 out."""
    s = a + I32_MAX
    half_den = np.where(s >= 0, s + 1, s - 1)
    half_den = np.where(half_den >= 0, half_den // 2, -((-half_den) // 2))
    x = 1515870810 + srdhm(half_den, -1010580540)
    for _ in range(3):
        one_minus = (1 << 29) - srdhm(half_den, x)
        x = x + _sat_shift_left(srdhm(x, one_minus), 2)
    return _sat_shift_left(x, 1)


def _clz32(x):
    x = np.asarray(x, np.int64) & 0xFFFFFFFF
    out = np.full(x.shape, 32, np.int64)
    for b in range(31, -1, -1):
        hit = ((x >> b) & 1).astype(bool) & (out == 32)
        out[hit] = 31 - b
    return out


def softmax(case):
    rows, depth = case["num_rows"], case["row_size"]
    x = np.asarray(case["input"], np.int64).reshape(rows, depth)
    diff = x - x.max(axis=1, keepdims=True)
    valid = diff >= case["diff_min"]
    # MultiplyByQuantizedMultiplierGreaterThanOne: SRDHM(diff * 2^shift, mult)
    scaled = srdhm(_wrap32(diff << case["shift"]), case["mult"])
    exps = _exp_on_negative_values(scaled)
    sum_of_exps = np.where(valid, rdbpot(exps, 12), 0).sum(axis=1)   # Q12.19 accumulator
    sum_of_exps = _wrap32(sum_of_exps)
    headroom = _clz32(sum_of_exps)
    num_bits_over_unit = 12 - headroom
    shifted_minus_one = _wrap32((sum_of_exps << headroom) - (1 << 31))
    scale = _one_over_one_plus_x(shifted_minus_one)
    exponent = (num_bits_over_unit + 31 - 8)[:, None]
    out = rdbpot(srdhm(scale[:, None], exps), exponent) - 128
    out = np.where(valid, np.clip(out, -128, 127), -128)
    return out.astype(np.int8).ravel()


# --- element-wise -------------------------------------------------------------------------------

def elementwise_add(case):
    a = np.asarray(case["input"], np.int64) + case["input_1_offset"]
    b = np.asarray(case["input2"], np.int64) + case["input_2_offset"]
    ls = case["left_shift"]
    x1 = _requantize(case)(_wrap32(a << ls), case["input_1_mult"], case["input_1_shift"])
    x2 = _requantize(case)(_wrap32(b << ls), case["input_2_mult"], case["input_2_shift"])
    y = _requantize(case)(_wrap32(x1 + x2), case["out_mult"], case["out_shift"]) + case["out_offset"]
    return _clamp8(y, case["out_activation_min"], case["out_activation_max"])


def elementwise_mul(case):
    a = np.asarray(case["input"], np.int64) + case["input_1_offset"]
    b = np.asarray(case["input2"], np.int64) + case["input_2_offset"]
    y = _requantize(case)(a * b, case["out_mult"], case["out_shift"]) + case["out_offset"]
    return _clamp8(y, case["out_activation_min"], case["out_activation_max"])


__all__ = ["requantize", "srdhm", "rdbpot"]


def transpose_conv(case):
    """README transpose_conv: each input pixel scatters (input + input_offset) * weights
    onto the stride-spaced output window; contributions outside output_dims dropped."""
    n, h, w, c = _dims(case["input_dims"])
    oc, fh, fw, _ = _dims(case["filter_dims"])
    _, out_h, out_w, _ = _dims(case["output_dims"])
    p = case["transpose_conv_params"]
    sh, sw = p["stride"]["h"], p["stride"]["w"]
    ph, pw = p["padding"]["h"], p["padding"]["w"]
    x = np.asarray(case["input"], np.int64).reshape(n, h, w, c) + p["input_offset"]
    wt = np.asarray(case["weights"], np.int64).reshape(oc, fh, fw, c)
    # a full-size canvas with the padding before, cropped afterwards
    full = np.zeros((n, (h - 1) * sh + fh + out_h, (w - 1) * sw + fw + out_w, oc), np.int64)
    for ky in range(fh):
        for kx in range(fw):
            full[:, ky:ky + (h - 1) * sh + 1:sh, kx:kx + (w - 1) * sw + 1:sw, :] += \
                x @ wt[:, ky, kx, :].T
    acc = full[:, ph:ph + out_h, pw:pw + out_w, :]
    acc = _wrap32(acc + _bias(case, oc))
    mult, shift = _per_channel(case, oc)
    y = _requantize(case)(acc, mult, shift) + p["output_offset"]
    return _clamp8(y, p["activation"]["min"], p["activation"]["max"]).ravel()


def svdf_run(case):
    """README svdf / svdf_state_s16: every input block in turn, the state carried over.
    Returns (output of the last step, state after it) as flat int64 arrays; a state
    element is clamped to input_activation and wrapped to the state type, as the kernel's
    store does."""
    p = case["svdf_params"]
    n, size = case["input_dims"]["n"], case["input_dims"]["h"]
    features = case["weights_feature_dims"]["n"]
    time = case["weights_time_dims"]["h"]
    rank = p["rank"]
    bits = 16 if case["family"] == "svdf_state_s16" else 8
    state = np.asarray(case["state"], np.int64).reshape(n, features, time).copy()
    x_all = np.asarray(case["input"], np.int64).reshape(-1, n, size)
    wf = np.asarray(case["weights_feature"], np.int64).reshape(features, size)
    wt = np.asarray(case["weights_time"], np.int64).reshape(features, time)
    qi, qo = case["input_quant_params"], case["output_quant_params"]
    act_in, act_out = p["input_activation"], p["output_activation"]
    out = None
    for x in x_all:
        state = np.concatenate([state.reshape(n, -1)[:, 1:],
                                np.zeros((n, 1), np.int64)], axis=1).reshape(n, features, time)
        feat = _requantize(case)(_wrap32((x - p["input_offset"]) @ wf.T), qi["multiplier"], qi["shift"])
        feat = np.clip(feat, act_in["min"], act_in["max"])
        state[:, :, -1] = ((feat + 2**(bits - 1)) % 2**bits) - 2**(bits - 1)
        t = _wrap32(np.einsum("bft,ft->bf", state, wt))
        u = t.reshape(n, features // rank, rank).sum(axis=2) + _bias(case, features // rank)
        y = _requantize(case)(_wrap32(u), qo["multiplier"], qo["shift"]) + p["output_offset"]
        out = np.clip(y, act_out["min"], act_out["max"])
    return out.ravel(), state.ravel()


def svdf(case):
    return svdf_run(case)[0].astype(np.int8)
