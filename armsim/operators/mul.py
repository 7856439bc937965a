"""MUL: TFLM's Register_MUL() (cmsis_nn/mul.cc, mul.cc), Prepare as mul_common.cc derives it
(QuantizeMultiplier of input1 scale x input2 scale / output scale).  int16:
arm_elementwise_mul_s16; mul_common.cc requires int16 zero points 0 (both builds refuse
others).  A broadcast (ProcessBroadcastShapes: the extended shapes differ) runs TFLM's
reference BroadcastMul4DSlow on every path, as cmsis_nn/mul.cc falls back to it
(`common.binary_step`, kernels/tflm/broadcast_binary.py)."""
from armsim.kernels.tflm import broadcast_binary
from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (binary_operands, binary_step, case_tag, error,
                                     input_tensor, tensor_scale, tensor_zero_point)


def _prepare_checks(model, op):
    """CalculateOpDataMul's refusals, before anything about shapes (a broadcast is refused
    the same): TF_LITE_ENSURE_TYPES_EQ(input1, input2), and for int16
    TF_LITE_ENSURE_EQ(zero_point, 0) for each tensor."""
    a, b = input_tensor(model, op, 0, "input1"), input_tensor(model, op, 1, "input2")
    if a.type != b.type:
        raise error(model, op, f"input2 {b.describe()} is {b.type} but input1 {a.describe()} "
                               f"is {a.type}: TFLM's Prepare requires one input type")
    if a.type != "INT16":
        return
    for t, what in ((a, "input1"), (b, "input2"), (model.tensors[op.outputs[0]], "output")):
        if tensor_zero_point(t) != 0:
            raise error(model, op, f"{what} {t.describe()} is INT16 with zero point "
                                   f"{tensor_zero_point(t)}: TFLM's Prepare requires 0")


def prepare(model, op):
    _prepare_checks(model, op)
    a, b, out, lo, hi = binary_operands(model, op)
    int16 = a.type == "INT16"
    real = float(tensor_scale(a)) * float(tensor_scale(b)) / float(tensor_scale(out))
    try:
        mo, so = quantize_multiplier(real)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    family = "elementwise_mul_s16" if int16 else "elementwise_mul"
    case = {"case": case_tag(model, op), "family": family,
            "input_1_offset": -tensor_zero_point(a), "input_2_offset": -tensor_zero_point(b),
            "out_offset": tensor_zero_point(out), "out_mult": mo, "out_shift": so,
            "out_activation_min": lo, "out_activation_max": hi}
    return binary_step(model, op, a, b, out, case)


OPERATOR = Operator(
    name="MUL", max_version=7, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # mul_common.cc CalculateOpDataMul
    options="MulOptions", option_fields=("FusedActivationFunction",),
    glue={"cmsis": EvalGlue((30 + 120, 32 + 121), (2, 1, 3, 0)),   # ADD's structure, no
                                                                   # broadcast check
          "reference": EvalGlue((36 + 79, 36 + 79), (2, 1, 3, 0))},
    op_data=(8, 48, 48),       # TfLiteMulParams; OpDataMul
    run_reference=broadcast_binary.run_reference,   # a broadcast, on every path
    families=("elementwise_mul", "elementwise_mul_s16"),
    converter_version=2,
)
