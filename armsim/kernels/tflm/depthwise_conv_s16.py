"""tflite::reference_integer_ops::DepthwiseConvPerChannel for int16 activations
(kernels/internal/reference/integer_ops/depthwise_conv.h, the int16 overload with an int64
bias), TFLM's reference DEPTHWISE_CONV_2D for kTfLiteInt16:

    int64_t acc = 0;
    for filter_y, filter_x: if the tap is inside the input:
        acc += filter_val * input_val;                      // int32 product, int64 sum
    if (bias_data) acc += bias_data[output_channel];
    int32_t scaled_acc = MultiplyByQuantizedMultiplier(acc, output_multiplier[oc], output_shift[oc]);
    clamp; output_data[...] = static_cast<int16_t>(scaled_acc);

SMLAL per MAC and the int64 MultiplyByQuantizedMultiplier (kernels/tflm/multiply_s64.py).
No measured 16x8 TFLM build exists in ../shared: the loop bookkeeping is read from the C.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, ldr, ldr_sp, ldrd, ldrsb, ldrsh, mla, mov, mul,
                            orr, pop_pc, push, smlal, strh, sub)
from armsim.kernels.cmsis_nn.arm_nn_vec_mat_mult_t_s16 import _add64
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.multiply_s64 import MBQM64, MultiplyByQuantizedMultiplier64

NAME = "tflite::reference_integer_ops::DepthwiseConvPerChannel<short>"


@kernel
def DepthwiseConvPerChannel16(m, stride_w, stride_h, dil_w, dil_h, pad_w, pad_h, ch_mult,
                              act_min, act_max, output_multiplier, output_shift, batches,
                              in_h, in_w, in_d, input_data, f_h, f_w, filter_data, bias_data,
                              out_h, out_w, output_data):
    push(m, 9)
    sub(m, 0, 60)
    for _ in range(16):
        ldr_sp(m)
    out_d = in_d * ch_mult
    out_ptr = output_data
    for b in range(batches):
        for out_y in range(out_h):
            in_y_origin = sub(m, mul(m, out_y, stride_h), pad_h)
            for out_x in range(out_w):
                in_x_origin = sub(m, mul(m, out_x, stride_w), pad_w)
                for ic in range(in_d):
                    for mi in range(ch_mult):
                        oc = mi + ic * ch_mult
                        ldr_sp(m)
                        lo = mov(m, 0)                  # int64_t acc = 0;
                        hi = mov(m, 0)
                        for fy in range(f_h):
                            in_y = add(m, in_y_origin, dil_h * fy)
                            for fx in range(f_w):
                                in_x = add(m, in_x_origin, dil_w * fx)
                                orr(m, in_x, in_y)      # (in_x | in_y) < 0
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
                                if inside:
                                    ip = mla(m, add(m, mul(m, add(m, mul(m, b, in_h), in_y), in_w),
                                                    in_x), in_d, ic)
                                    fp = mla(m, fy * f_w + fx, out_d, oc)
                                    input_val = ldrsh(m, input_data + 2 * ip)
                                    filter_val = ldrsb(m, filter_data + fp)
                                    lo, hi = smlal(m, lo, hi, filter_val, input_val)
                                cmp(m, fx + 1, f_w)
                                bcc(m, fx + 1 < f_w)
                            cmp(m, fy + 1, f_h)
                            bcc(m, fy + 1 < f_h)
                        cmp(m, bias_data, 0)            # if (bias_data)
                        bcc(m, bias_data == 0)
                        if bias_data != 0:
                            b_lo, b_hi = ldrd(m, bias_data + 8 * oc)
                            lo, hi = _add64(m, lo, hi, b_lo, b_hi)
                        mult = ldr(m, output_multiplier + 4 * oc)
                        shift = ldr(m, output_shift + 4 * oc)
                        bl(m)
                        acc = MultiplyByQuantizedMultiplier64(m, lo, hi, mult, shift)
                        ldr_sp(m)
                        acc = max_lt(m, acc, act_min)
                        ldr_sp(m)
                        acc = min_ge(m, acc, act_max)
                        strh(m, out_ptr, acc)
                        out_ptr += 2
                        cmp(m, mi + 1, ch_mult)
                        bcc(m, mi + 1 < ch_mult)
                    cmp(m, ic + 1, in_d)
                    bcc(m, ic + 1 < in_d)
                cmp(m, out_x + 1, out_w)
                bcc(m, out_x + 1 < out_w)
            cmp(m, out_y + 1, out_h)
            bcc(m, out_y + 1 < out_h)
    add(m, 0, 60)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    i, f, o, p = case["input_dims"], case["filter_dims"], case["output_dims"], case["dw_conv_params"]
    run(DepthwiseConvPerChannel16, m, p["stride"]["w"], p["stride"]["h"], p["dilation"]["w"],
        p["dilation"]["h"], p["padding"]["w"], p["padding"]["h"], p["ch_mult"],
        p["activation"]["min"], p["activation"]["max"], addr["output_mult"],
        addr["output_shift"], i["n"], i["h"], i["w"], i["c"], addr["input"], f["h"], f["w"],
        addr["weights"], addr["bias"], o["h"], o["w"], addr["output"], tracer=tracer)
    return [NAME, MBQM64]
