"""MUL: TFLM's Register_MUL() (cmsis_nn/mul.cc, mul.cc), Prepare as mul_common.cc derives it
(QuantizeMultiplier of input1 scale x input2 scale / output scale)."""
from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, binary_operands, case_tag, error,
                                     require_elementwise, tensor_scale, tensor_zero_point)


def prepare(model, op):
    a, b, out, lo, hi = binary_operands(model, op)
    real = float(tensor_scale(a)) * float(tensor_scale(b)) / float(tensor_scale(out))
    try:
        mo, so = quantize_multiplier(real)
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    require_elementwise(a, b)
    case = {"case": case_tag(model, op), "family": "elementwise_mul",
            "input_1_offset": -tensor_zero_point(a), "input_2_offset": -tensor_zero_point(b),
            "out_offset": tensor_zero_point(out), "out_mult": mo, "out_shift": so,
            "out_activation_min": lo, "out_activation_max": hi, "block_size": out.size}
    return Step(op.index, op.op, "elementwise_mul", False, case,
                {"input": a.index, "input2": b.index}, out.index, out.shape)


OPERATOR = Operator(
    name="MUL", max_version=7, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # mul_common.cc CalculateOpDataMul
    options="MulOptions", option_fields=("FusedActivationFunction",),
    glue={"cmsis": EvalGlue((30 + 120, 32 + 121), (2, 1, 3, 0)),   # ADD's structure, no
                                                                   # broadcast check
          "reference": EvalGlue((36 + 79, 36 + 79), (2, 1, 3, 0))},
    op_data=(8, 48, 48),       # TfLiteMulParams; OpDataMul
)
