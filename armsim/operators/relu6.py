"""RELU6: TFLM's Register_RELU6() (activations.cc, activations_common.cc Relu6Prepare), the
reference kernel on every path, int8 or int16 (T).

Prepare works in the input's quantization only: zero = input zero point, six =
FloatToQuantizedType<T>(6.0f, input scale, input zero point) (round(6 / scale) + zero
point clamped to T); the output's quantization is not read, and Relu6Quantized<T>
clamps the input values to [(T)zero, (T)six] without requantizing.
"""
import numpy as np

from armsim.operators import Operator
from armsim.kernels.tflm.quantization_util import tflite_round
from armsim.operators.common import Step, error, element_type, tensor_scale, tensor_zero_point
from armsim.operators.relu import UNARY_GLUE, unary_case, unary_operands


def _cast(v, bits):
    """static_cast<int8_t / int16_t> of an int32 (two's complement truncation)."""
    half = 1 << (bits - 1)
    return (int(v) + half) % (2 * half) - half


def prepare(model, op):
    inp, out = unary_operands(model, op, int16=True)
    elem = 2 if inp.type == "INT16" else 1
    bits, zp = 8 * elem, tensor_zero_point(inp)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = float(np.float32(6.0) / tensor_scale(inp))      # value / scale in float
    r = tflite_round(q) if np.isfinite(q) else q            # round(): half away from zero
    if not -2.0**31 <= r < 2.0**31:
        raise error(model, op, f"input {inp.describe()}: 6 / scale {q!r} overflows int32 "
                               f"(FloatToQuantizedType's conversion is undefined there)")
    six = min((1 << (bits - 1)) - 1, max(-(1 << (bits - 1)), int(r) + zp))
    case = unary_case(model, op, inp, "relu6", zero=_cast(zp, bits), six=_cast(six, bits),
                      elem=elem)
    return Step(op.index, op.op, "relu6", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import activations
    return activations.run_relu6(m, case, addr, tracer)


OPERATOR = Operator(
    name="RELU6", max_version=3, prepare=prepare,
    glue=UNARY_GLUE,
    op_data=(0, 8, 8),         # Relu6OpData {int32 six, zero}
    run_reference=run_reference,
)
