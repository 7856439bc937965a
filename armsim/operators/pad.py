"""PAD: TFLM's Register_PAD() (pad.cc), the reference kernel on every path."""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, require_int8,
                                     tensor_scale, tensor_zero_point)


def prepare(model, op):
    inp, pads = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "paddings")
    out = model.tensors[op.outputs[0]]
    require_int8(model, op, inp, "input")
    require_int8(model, op, out, "output")
    if pads.data is None:
        raise error(model, op, f"paddings {pads.describe()} must be constant")
    p = np.asarray(pads.data, np.int64).reshape(-1, 2)
    if len(p) != len(inp.shape) or len(inp.shape) > 4 or np.any(p < 0):
        raise error(model, op, f"paddings {p.tolist()} do not fit input shape "
                              f"{list(inp.shape)}")
    expect = tuple(int(d + a + b) for d, (a, b) in zip(inp.shape, p))
    if expect != out.shape:
        raise error(model, op, f"output shape {list(out.shape)}, paddings give {list(expect)}")
    if tensor_scale(inp) != tensor_scale(out) or tensor_zero_point(inp) != tensor_zero_point(out):
        raise error(model, op, "input and output quantization differ (TFLM requires equal)")
    k = 4 - len(inp.shape)   # PadParams are extended to 4-D at the front
    shape4 = (1,) * k + tuple(inp.shape)
    p4 = [(0, 0)] * k + [tuple(int(v) for v in r) for r in p]
    case = {"case": case_tag(model, op), "family": "pad",
            "input_shape": list(shape4), "before": [a for a, _ in p4],
            "after": [b for _, b in p4], "pad_value": tensor_zero_point(out)}
    return Step(op.index, op.op, "pad", True, case, {"input": inp.index}, out.index, out.shape)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import pad
    return pad.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="PAD", max_version=4, prepare=prepare,
    options="PadOptions",
    option_fields=(),
    glue={"reference": EvalGlue((0, 0), (2, 1, 2, 0))},
    op_data=(0, 52, 52),       # OpData (PadParams + output zero point)
    run_reference=run_reference,
)
