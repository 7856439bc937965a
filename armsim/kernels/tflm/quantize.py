"""TFLite Micro's reference QUANTIZE (quantize_common.cc EvalQuantizeReference).

int8 -> int8 is a requantization (reference_ops::Requantize):

    const int32_t input = input_data[i] - input_zeropoint;
    const int32_t output = MultiplyByQuantizedMultiplier(input, effective_scale_multiplier,
                                                         effective_scale_shift) + output_zeropoint;
    output_data[i] = clamp(output, INT8_MIN, INT8_MAX);

MultiplyByQuantizedMultiplier (double rounding) is the same arithmetic as CMSIS-NN's
arm_nn_requantize, which is used here for it.  float32 -> int8 (AffineQuantize) needs the
FPU, which armsim does not model: `host_quantize` computes it on the host, as TFLM does:
``clamp(zero_point + (int32)TfLiteRound(value / scale))`` in float.
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldrsb, pop_pc, push, ssat, strb, sub

from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize


@kernel
def requantize_s8(m, inp, out, size, input_zp, output_zp, mult, shift):
    bl(m)
    push(m, 6)
    for i in range(size):
        v = sub(m, ldrsb(m, inp + i), input_zp)        # input_data[i] - input_zeropoint
        bl(m)                                           # MultiplyByQuantizedMultiplier
        push(m, 2)
        v = arm_nn_requantize(m, v, mult, shift)
        pop_pc(m, 2)
        v = add(m, v, output_zp)
        v = ssat(m, v, 8, 0)                             # std::min/max to int8
        strb(m, out + i, v)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    pop_pc(m, 6)
    return 0


def run_reference(m, case, addr, tracer=None):
    run(requantize_s8, m, addr["input"], addr["output"], case["size"], case["input_zp"],
        case["output_zp"], case["multiplier"], case["shift"], tracer=tracer)
    return ["Requantize<int8_t, int8_t>"]


def host_quantize(case, x):
    """float32 -> int8 AffineQuantize on the host (float arithmetic, round half away)."""
    x = np.asarray(x, np.float32)
    q = (x / np.float32(case["scale"])).astype(np.float64)   # the float quotient, exact
    a = np.abs(q)
    f = np.floor(a)
    q = np.copysign(f + (a - f >= 0.5), q)                   # TfLiteRound: half away from 0
    return np.clip(q.astype(np.int64) + case["zero_point"], -128, 127).astype(np.int8)
