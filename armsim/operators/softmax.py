"""SOFTMAX: TFLM's Register_SOFTMAX() (cmsis_nn/softmax.cc, softmax.cc), Prepare as
softmax_common.cc derives it (PreprocessSoftmaxScaling, CalculateInputRadius)."""
import math

import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, quantize_multiplier_greater_than_one)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, require_int8,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    require_int8(model, op, inp, "input")
    require_int8(model, op, out, "output")
    if tensor_zero_point(out) != -128 or tensor_scale(out) != np.float32(1.0 / 256):
        raise error(model, op, f"output {out.describe()} must have zero point -128 and scale "
                              f"1/256 (TFLM int8 softmax)")
    if inp.shape != out.shape:
        raise error(model, op, "input and output shapes differ")
    beta = float(np.float32(op.options["Beta"]))
    # PreprocessSoftmaxScaling(beta, input_scale, kScaledDiffIntegerBits = 5)
    bits = 5
    real = min(beta * float(tensor_scale(inp)) * (1 << (31 - bits)), (1 << 31) - 1.0)
    try:
        mult, left = quantize_multiplier_greater_than_one(real)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    # CalculateInputRadius(5, left_shift, 31)
    radius = math.floor(1.0 * ((1 << bits) - 1) * (1 << (31 - bits)) / (1 << left))
    row = inp.shape[-1] if inp.shape else 1
    case = {"case": case_tag(model, op), "family": "softmax",
            "num_rows": inp.size // row, "row_size": row, "mult": mult, "shift": left,
            "diff_min": -radius}
    return Step(op.index, op.op, "softmax", False, case, {"input": inp.index}, out.index,
                out.shape)


OPERATOR = Operator(
    name="SOFTMAX", max_version=3, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # softmax_common.cc SoftmaxPrepare
    options="SoftmaxOptions",
    option_fields=("Beta",),
    glue={"cmsis": EvalGlue((37, 36), (1, 1, 0, 0)),                 # SoftmaxEval
          "reference": EvalGlue((48, 48), (1, 1, 2, 0))},
    op_data=(4, 64, 64),       # TfLiteSoftmaxParams; SoftmaxParams
)
