"""tflite::reference_integer_ops::ConvPerChannel for int16 activations
(kernels/internal/reference/integer_ops/conv.h, the `template <typename AccumScalar>`
16x8 overload), TFLM's reference CONV_2D for kTfLiteInt16 (conv.cc: AccumScalar int64_t
with an int64 bias, int32_t with an int32 bias):

    AccumScalar acc = 0;
    for filter_y, filter_x: if the tap is inside the input:
        for in_channel: acc += filter_val * input_val;      // no input offset (symmetric)
    if (bias_data) acc += bias_data[out_channel];
    int32_t scaled_acc = MultiplyByQuantizedMultiplier(acc, output_multiplier[out_channel],
                                                        output_shift[out_channel]);
    scaled_acc = std::max(scaled_acc, output_activation_min); std::min(..., max);
    output_data[...] = static_cast<int16_t>(scaled_acc);

The int64 accumulation is SMLAL per MAC and the int64 MultiplyByQuantizedMultiplier
(kernels/tflm/multiply_s64.py); the int32 one MLA and the int32 MultiplyByQuantizedMultiplier
(kernels/tflm/common.py).  The loop nest follows the C; no measured 16x8 TFLM build exists
in ../shared, so the frame and loop bookkeeping are read from the C, not fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, ldr, ldr_sp, ldrd, ldrsb, ldrsh, mla, mov,
                            mul, orr, pop_pc, push, smlal, strh, sub)
from armsim.kernels.cmsis_nn.arm_nn_vec_mat_mult_t_s16 import _add64
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier
from armsim.kernels.tflm.multiply_s64 import MBQM64, MultiplyByQuantizedMultiplier64

NAME = "tflite::reference_integer_ops::ConvPerChannel<short>"


@kernel
def ConvPerChannel16(m, stride_w, stride_h, dil_w, dil_h, pad_w, pad_h, act_min, act_max,
                     output_multiplier, output_shift, batches, in_h, in_w, in_d, input_data,
                     out_d, f_h, f_w, f_d, filter_data, bias_data, acc64, out_h, out_w,
                     output_data):
    push(m, 9)
    sub(m, 0, 60)
    for _ in range(16):                                 # params and shapes into the frame
        ldr_sp(m)
    groups = in_d // f_d
    filters_per_group = out_d // groups
    out_ptr = output_data
    for b in range(batches):
        for out_y in range(out_h):
            in_y_origin = sub(m, mul(m, out_y, stride_h), pad_h)
            for out_x in range(out_w):
                in_x_origin = sub(m, mul(m, out_x, stride_w), pad_w)
                for oc in range(out_d):
                    ldr_sp(m)
                    group = oc // filters_per_group
                    lo = mov(m, 0)                      # AccumScalar acc = 0;
                    hi = 0
                    if acc64:
                        hi = mov(m, 0)
                    for fy in range(f_h):
                        in_y = add(m, in_y_origin, dil_h * fy)
                        for fx in range(f_w):
                            in_x = add(m, in_x_origin, dil_w * fx)
                            ldr_sp(m)
                            orr(m, in_x, in_y)          # (in_x | in_y) < 0
                            inside = in_x >= 0 and in_y >= 0
                            bcc(m, not inside)
                            if inside:
                                cmp(m, in_x, in_w)
                                bcc(m, in_x >= in_w)
                                inside = in_x < in_w
                            if inside:
                                cmp(m, in_y, in_h)
                                bcc(m, in_y >= in_h)
                                inside = in_y < in_h
                            if not inside:
                                continue
                            ip = mla(m, add(m, mul(m, add(m, mul(m, b, in_h), in_y), in_w), in_x),
                                     in_d * 2, input_data) + group * f_d * 2
                            fp = filter_data + ((oc * f_h + fy) * f_w + fx) * f_d
                            for ic in range(f_d):       # for (in_channel ...)
                                input_val = ldrsh(m, ip + 2 * ic)
                                filter_val = ldrsb(m, fp + ic)
                                cmp(m, ic + 1, f_d)
                                if acc64:
                                    lo, hi = smlal(m, lo, hi, filter_val, input_val)
                                else:
                                    lo = mla(m, filter_val, input_val, lo)
                                bcc(m, ic + 1 < f_d)
                    ldr_sp(m)
                    cbz(m, bias_data == 0)              # if (bias_data)
                    mult = ldr(m, output_multiplier + 4 * oc)
                    shift = ldr(m, output_shift + 4 * oc)
                    bl(m)
                    if acc64:
                        if bias_data != 0:
                            b_lo, b_hi = ldrd(m, bias_data + 8 * oc)
                            lo, hi = _add64(m, lo, hi, b_lo, b_hi)
                        acc = MultiplyByQuantizedMultiplier64(m, lo, hi, mult, shift)
                    else:
                        if bias_data != 0:
                            lo = add(m, lo, ldr(m, bias_data + 4 * oc))
                        acc = MultiplyByQuantizedMultiplier(m, lo, mult, shift)
                    ldr_sp(m)
                    acc = max_lt(m, acc, act_min)       # std::max(acc, output_activation_min)
                    ldr_sp(m)
                    acc = min_ge(m, acc, act_max)       # std::min(acc, output_activation_max)
                    strh(m, out_ptr, acc)
                    out_ptr += 2
                    cmp(m, oc + 1, out_d)
                    bcc(m, oc + 1 < out_d)
                cmp(m, out_x + 1, out_w)
                bcc(m, out_x + 1 < out_w)
            cmp(m, out_y + 1, out_h)
            bcc(m, out_y + 1 < out_h)
    add(m, 0, 60)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["conv_params"]
    acc64 = int(not is_int32_bias(case))   # an int: a bool argument trips numba's cache
    run(ConvPerChannel16, m, p["stride"]["w"], p["stride"]["h"], p["dilation"]["w"],
        p["dilation"]["h"], p["padding"]["w"], p["padding"]["h"], p["activation"]["min"],
        p["activation"]["max"], addr["output_mult"], addr["output_shift"], i["n"], i["h"],
        i["w"], i["c"], addr["input"], o["c"], f["h"], f["w"], f["c"], addr["weights"],
        addr["bias"], acc64, o["h"], o["w"], addr["output"], tracer=tracer)
    return [NAME, MBQM64 if acc64 else MBQM]


def is_int32_bias(case):
    """The vectors' `is_int32_bias`, the measured cases' `bias_is_int32`."""
    return bool(case.get("is_int32_bias", case.get("bias_is_int32", False)))
