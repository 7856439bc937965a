"""RELU: TFLM's Register_RELU() (activations.cc, activations_common.cc ReluPrepare /
CalculateReluOpData<T>, T int8_t or int16_t), the reference kernel on every path.

Prepare: output_multiplier/shift = QuantizeMultiplier((double)(input scale / output scale)),
quantized_activation_min = max(T's min, output zero point + (int32)roundf(0.0f / scale)),
quantized_activation_max = T's max (act_max is +inf), input/output offsets = the zero points.
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, require_int8, require_int8_or_int16,
                                     tensor_scale, tensor_zero_point)

#: Relu/Relu6/LeakyRelu Eval: GetEvalInput, GetEvalOutput, the type switch, two
#: GetTensorShape (input, output).  Body size not measured: an estimate (two loads of
#: node->user_data / input->type, the switch's compare-and-branch, the call's arguments).
UNARY_GLUE = {"reference": EvalGlue((14, 14), (1, 1, 2, 0))}


def unary_operands(model, op, int16=False):
    """(input, output) of an int8 (or, `int16`, int16) elementwise activation; the input's
    flat size is what the kernel writes (MatchingFlatSize without its DCHECK), so the output
    must hold it."""
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    (require_int8_or_int16 if int16 else require_int8)(model, op, inp, "input")
    if out.type != inp.type:
        # TFLM does not check it for RELU / RELU6: its int8 kernel writes int8 values into
        # the other type's buffer; armsim leaves that to TFLM on the host
        raise NotSimulated(f"output {out.describe()} is {out.type}, input {inp.type}")
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.describe()} {inp.size} (TFLM's kernel writes the "
                               f"input's flat size)")
    return inp, out


def unary_case(model, op, inp, family, **fields):
    return {"case": case_tag(model, op), "family": family, "size": int(inp.size),
            "rank": len(inp.shape), **fields}


def prepare(model, op):
    inp, out = unary_operands(model, op, int16=True)
    elem = require_int8_or_int16(model, op, out, "output")
    bits = 8 * elem
    in_scale, out_scale = tensor_scale(inp), tensor_scale(out)
    with np.errstate(divide="ignore", invalid="ignore"):
        real = float(np.float32(in_scale / out_scale))       # float division, then double
    try:
        mult, shift = quantize_multiplier(real)
    except QuantizationError as e:
        raise error(model, op, f"input/output scale {real!r}: {e}") from None
    zp = tensor_zero_point(out)
    case = unary_case(model, op, inp, "relu", input_offset=tensor_zero_point(inp),
                      output_offset=zp, multiplier=mult, shift=shift,
                      activation_min=max(-(1 << (bits - 1)), zp),
                      activation_max=(1 << (bits - 1)) - 1, elem=elem)
    return Step(op.index, op.op, "relu", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import activations
    return activations.run_relu(m, case, addr, tracer)


OPERATOR = Operator(
    name="RELU", max_version=3, prepare=prepare,
    glue=UNARY_GLUE,
    op_data=(0, 28, 28),       # ReluOpData (ReluParams: ActivationParams + 4 int32)
    run_reference=run_reference,
)
