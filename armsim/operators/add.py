"""ADD: TFLM's Register_ADD() (cmsis_nn/add.cc, add.cc), Prepare as add_common.cc derives it
(left shift 20, 15 for int16, input and output multipliers from twice the larger input
scale).  int16 (EvalAddQuantizedInt16): arm_elementwise_add_s16; cmsis_nn/add.cc's Prepare
requires zero points 0, which TFLM's reference add.cc does not: a non-zero one is left to
TFLM on the host.  A broadcast (ProcessBroadcastShapes: the extended shapes differ) runs
TFLM's reference BroadcastAdd4DSlow on every path, as cmsis_nn/add.cc falls back to it
(`common.binary_step`, kernels/tflm/broadcast_binary.py)."""
from armsim.kernels.tflm import broadcast_binary
from armsim.kernels.tflm.quantization_util import (QuantizationError,
                                                   quantize_multiplier_smaller_than_one_exp)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, binary_operands, binary_step, case_tag, error,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    a, b, out, lo, hi = binary_operands(model, op)
    int16 = a.type == "INT16"
    if int16:
        for t, what in ((a, "input1"), (b, "input2"), (out, "output")):
            if tensor_zero_point(t) != 0:
                raise NotSimulated(f"{what} {t.describe()} is INT16 with zero point "
                                   f"{tensor_zero_point(t)}: TFLM's CMSIS-NN add Prepare "
                                   f"requires 0")
    left = 15 if int16 else 20
    twice = 2 * float(max(tensor_scale(a), tensor_scale(b)))
    try:
        m1, s1 = quantize_multiplier_smaller_than_one_exp(float(tensor_scale(a)) / twice)
        m2, s2 = quantize_multiplier_smaller_than_one_exp(float(tensor_scale(b)) / twice)
        mo, so = quantize_multiplier_smaller_than_one_exp(
            twice / ((1 << left) * float(tensor_scale(out))))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    family = "elementwise_add_s16" if int16 else "elementwise_add"
    case = {"case": case_tag(model, op), "family": family,
            "input_1_offset": -tensor_zero_point(a), "input_1_mult": m1, "input_1_shift": s1,
            "input_2_offset": -tensor_zero_point(b), "input_2_mult": m2, "input_2_shift": s2,
            "left_shift": left, "out_offset": tensor_zero_point(out), "out_mult": mo,
            "out_shift": so, "out_activation_min": lo, "out_activation_max": hi}
    return binary_step(model, op, a, b, out, case)


OPERATOR = Operator(
    name="ADD", max_version=5, prepare=prepare,
    options="AddOptions", option_fields=("FusedActivationFunction",),
    glue={"cmsis": EvalGlue((30 + 165 + 43 + 52, 32 + 166 + 43 + 52), (2, 1, 5, 0)),
          # EvalAdd + EvalAddQuantizedInt8 + ProcessBroadcastShapes + memcmp
          "reference": EvalGlue((36 + 43 + 52 + 79, 36 + 43 + 52 + 79), (2, 1, 5, 0))},
          # AddEval + broadcast shapes + memcmp + memset of params
    op_data=(8, 88, 88),       # TfLiteAddParams; OpDataAdd
    run_reference=broadcast_binary.run_reference,   # a broadcast, on every path
    families=("elementwise_add", "elementwise_add_s16"),
    converter_version=2,
)
