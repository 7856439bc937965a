"""tflite::reference_integer_ops::FullyConnected<int16_t, int8_t, int16_t, int64_t>
(kernels/internal/reference/integer_ops/fully_connected.h), TFLM's reference FULLY_CONNECTED
for int16 activations with an int64 bias (fully_connected.cc, kTfLiteInt16 / kTfLiteInt8):

    BiasType acc = 0;
    for (int d = 0; d < accum_depth; ++d)
        acc += (filter_val + filter_offset) * (input_val + input_offset);
    if (bias_data) acc += bias_data[out_c];
    int32_t acc_scaled = MultiplyByQuantizedMultiplier(acc, output_multiplier, output_shift);
    acc_scaled += output_offset; clamp; output_data[...] = (int16_t)acc_scaled;

The int32 product is accumulated into the int64 `acc` with SMLAL.  The frame and loop
bookkeeping follow the int8 port (kernels/tflm/fully_connected.py); no measured 16x8 TFLM
build exists in ../shared to calibrate against.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, ldr_sp, ldrd, ldrd_sp, ldrsb, ldrsh, mov,
                            pop_pc, push, smlal, str_sp, strh, sub)
from armsim.kernels.cmsis_nn.arm_nn_vec_mat_mult_t_s16 import _add64
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.multiply_s64 import MBQM64, MultiplyByQuantizedMultiplier64

NAME = "tflite::reference_integer_ops::FullyConnected<short, signed char, short, long long>"


@kernel
def FullyConnected(m, input_offset, filter_offset, output_offset, output_multiplier,
                   output_shift, output_activation_min, output_activation_max, input_data,
                   filter_data, bias_data, batches, accum_depth, output_depth, output_data):
    push(m, 9)
    sub(m, 0, 44)
    for _ in range(8):                                  # the params struct, shapes
        ldr_sp(m)
    for _ in range(4):
        str_sp(m)
    cmp(m, batches, 0)
    bcc(m, batches <= 0)
    in_row = input_data
    for b in range(batches):                            # for (b = 0; b < batches; ++b)
        out_ptr = output_data + 2 * b * output_depth
        f_row = filter_data
        bias_ptr = bias_data
        cmp(m, output_depth, 0)
        bcc(m, output_depth <= 0)
        for _o in range(output_depth):                  # for (out_c ...)
            ldr_sp(m)
            lo = mov(m, 0)                              # BiasType acc = 0;
            hi = mov(m, 0)
            ip = in_row
            fp = f_row
            cmp(m, accum_depth, 0)
            bcc(m, accum_depth <= 0)
            for _d in range(accum_depth):
                input_val = ldrsh(m, ip)                # input_data[b * accum_depth + d]
                filter_val = ldrsb(m, fp)               # filter_data[out_c * accum_depth + d]
                ip += 2
                fp += 1
                input_val = add(m, input_val, input_offset)
                filter_val = add(m, filter_val, filter_offset)
                cmp(m, ip, in_row + 2 * accum_depth)
                lo, hi = smlal(m, lo, hi, filter_val, input_val)
                bcc(m, ip != in_row + 2 * accum_depth)
            cbz(m, bias_data == 0)                      # if (bias_data)
            if bias_data != 0:
                b_lo, b_hi = ldrd(m, bias_ptr)          # acc += bias_data[out_c];
                lo, hi = _add64(m, lo, hi, b_lo, b_hi)
            ldrd_sp(m)                                  # output_multiplier, output_shift
            bl(m)
            acc = MultiplyByQuantizedMultiplier64(m, lo, hi, output_multiplier, output_shift)
            ldr_sp(m)
            acc = add(m, acc, output_offset)            # acc_scaled += output_offset;
            ldr_sp(m)
            acc = max_lt(m, acc, output_activation_min)
            ldr_sp(m)
            acc = min_ge(m, acc, output_activation_max)
            strh(m, out_ptr, acc)                       # output_data[out_c + output_depth * b]
            out_ptr += 2
            bias_ptr = add(m, bias_ptr, 8)
            f_row = add(m, f_row, accum_depth)
            cmp(m, _o + 1, output_depth)
            bcc(m, _o + 1 < output_depth)
        in_row = add(m, in_row, 2 * accum_depth)
        cmp(m, b + 1, batches)
        bcc(m, b + 1 < batches)
    add(m, 0, 44)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    p, q = case["fc_params"], case["quant_params"]
    act = p["activation"]
    run(FullyConnected, m, p["input_offset"], p["filter_offset"], p["output_offset"],
        q["multiplier"], q["shift"], act["min"], act["max"], addr["input"], addr["weights"],
        addr["bias"], case["output_dims"]["n"], case["filter_dims"]["n"],
        case["output_dims"]["c"], addr["output"], tracer=tracer)
    return [NAME, MBQM64]
