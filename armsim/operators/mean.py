"""MEAN: TFLM's Register_MEAN() (reduce.cc, reduce_common.cc), the reference kernel on every
path, int8 or int16 (EvalIntegerMean<T>)."""
import numpy as np

from armsim.kernels.tflm.quantization_util import (QuantizationError, quantize_multiplier)
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     int16_output, require_int8_or_int16, tensor_scale,
                                     tensor_zero_point)


def prepare(model, op):
    inp, axis_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    elem = require_int8_or_int16(model, op, inp, "input")
    if out.type != inp.type:
        raise NotSimulated(f"output {out.describe()} is {out.type}, input {inp.type}")
    require_int8_or_int16(model, op, out, "output")
    if axis_t.data is None:
        raise error(model, op, f"axis {axis_t.describe()} must be constant")
    rank = len(inp.shape)
    axes = []
    for a in np.asarray(axis_t.data).ravel().tolist():   # ResolveAxis: dedupe, wrap
        a = a + rank if a < 0 else a
        if not 0 <= a < rank:
            raise error(model, op, f"axis {a} out of range for rank {rank}")
        if a not in axes:
            axes.append(a)
    keep = [d for d in range(rank) if d not in axes]
    expect = tuple(1 if d in axes else inp.shape[d] for d in range(rank)) \
        if op.options["KeepDims"] else tuple(inp.shape[d] for d in keep)
    if int(np.prod(expect, dtype=np.int64)) != out.size:
        raise error(model, op, f"output shape {list(out.shape)}, mean over {axes} gives "
                              f"{list(expect)}")
    try:
        mult, shift = quantize_multiplier(float(tensor_scale(inp)) / float(tensor_scale(out)))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    case = {"case": case_tag(model, op), "family": "mean",
            "input_shape": list(inp.shape), "axes": sorted(axes),
            "num_elements_in_axis": int(np.prod([inp.shape[a] for a in axes],
                                                 dtype=np.int64)),
            "input_zp": tensor_zero_point(inp), "output_zp": tensor_zero_point(out), "multiplier": mult, "shift": shift,
            "output_size": out.size, "scratch_bytes": 4 * out.size, "elem": elem}
    return Step(op.index, op.op, "mean", True, case, {"input": inp.index}, out.index,
                out.shape, extra=int16_output(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import mean
    return mean.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="MEAN", max_version=3, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # reduce_common.cc PrepareSimple
    options="ReducerOptions",
    option_fields=("KeepDims",),
    glue={"reference": EvalGlue((0, 0), (2, 1, 0, 3))},
    op_data=(4, 40, 40),       # TfLiteReducerParams; OpDataReduce
    run_reference=run_reference,
)
