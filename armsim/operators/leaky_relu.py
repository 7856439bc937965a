"""LEAKY_RELU: TFLM's Register_LEAKY_RELU() (leaky_relu.cc, leaky_relu_common.cc
CalculateOpDataLeakyRelu), the reference kernel on every path, int8 or int16.

Prepare: input and output types equal (TF_LITE_ENSURE_TYPES_EQ), one input and one output;
output_multiplier_alpha/shift = QuantizeMultiplier((double)(input scale * alpha / output
scale)) computed in float (a negative alpha gives a negative multiplier, whose sign the
kernel takes out), output_multiplier_identity/shift from input scale / output scale.
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import Operator
from armsim.operators.common import (Step, error, element_type, require_int8_or_int16,
                                     tensor_scale, tensor_zero_point)
from armsim.operators.relu import UNARY_GLUE, unary_case, unary_operands


def _multiplier(model, op, real, what):
    try:
        return quantize_multiplier(real)
    except QuantizationError as e:
        raise error(model, op, f"{what} multiplier {real!r}: {e}") from None


def prepare(model, op):
    inp = model.tensors[op.inputs[0]]
    out = model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type}, output "
                               f"{out.describe()} {out.type} (TFLM requires equal types)")
    inp, out = unary_operands(model, op, int16=True)
    elem = require_int8_or_int16(model, op, out, "output")
    in_scale, out_scale = tensor_scale(inp), tensor_scale(out)
    alpha = np.float32(op.options["Alpha"])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        real_alpha = float(in_scale * alpha / out_scale)      # float arithmetic, then double
        real_identity = float(in_scale / out_scale)
    mult_a, shift_a = _multiplier(model, op, real_alpha, "alpha")
    mult_i, shift_i = _multiplier(model, op, real_identity, "identity")
    case = unary_case(model, op, inp, "leaky_relu", input_offset=tensor_zero_point(inp),
                      output_offset=tensor_zero_point(out), multiplier_alpha=mult_a,
                      shift_alpha=shift_a, multiplier_identity=mult_i, shift_identity=shift_i,
                      elem=elem)
    return Step(op.index, op.op, "leaky_relu", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import activations
    return activations.run_leaky_relu(m, case, addr, tracer)


OPERATOR = Operator(
    name="LEAKY_RELU", max_version=2, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # leaky_relu_common.cc CalculateOpDataLeakyRelu
    options="LeakyReluOptions", option_fields=("Alpha",),
    glue=UNARY_GLUE,
    op_data=(4, 24, 24),       # TfLiteLeakyReluParams {float alpha}; LeakyReluOpData (6 int32)
    run_reference=run_reference,
)
