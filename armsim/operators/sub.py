"""SUB: TFLM's Register_SUB() (sub.cc, sub_common.cc), the reference kernel on every path;
int8 and int16: Sub (SubElementwise); BroadcastQuantSubSlow<T> when
ProcessBroadcastShapes finds the inputs' extended shapes differ (kernels/tflm/broadcast_binary.py).

Prepare (CalculateOpDataSub, int8 / int16): input offsets = -zero points, output offset = its
zero point, left_shift 20 (int16: 15), twice_max_input_scale = 2 * max(scales), the three
multipliers QuantizeMultiplierSmallerThanOneExp of the quotients in double (as TFLM's
interpreter computes them, see `prepare`), and the fused activation's range
(CalculateActivationRangeQuantized).
"""
import numpy as np

from armsim.kernels.tflm.broadcast_binary import needs_broadcast
from armsim.kernels.tflm.quantization_util import (QuantizationError,
                                                   quantize_multiplier_smaller_than_one_exp)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, binary_operands, case_tag, error,
                                     element_type, tensor_scale, tensor_zero_point)

LEFT_SHIFT = {"INT8": 20, "INT16": 15}     # by the output's type


def prepare(model, op):
    a, b, out, lo, hi = binary_operands(model, op)
    elem = 2 if out.type == "INT16" else 1
    left_shift = LEFT_SHIFT[out.type]
    sa, sb, so = tensor_scale(a), tensor_scale(b), tensor_scale(out)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # double arithmetic: sub_common.cc at 90b983c divides in float, but TFLM's Python
        # interpreter matches double (scales 0.05 / 0.02: 3 of 24 outputs differ in float)
        sa, sb, so = np.float64(sa), np.float64(sb), np.float64(so)
        twice = 2 * max(sa, sb)
        reals = (float(sa / twice), float(sb / twice),
                 float(twice / ((1 << left_shift) * so)))
    try:
        (m1, s1), (m2, s2), (mo, so_) = (quantize_multiplier_smaller_than_one_exp(r)
                                         for r in reals)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    case = {"case": case_tag(model, op), "family": "sub",
            "input_1_offset": -tensor_zero_point(a), "input_1_mult": m1, "input_1_shift": s1,
            "input_2_offset": -tensor_zero_point(b), "input_2_mult": m2, "input_2_shift": s2,
            "left_shift": left_shift, "out_offset": tensor_zero_point(out), "out_mult": mo,
            "out_shift": so_, "out_activation_min": lo, "out_activation_max": hi,
            "size": int(out.size), "elem": elem}
    if needs_broadcast(a.shape, b.shape):
        case.update(input1_shape=list(a.shape), input2_shape=list(b.shape),
                    output_shape=list(out.shape), element_bytes=elem)
    step = Step(op.index, op.op, "sub", case, {"inputs": [a.index, b.index]}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))
    dtype = np.int16 if elem == 2 else np.int8
    step.constants = {t.index: np.asarray(t.data).astype(dtype) for t in (a, b) if t.constant}
    return step


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
