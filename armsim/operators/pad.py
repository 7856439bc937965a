"""PAD: TFLM's Register_PAD() with its CMSIS-NN Eval (cmsis_nn/pad.cc: int8 always goes to
arm_pad_s8, there is no fallback) and reference Eval (pad.cc, PadImpl), Prepare as
pad_common.cc (PADV2 shares it: operators/padv2.py).

PadPrepare allows 5-D inputs, but the CMSIS-NN PadEvalInt8 fills cmsis_nn_dims from the
last four dimensions only, so armsim takes ranks 1-4 (shorter shapes extended at the front
with zero padding, as PadEvalInt8 and PadImpl both do).  The pad value is the output zero
point (PAD) or the constant_values scalar (PADV2, whose quantization Prepare requires to
equal the output's).  Prepare does not compare input and output quantization: the op
copies raw int8 values.

Eval glue: no measurement covers PAD's Evals; the body sizes are estimates from the C
(PadEval's switch, PadEvalInt8's rank-conditional dims fill; the reference PadParams
copy), the call counts are the code's: the CMSIS-NN PadEval looks its tensors up, then
PadEvalInt8 looks them up again and builds one RuntimeShape.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     simulated_elem, tensor_scale, tensor_zero_point)

DIMS = "nhwc"


def prepare_pad(model, op, with_value):
    inp, pads = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "paddings")
    out = model.tensors[op.outputs[0]]
    elem = simulated_elem(inp, [out], "input")
    rank = len(inp.shape)
    if not 1 <= rank <= 4:
        raise error(model, op, f"input {inp.describe()} has rank {rank}: TFLM's CMSIS-NN PAD "
                               f"takes 1 to 4 dimensions")
    if pads.data is None:
        raise error(model, op, f"paddings {pads.describe()} must be constant (TFLM: "
                               f"non-constant >paddings< tensor is not supported)")
    if pads.type != "INT32":
        raise error(model, op, f"paddings {pads.describe()} are {pads.type}; TFLM reads INT32")
    p = np.asarray(pads.data, np.int64).reshape(-1)
    if p.size != 2 * len(out.shape) or len(out.shape) != rank:
        raise error(model, op, f"paddings {p.tolist()} do not fit input shape "
                               f"{list(inp.shape)}")
    p = p.reshape(-1, 2)
    if np.any(p < 0):
        raise error(model, op, f"negative paddings {p.tolist()}")
    expect = tuple(int(d + a + b) for d, (a, b) in zip(inp.shape, p))
    if expect != out.shape:
        raise error(model, op, f"output shape {list(out.shape)}, paddings give {list(expect)}")
    value = tensor_zero_point(out) if elem == 1 else 0   # int16: PadEval's default 0
    if with_value and len(op.inputs) > 2 and op.inputs[2] >= 0:
        v = input_tensor(model, op, 2, "constant_values")
        if v.type != inp.type or v.data is None or v.size != 1:
            raise error(model, op, f"constant_values {v.describe()} must be one constant "
                                   f"{inp.type} value")
        if elem == 1 and (tensor_zero_point(v) != tensor_zero_point(out) or
                          tensor_scale(v) != tensor_scale(out)):
            raise error(model, op, f"constant_values {v.describe()} must have the output's "
                                   f"scale and zero point (TFLM's Prepare)")
        value = int(np.asarray(v.data).ravel()[0])
    k = 4 - rank
    shape4 = [1] * k + [int(d) for d in inp.shape]
    p4 = [(0, 0)] * k + [(int(a), int(b)) for a, b in p]
    case = {"case": case_tag(model, op), "family": "pad",
            "input_dims": dict(zip(DIMS, shape4)),
            "pre_pad": dict(zip(DIMS, [a for a, _ in p4])),
            "post_pad": dict(zip(DIMS, [b for _, b in p4])), "pad_value": value}
    if elem == 2:       # int16: reference_ops::Pad<int16_t> on every path (cmsis_nn/pad.cc)
        case["elem"] = elem
    return Step(op.index, op.op, "pad", case, {"input": inp.index}, out.index, out.shape,
                reference_only=elem == 2, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    """int16's reference-only run (int8's reference path runs through the family)."""
    from armsim.kernels.tflm import pad
    return pad.run_reference(m, case, addr, tracer)


def prepare(model, op):
    return prepare_pad(model, op, with_value=False)


OPERATOR = Operator(
    name="PAD", max_version=4, prepare=prepare,
    input_counts=(2, 3), output_counts=(1,),   # pad_common.cc PadPrepare
    cmsis_entry="arm_pad_s8",
    glue={"cmsis": EvalGlue((25 + 60, 25 + 60), (2, 2, 1, 0)),      # PadEval + PadEvalInt8 (estimates)
          "reference": EvalGlue((30 + 24, 30 + 24), (1, 1, 2, 0))},  # PadEval + PadParams copy (estimate)
    op_data=(0, 52, 52),       # OpData (PadParams + output zero point)
    run_reference=run_reference,
    families=("pad",),
    same_quantization=(0,),
    converter_version=2,
)
