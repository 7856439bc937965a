"""SOFTMAX: TFLM's Register_SOFTMAX() (cmsis_nn/softmax.cc, softmax.cc), Prepare as
softmax_common.cc derives it (CalculateSoftmaxParams).  Eval dispatches on the types:

    int8 -> int8     arm_softmax_s8 / Softmax<int8_t, int8_t>     (PreprocessSoftmaxScaling,
    int8 -> int16    arm_softmax_s8_s16 / Softmax<int8_t, int16_t>  CalculateInputRadius)
    int16 -> int16   arm_softmax_s16 / SoftmaxInt16  (QuantizeMultiplier(input_scale * beta /
                     (10 / 65535)), the exp and 1/(1 + x) LUTs InitializeLutForInt16 fills)

Any other pair is refused as both builds' Prepare refuses it."""
import functools

import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, calculate_input_radius,
                                                   preprocess_softmax_scaling,
                                                   quantize_multiplier)
from armsim.kernels.tflm.softmax_s16 import LUT_SIZE, softmax_luts
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor,
                                     require_int8, tensor_scale, tensor_zero_point)

#: (output type, zero point, scale) TFLM's Prepare requires per (input, output) type pair,
#: and the family that runs it
TYPES = {("INT8", "INT8"): ("softmax", -128, 1.0 / 256),
         ("INT8", "INT16"): ("softmax_s8_s16", -32768, 1.0 / 65536),
         ("INT16", "INT16"): ("softmax_s16", 0, 1.0 / 32768)}
ALIGN = 16                    # MicroArenaBufferAlignment of a persistent buffer


@functools.lru_cache(maxsize=1)
def _luts():
    exp_lut, recip_lut = softmax_luts()
    return exp_lut.tolist(), recip_lut.tolist()


def _output_quantization(model, op, out, zero_point, scale, exact):
    """TF_LITE_ENSURE_EQ(zero_point) and scale == (int8) or TF_LITE_ENSURE_NEAR(scale,
    within 0.001 * scale) (int16)."""
    s = float(tensor_scale(out))
    ok = s == np.float32(scale) if exact else abs(s - scale) <= 0.001 * scale
    if tensor_zero_point(out) != zero_point or not ok:
        raise error(model, op, f"output {out.describe()} must have zero point {zero_point} and "
                              f"scale 1/{round(1 / scale)} (TFLM {out.type.lower()} softmax)")


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    pair = (inp.type, out.type)
    if inp.type == "INT8" and out.type == "INT8":
        require_int8(model, op, inp, "input")
        require_int8(model, op, out, "output")
    elif pair not in TYPES:
        if inp.type in ("INT8", "INT16") or out.type in ("INT8", "INT16"):
            raise error(model, op, f"input {inp.describe()} is {inp.type} and output "
                                   f"{out.describe()} is {out.type}: TFLM's SOFTMAX runs int8 -> "
                                   f"int8, int8 -> int16 and int16 -> int16 only")
        require_int8(model, op, inp, "input")     # float: TFLM on the host
    family, zero_point, scale = TYPES[pair]
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
    if inp.type == "INT16" and tensor_zero_point(inp) != 0:
        raise error(model, op, f"input {inp.describe()} is INT16 with zero point "
                              f"{tensor_zero_point(inp)}: TFLM's Prepare requires 0")
    _output_quantization(model, op, out, zero_point, scale, out.type == "INT8")
    if inp.shape != out.shape:
        raise error(model, op, "input and output shapes differ")
    beta = float(np.float32(op.options["Beta"]))
    row = inp.shape[-1] if inp.shape else 1
    case = {"case": case_tag(model, op), "family": family, "num_rows": inp.size // row,
            "row_size": row}
    persistent = 0
    try:
        if inp.type == "INT16":
            # scale the input diff so that [-65535, 0] covers [-10.0, 0.0]
            mult, shift = quantize_multiplier(float(tensor_scale(inp)) * beta / (10.0 / 65535.0))
            exp_lut, recip_lut = _luts()
            case.update(mult=mult, shift=shift, exp_lut=exp_lut, one_by_one_lut=recip_lut)
            persistent = 2 * ((2 * LUT_SIZE + ALIGN - 1) // ALIGN * ALIGN)
        else:
            bits = 5                                   # kScaledDiffIntegerBits
            mult, left = preprocess_softmax_scaling(beta, float(tensor_scale(inp)), bits)
            case.update(mult=mult, shift=left, diff_min=-calculate_input_radius(bits, left))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    return Step(op.index, op.op, family, case, {"input": inp.index}, out.index, out.shape,
                persistent_bytes=persistent)


OPERATOR = Operator(
    name="SOFTMAX", max_version=3, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # softmax_common.cc SoftmaxPrepare
    options="SoftmaxOptions",
    option_fields=("Beta",),
    glue={"cmsis": EvalGlue((37, 36), (1, 1, 0, 0)),                 # SoftmaxEval
          "reference": EvalGlue((48, 48), (1, 1, 2, 0))},
    op_data=(4, 64, 64),       # TfLiteSoftmaxParams; SoftmaxParams
    families=("softmax", "softmax_s16", "softmax_s8_s16"),
    fixed_output=(1.0 / 256, -128),
    converter_version=2,
)
