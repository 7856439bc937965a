"""What MEAN, SUM and REDUCE_MAX share: TFLM registers them from one reduce.cc with
reduce_common.cc's Prepare helpers (PrepareMeanOrSumHelper, PrepareMinMaxHelper, both ending
in or starting with PrepareSimple) and Eval helpers, and armsim runs them on one port
(kernels/tflm/reduce.py)."""
import numpy as np

from armsim.kernels.tflm.quantization_util import QuantizationError, quantize_multiplier
from armsim.operators import EvalGlue
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     tensor_scale, tensor_zero_point)

INPUT_COUNTS, OUTPUT_COUNTS = (2,), (1,)   # PrepareSimple's TF_LITE_ENSURE_EQs
OPTIONS, OPTION_FIELDS = "ReducerOptions", ("KeepDims",)
# Eval: input, axis, output lookups, no GetTensorShape (dims read directly), the scratch
# buffers (an estimate of the helpers' own bodies: none counted)
GLUE = {"reference": EvalGlue((0, 0), (2, 1, 0, 3))}
GLUE_MAX = {"reference": EvalGlue((0, 0), (2, 1, 0, 2))}
OP_DATA = (4, 40, 40)                      # TfLiteReducerParams; OpDataReduce


def reduce_step(model, op, reducer):
    """The Step of a MEAN / SUM / REDUCE_MAX (`reducer` "mean", "sum", "max"), refusing what
    TFLM's Prepare and Eval refuse."""
    inp, axis = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "axis")
    out = model.tensors[op.outputs[0]]
    if axis.type != "INT32":                           # PrepareSimple
        raise error(model, op, f"axis {axis.describe()} is {axis.type}: TFLM's Prepare "
                               f"requires INT32")
    types = ("INT8",) if reducer == "max" else ("INT8", "INT16")
    if inp.type not in types:
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates the "
                           f"{' and '.join(t.lower() for t in types)} kernels of this op")
    if out.type != inp.type:
        # SUM and REDUCE_MAX: TF_LITE_ENSURE_TYPES_EQ in Eval; MEAN writes the input's type
        raise error(model, op, f"output {out.describe()} is {out.type} but input "
                               f"{inp.describe()} is {inp.type}: TFLM requires (or, for "
                               f"MEAN, writes) the input's type")
    for t, what in ((inp, "input"), (out, "output")):
        if not len(t.scale):
            raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
    if reducer == "max" and (float(tensor_scale(inp)) != float(tensor_scale(out)) or
                             tensor_zero_point(inp) != tensor_zero_point(out)):
        raise error(model, op, f"output {out.describe()} scale {float(tensor_scale(out))} "
                               f"zero point {tensor_zero_point(out)}, input scale "
                               f"{float(tensor_scale(inp))} zero point "
                               f"{tensor_zero_point(inp)}: TFLM's int8 REDUCE_MAX requires "
                               f"them equal")
    if axis.data is None:
        raise NotSimulated(f"axis {axis.describe()} is not a constant: armsim resolves the "
                           f"axes before running")
    axes = np.asarray(axis.data).astype(np.int32).ravel()
    rank = len(inp.shape)
    resolved, out_of_range = [], None
    for a in axes.tolist():                            # ResolveAxis (none for a scalar)
        wrapped = a + rank if a < 0 else a
        if rank and not 0 <= wrapped < rank:
            out_of_range = a
            break
        if rank and wrapped not in resolved:
            resolved.append(wrapped)
    if out_of_range is not None and reducer == "max":
        raise error(model, op, f"axis {out_of_range} out of range for rank {rank} (TFLM's "
                               f"ResolveAxis fails, its Eval refuses)")
    # MEAN / SUM with an axis out of range: EvalIntegerMean / EvalSumHelper ignore
    # QuantizedMeanOrSum's false, so the output stays as it cleared it (zeros), simulated
    kept = [d for d in range(rank) if d not in resolved]
    expect = tuple(1 if d in resolved else inp.shape[d] for d in range(rank)) \
        if op.options["KeepDims"] else tuple(inp.shape[d] for d in kept)
    if out_of_range is None and int(np.prod(expect, dtype=np.int64)) != out.size:
        raise error(model, op, f"output shape {list(out.shape)}, {op.op.lower()} over "
                               f"{resolved} gives {list(expect)}")
    try:                                               # PrepareSimple: for every reducer
        multiplier, shift = quantize_multiplier(float(tensor_scale(inp)) /
                                                float(tensor_scale(out)))
    except QuantizationError as e:
        raise error(model, op, str(e)) from None
    scratch = [4 * rank, 4 * axes.size]                # input_iter, resolved_axis
    if reducer != "max":
        scratch.insert(0, 4 * out.size)                # temp_sum, requested first
    case = {"case": case_tag(model, op), "family": "reduce", "reducer": reducer,
            "input_shape": list(inp.shape), "output_shape": list(out.shape),
            "axes": axes.tolist(), "num_axis": int(axes.size),
            "element_bytes": 2 if inp.type == "INT16" else 1,
            "input_zp": tensor_zero_point(inp), "output_zp": tensor_zero_point(out),
            "multiplier": multiplier, "shift": shift, "scratch_bytes": scratch}
    tables = {"input_dims": np.asarray(inp.shape, np.int32),
              "output_dims": np.asarray(out.shape, np.int32), "axis": axes}
    return Step(op.index, op.op, "reduce", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, tables=tables,
                output_dtype="int16" if inp.type == "INT16" else "int8")


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import reduce
    return reduce.run_reference(m, case, addr, tracer)
