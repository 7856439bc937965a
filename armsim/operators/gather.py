"""GATHER: TFLM's Register_GATHER() (gather.cc), the reference kernel on every path; int8
data, int32 positions.

Prepare (GatherPrepare): two inputs, one output, int32 positions, float32 or int8 data, axis
(negative: plus the input's rank) in [0, rank), batch_dims (negative: plus the positions'
rank) <= axis, in [0, input rank) and <= the positions' rank, the leading batch_dims dims
equal; the output's shape is rewritten to input[:axis] + positions[batch_dims:] +
input[axis + 1:].  armsim needs the data tensor to be an activation (a constant table is
left to TFLM on the host) and refuses constant positions outside the axis.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor


def size(dims):
    return int(np.prod(dims, dtype=np.int64))


def prepare(model, op):
    inp, coords = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "positions")
    out = model.tensors[op.outputs[0]]
    if coords.type != "INT32":
        raise error(model, op, f"positions {coords.describe()} are {coords.type}: TFLM's "
                               f"GATHER takes int32")
    if inp.type not in ("FLOAT32", "INT8"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's GATHER takes "
                               f"float32 and int8")
    rank, crank = len(inp.shape), len(coords.shape)
    axis = op.options["Axis"] + (rank if op.options["Axis"] < 0 else 0)
    if not 0 <= axis < rank:
        raise error(model, op, f"axis {op.options['Axis']} out of range for rank {rank}")
    batch_dims = op.options["BatchDims"] + (crank if op.options["BatchDims"] < 0 else 0)
    if not (batch_dims <= axis and 0 <= batch_dims < rank and batch_dims <= crank):
        raise error(model, op, f"batch_dims {op.options['BatchDims']} with axis {axis}, "
                               f"input rank {rank}, positions rank {crank} (TFLM refuses)")
    if any(inp.shape[i] != coords.shape[i] for i in range(batch_dims)):
        raise error(model, op, f"the first {batch_dims} dims of input {list(inp.shape)} and "
                               f"positions {list(coords.shape)} differ")
    shape = list(inp.shape[:axis]) + list(coords.shape[batch_dims:]) + \
        list(inp.shape[axis + 1:])
    if size(shape) != out.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, TFLM's "
                               f"Prepare makes it {shape}")
    if inp.type != "INT8" or out.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    if inp.constant:
        raise NotSimulated("a constant input table: armsim's port takes activations")
    case = {"case": case_tag(model, op), "family": "gather", "input_rank": rank,
            "coords_rank": crank, "negative_axis": int(op.options["Axis"] < 0),
            "negative_batch_dims": int(op.options["BatchDims"] < 0),
            "axis_size": int(inp.shape[axis]), "batch_size": size(inp.shape[:batch_dims]),
            "outer_size": size(inp.shape[batch_dims:axis]),
            "inner_size": size(inp.shape[axis + 1:]),
            "coord_size": size(coords.shape[batch_dims:])}
    if coords.constant:
        values = [int(v) for v in np.asarray(coords.data).ravel()]
        bad = [v for v in values if not 0 <= v < case["axis_size"]]
        if bad:
            raise error(model, op, f"position {bad[0]} outside [0, {case['axis_size']}) "
                                   f"(TFLM would read outside the input)")
        case["coords"] = values
        inputs = {"input": inp.index}
    else:
        inputs = {"inputs": [inp.index, coords.index]}
    return Step(op.index, op.op, "gather", case, inputs, out.index, out.shape, reference_only=True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import gather
    return gather.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="GATHER", max_version=7, prepare=prepare,
    input_counts=(2,), output_counts=(1,),   # gather.cc GatherPrepare
    options="GatherOptions", option_fields=("Axis", "BatchDims"),
    # GatherEval: builtin_data, two GetEvalInput, GetEvalOutput, the type switches; body an
    # estimate
    glue={"reference": EvalGlue((10, 10), (2, 1, 0, 0))},
    op_data=(8, 0, 0),         # TfLiteGatherParams {axis, batch_dims}
    run_reference=run_reference,
    same_quantization=(0,),
)
