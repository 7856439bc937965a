"""ABS: TFLM's Register_ABS() (elementwise.cc PrepareAbsRsqrt / AbsEval), the reference
kernel on every path.

Prepare: one input and one output of equal type (float32, int8 or int16); int8 needs both
affine-quantized; input/output offsets are the zero points, needs_rescale = the two float
scales differ, and then QuantizeMultiplier((double)(input scale / output scale)).
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, tensor_scale, tensor_zero_point)

TYPES = ("FLOAT32", "INT8", "INT16")        # IsAbsSupportedType


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type}, output "
                               f"{out.describe()} {out.type} (TFLM requires equal types)")
    if inp.type not in TYPES:
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's ABS takes "
                               f"{', '.join(TYPES)}")
    if inp.type == "FLOAT32" or (inp.type == "INT16" and not len(inp.scale)):
        raise NotSimulated(f"input {inp.describe()} is {inp.type} without quantization: "
                           f"armsim simulates quantized int8 and int16")
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters "
                                   f"(TFLM requires affine quantization)")
        if inp.type == "INT16" and tensor_zero_point(t) != 0:
            raise error(model, op, f"{what} {t.describe()} zero point {tensor_zero_point(t)} "
                                   f"(TFLM's int16 ABS requires 0)")
    elem = 2 if inp.type == "INT16" else 1
    if out.size != inp.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, input "
                               f"{inp.size} (TFLM writes the input's count)")
    in_scale, out_scale = tensor_scale(inp), tensor_scale(out)
    needs_rescale = bool(in_scale != out_scale)
    mult = shift = 0
    if needs_rescale:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            real = float(np.float32(in_scale / out_scale))
        try:
            mult, shift = quantize_multiplier(real)
        except QuantizationError as e:
            raise error(model, op, f"input/output scale {real!r}: {e}") from None
    case = {"case": case_tag(model, op), "family": "abs", "rank": len(inp.shape),
            "size": int(inp.size), "input_offset": tensor_zero_point(inp),
            "output_offset": tensor_zero_point(out), "needs_rescale": int(needs_rescale),
            "multiplier": mult, "shift": shift, "elem": elem}
    return Step(op.index, op.op, "abs", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import elementwise
    return elementwise.run_abs(m, case, addr, tracer)


OPERATOR = Operator(
    name="ABS", max_version=5, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # elementwise.cc PrepareAbsRsqrt
    # AbsEval: the op data's type switch, GetEvalInput, GetEvalOutput, the type check
    # (ElementCount and the loop are in the port); body an estimate
    glue={"reference": EvalGlue((10, 10), (1, 1, 0, 0))},
    op_data=(0, 28, 28),       # OpDataAbsRsqrt
    run_reference=run_reference,
)
