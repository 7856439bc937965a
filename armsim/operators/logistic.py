"""LOGISTIC: TFLM's Register_LOGISTIC() (logistic.cc, logistic_common.cc
CalculateArithmeticOpDataLogistic), the reference kernel on every path; int8.

Prepare (int8): input and output types equal, the output's zero point -128 (its scale is
not read: the kernel writes 1/256 steps); input_real_multiplier = (double)input scale *
2^27 (kInputIntegerBits 4); q = frexp(..., &input_left_shift); input_multiplier =
(int32)TfLiteRound(q * 2^31); input_range_radius = CalculateInputRadius(4, left shift, 31)
= floor(15 * 2^27 / 2^left_shift).
"""
import math

from armsim.kernels.tflm.quantization_util import tflite_round
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, tensor_scale,
                                     tensor_zero_point)
from armsim.operators.relu import unary_operands

INPUT_INTEGER_BITS = 4


def input_params(model, op, inp, integer_bits):
    """(multiplier, left shift, radius) of LOGISTIC's / TANH's int8 Prepare."""
    real = float(tensor_scale(inp)) * float(1 << (31 - integer_bits))
    q, shift = math.frexp(real)
    mult = int(tflite_round(q * float(1 << 31)))
    if not (real > 0 and math.isfinite(real)) or mult >= 2**31 or shift < 0:
        # a mantissa rounding to 2^31 or a negative shift: TFLM's int32 cast / 1LL << shift
        # are undefined there
        raise error(model, op, f"input {inp.describe()}: scale {float(tensor_scale(inp)):g} "
                               f"gives no valid input multiplier")
    radius = math.floor(((1 << integer_bits) - 1) * float(1 << (31 - integer_bits)) /
                        float(1 << shift))
    return mult, shift, radius


def prepare(model, op):
    inp = model.tensors[op.inputs[0]]
    out = model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type}, output "
                               f"{out.describe()} {out.type} (TFLM requires equal types)")
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    inp, out = unary_operands(model, op)
    if tensor_zero_point(out) != -128:
        raise error(model, op, f"output {out.describe()} has zero point "
                               f"{tensor_zero_point(out)}; TFLM's int8 LOGISTIC requires -128")
    mult, shift, radius = input_params(model, op, inp, INPUT_INTEGER_BITS)
    case = {"case": case_tag(model, op), "family": "logistic", "size": int(inp.size),
            "input_zp": tensor_zero_point(inp), "radius": radius, "multiplier": mult,
            "left_shift": shift}
    return Step(op.index, op.op, "logistic", True, case, {"input": inp.index}, out.index,
                out.shape)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import logistic
    return logistic.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="LOGISTIC", max_version=3, prepare=prepare,
    # LogisticEval: GetEvalInput, GetEvalOutput, the type switches, NumElements (no
    # shapes); body an estimate
    glue={"reference": EvalGlue((14, 14), (1, 1, 0, 0))},
    op_data=(0, 16, 16),       # OpDataLogistic
    run_reference=run_reference,
)
