"""SUB: TFLM's Register_SUB() (sub.cc, sub_common.cc), the reference kernel on every path;
int8 or int16 without broadcasting (a broadcast SUB is left to TFLM on the host).

Prepare (CalculateOpDataSub, int8 / int16): input offsets = -zero points, output offset = its
zero point, left_shift 20 (int16: 15), twice_max_input_scale = 2 * max(scales) in float, the three
multipliers QuantizeMultiplierSmallerThanOneExp of (double)(float quotients), and the fused
activation's range (CalculateActivationRangeQuantized).
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError,
                                                   quantize_multiplier_smaller_than_one_exp)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, binary_operands, case_tag, error,
                                     int16_output, require_elementwise, tensor_scale,
                                     tensor_zero_point)

LEFT_SHIFT = {"INT8": 20, "INT16": 15}     # by the output's type


def prepare(model, op):
    a, b, out, lo, hi = binary_operands(model, op)
    left_shift = LEFT_SHIFT[out.type]
    sa, sb, so = tensor_scale(a), tensor_scale(b), tensor_scale(out)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        twice = np.float32(2) * max(sa, sb)                  # float arithmetic, as in C
        reals = (float(sa / twice), float(sb / twice),
                 float(twice / (np.float32(1 << left_shift) * so)))
    try:
        (m1, s1), (m2, s2), (mo, so_) = (quantize_multiplier_smaller_than_one_exp(r)
                                         for r in reals)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    require_elementwise(a, b)
    if a.constant or b.constant:
        raise NotSimulated("a constant operand: armsim's port takes activations")
    case = {"case": case_tag(model, op), "family": "sub",
            "input_1_offset": -tensor_zero_point(a), "input_1_mult": m1, "input_1_shift": s1,
            "input_2_offset": -tensor_zero_point(b), "input_2_mult": m2, "input_2_shift": s2,
            "left_shift": left_shift, "out_offset": tensor_zero_point(out), "out_mult": mo,
            "out_shift": so_, "out_activation_min": lo, "out_activation_max": hi,
            "size": int(out.size), "elem": 2 if out.type == "INT16" else 1}
    return Step(op.index, op.op, "sub", True, case, {"inputs": [a.index, b.index]},
                out.index, out.shape, extra=int16_output(case["elem"]))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import sub
    return sub.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SUB", max_version=5, prepare=prepare,
    options="SubOptions", option_fields=("FusedActivationFunction",),
    # SubEval + EvalSubQuantized (ArithmeticParams filled) + ProcessBroadcastShapes + memcmp:
    # ADD's reference glue figures taken for the same code shape (an estimate)
    glue={"reference": EvalGlue((36 + 43 + 52 + 79, 36 + 43 + 52 + 79), (2, 1, 5, 0))},
    op_data=(4, 48, 48),       # TfLiteSubParams; OpDataSub (bool + 11 int32)
    run_reference=run_reference,
)
