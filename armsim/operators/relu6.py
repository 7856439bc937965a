"""RELU6: TFLM's Register_RELU6() (activations.cc, activations_common.cc Relu6Prepare), the
reference kernel on every path.

Prepare works in the input's quantization only: zero = input zero point, six =
FloatToQuantizedType<int8_t>(6.0f, input scale, input zero point) (round(6 / scale) + zero
point clamped to int8); the output's quantization is not read, and Relu6Quantized<int8_t>
clamps the input bytes to [(int8_t)zero, (int8_t)six] without requantizing.
"""
import numpy as np

from armsim.operators import Operator
from armsim.kernels.tflm.quantization_util import tflite_round
from armsim.operators.common import Step, error, tensor_scale, tensor_zero_point
from armsim.operators.relu import UNARY_GLUE, unary_case, unary_operands


def _int8(v):
    """static_cast<int8_t> of an int32 (two's complement truncation)."""
    return (int(v) + 128) % 256 - 128


def prepare(model, op):
    inp, out = unary_operands(model, op)
    zp = tensor_zero_point(inp)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        q = float(np.float32(6.0) / tensor_scale(inp))      # value / scale in float
    r = tflite_round(q) if np.isfinite(q) else q            # round(): half away from zero
    if not -2.0**31 <= r < 2.0**31:
        raise error(model, op, f"input {inp.describe()}: 6 / scale {q!r} overflows int32 "
                               f"(FloatToQuantizedType's conversion is undefined there)")
    six = min(127, max(-128, int(r) + zp))
    case = unary_case(model, op, inp, "relu6", zero=_int8(zp), six=_int8(six))
    return Step(op.index, op.op, "relu6", True, case, {"input": inp.index}, out.index,
                out.shape)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import activations
    return activations.run_relu6(m, case, addr, tracer)


OPERATOR = Operator(
    name="RELU6", max_version=3, prepare=prepare,
    glue=UNARY_GLUE,
    op_data=(0, 8, 8),         # Relu6OpData {int32 six, zero}
    run_reference=run_reference,
)
