"""LOG_SOFTMAX: TFLM's Register_LOG_SOFTMAX() (log_softmax.cc), int8, the reference kernel
LogSoftmaxQuantized on every path (kernels/tflm/log_softmax.py).

CalculateOpData (LogSoftmaxPrepare): one input and output of one type and shape; for int8 the
output scale exactly 16/256 and zero point 127 (TF_LITE_ENSUREs), then
PreprocessLogSoftmaxScalingExp(beta 1, input scale, 5 integer bits): the input multiplier and
left shift (PreprocessSoftmaxScaling), the reverse scaling divisor and right shift
(QuantizeMultiplierSmallerThanOneExp of 2^(31 - left shift) / multiplier), diff_min =
-CalculateInputRadius(5, left shift); outer_size and depth from the last dim.  FLOAT32 is
left to TFLM on the host; other types TFLM's Eval refuses.
"""
import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, calculate_input_radius,
                                                   preprocess_softmax_scaling,
                                                   quantize_multiplier_smaller_than_one_exp)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     tensor_scale, tensor_zero_point)

OUTPUT_SCALE = np.float32(16.0 / 256)          # kOutputScale
OUTPUT_ZERO_POINT = 127                        # kOutputZeroPoint
SCALED_DIFF_INTEGER_BITS = 5                   # kScaledDiffIntegerBits


def prepare(model, op):
    inp, out = input_tensor(model, op, 0, "input"), model.tensors[op.outputs[0]]
    if inp.type != out.type:
        raise error(model, op, f"input {inp.describe()} is {inp.type} but output "
                               f"{out.describe()} is {out.type}: TFLM's Prepare requires one "
                               f"type")
    if tuple(inp.shape) != tuple(out.shape):
        raise error(model, op, f"input shape {list(inp.shape)}, output {list(out.shape)}: "
                               f"TFLM's Prepare requires the same shape")
    if inp.type == "FLOAT32":
        raise NotSimulated("FLOAT32: armsim simulates the int8 kernel")
    if inp.type != "INT8":
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's LOG_SOFTMAX "
                               f"takes FLOAT32 or INT8")
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
    if tensor_scale(out) != OUTPUT_SCALE or tensor_zero_point(out) != OUTPUT_ZERO_POINT:
        raise error(model, op, f"output {out.describe()} scale {float(tensor_scale(out))} "
                               f"zero point {tensor_zero_point(out)}: TFLM's int8 Prepare "
                               f"requires 16/256 and 127")
    if not inp.shape:
        raise error(model, op, f"input {inp.describe()} is a scalar: TFLM's Prepare takes "
                               f"the last dim of a tensor of rank >= 1")
    try:                                       # PreprocessLogSoftmaxScalingExp(1.0, ...)
        multiplier, left_shift = preprocess_softmax_scaling(
            1.0, float(tensor_scale(inp)), SCALED_DIFF_INTEGER_BITS)
        divisor, divisor_shift = quantize_multiplier_smaller_than_one_exp(
            (1 << (31 - left_shift)) / float(multiplier))
    except QuantizationError as e:
        raise error(model, op, f"input scale {float(tensor_scale(inp))}: {e}") from None
    depth = int(inp.shape[-1])
    case = {"case": case_tag(model, op), "family": "log_softmax",
            "input_multiplier": multiplier, "input_left_shift": left_shift,
            "reverse_scaling_divisor": divisor, "reverse_scaling_right_shift": -divisor_shift,
            "diff_min": -calculate_input_radius(SCALED_DIFF_INTEGER_BITS, left_shift),
            "depth": depth, "outer_size": int(inp.size) // depth if depth else 0}
    return Step(op.index, op.op, "log_softmax", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import log_softmax
    return log_softmax.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="LOG_SOFTMAX", max_version=2, prepare=prepare,
    input_counts=(1,), output_counts=(1,),     # CalculateOpData's TF_LITE_ENSURE_EQs
    options="LogSoftmaxOptions",
    # LogSoftmaxEval: one input, one output, two GetTensorShape, the SoftmaxParams copy
    # (an estimate of its own body)
    glue={"reference": EvalGlue((30, 30), (1, 1, 2, 0))},
    op_data=(0, 28, 28),       # no builtin params; LogSoftmaxOpData (5 int32, 2 size_t)
    run_reference=run_reference,
)
