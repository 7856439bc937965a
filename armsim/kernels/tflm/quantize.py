"""TFLite Micro's reference QUANTIZE (quantize_common.cc EvalQuantizeReference).

int8 / int16 -> int8 / int16 is a requantization (reference_ops::Requantize<input_type,
output_type>), each element loaded and stored at its type's width and clamped to the
output's range:

    const int32_t input = input_data[i] - input_zeropoint;
    const int32_t output = MultiplyByQuantizedMultiplier(input, effective_scale_multiplier,
                                                         effective_scale_shift) + output_zeropoint;
    output_data[i] = clamp(output, output_type's min, max);

MultiplyByQuantizedMultiplier (double rounding) is the same arithmetic as CMSIS-NN's
arm_nn_requantize, which is used here for it.  float32 -> int8 (AffineQuantize) needs the
FPU, which armsim does not model: `host_quantize` computes it on the host, as TFLM does:
``clamp(zero_point + (int32)TfLiteRound(value / scale))`` in float.
"""
import numpy as np

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, ldrsb, ldrsh, pop_pc, push, ssat, str_, strb, strh,
                            sub)

from armsim.kernels.cmsis_nn.arm_nn_requantize import arm_nn_requantize


@kernel
def requantize(m, inp, out, size, in_bytes, out_bytes, input_zp, output_zp, mult, shift):
    """Requantize<in, out>: `in_bytes` 1 (int8) or 2 (int16), `out_bytes` 1, 2 or 4 (int32).
    The loop is the int8 one's with LDRSH / STRH and SSAT #16 for the int16 sides, and for
    an int32 output STR with no clamp (std::min/max to int32's own limits fold away)
    (estimated: no measured 16x8 TFLM build exists)."""
    bl(m)
    push(m, 6)
    for i in range(size):
        if in_bytes == 1:
            v = ldrsb(m, inp + i)
        else:
            v = ldrsh(m, inp + 2 * i)
        v = sub(m, v, input_zp)                         # input_data[i] - input_zeropoint
        bl(m)                                           # MultiplyByQuantizedMultiplier
        push(m, 2)
        v = arm_nn_requantize(m, v, mult, shift)
        pop_pc(m, 2)
        v = add(m, v, output_zp)
        if out_bytes < 4:
            v = ssat(m, v, 8 * out_bytes, 0)            # std::min/max to the output type
        if out_bytes == 1:
            strb(m, out + i, v)
        elif out_bytes == 2:
            strh(m, out + 2 * i, v)
        else:
            str_(m, out + 4 * i, v)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)
    pop_pc(m, 6)
    return 0


_BYTES = {"INT8": 1, "INT16": 2, "INT32": 4}
_C_TYPE = {"INT8": "int8_t", "INT16": "int16_t", "INT32": "int32_t"}


def run_reference(m, case, addr, tracer=None):
    run(requantize, m, addr["input"], addr["output"], case["size"], _BYTES[case["from"]],
        _BYTES[case["to"]], case["input_zp"], case["output_zp"], case["multiplier"],
        case["shift"], tracer=tracer)
    return [f"Requantize<{_C_TYPE[case['from']]}, {_C_TYPE[case['to']]}>"]


def host_quantize(case, x):
    """float32 -> int8 AffineQuantize on the host, as TFLM's interpreter computes it:
    ``clamp((int32_t)TfLiteRound(value / (float)scale) + zero_point)``.

    The quotient is IEEE float32 division (a zero scale gives +/-inf or NaN, as in C); a
    rounded quotient outside int32 (or NaN) converts, as x86's cvttss2si does in TFLM's
    Python interpreter, to INT32_MIN (undefined in C++; a Cortex-M's VCVT would saturate);
    the int32 sum wraps.  Computed explicitly, so numpy has nothing to warn about."""
    x = np.asarray(x, np.float32)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        q = (x / np.float32(case["scale"])).astype(np.float64)   # the float quotient, exact
    a = np.abs(q)
    f = np.floor(a)
    with np.errstate(invalid="ignore"):                          # inf - inf for infinite a
        q = np.copysign(f + (a - f >= 0.5), q)                   # TfLiteRound: half away
    fits = np.isfinite(q) & (q >= -2.0**31) & (q < 2.0**31)
    as_int32 = np.where(fits, q, -2.0**31).astype(np.int64)
    unclamped = (as_int32 + case["zero_point"] + 2**31) % 2**32 - 2**31
    return np.clip(unclamped, -128, 127).astype(np.int8)
