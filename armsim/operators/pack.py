"""PACK: TFLM's Register_PACK() (pack.cc: no Prepare, PackEval -> PackImpl<T> by the
output's type), the reference kernel on every path, int8 and int16 simulated.

TFLM checks nothing before Eval: values_count (options) inputs are read, axis (negative: plus
the output's rank) splits the output's dims into outer_size and copy_size.  armsim refuses
what TFLM would read or write outside a tensor.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, element_type,
                                     simulated_elem)

#: PackImpl / UnpackImpl output types TFLM's Eval switches on
TYPES = {"PACK": ("FLOAT32", "INT8", "INT16", "INT32", "INT64"),
         "UNPACK": ("FLOAT32", "INT32", "INT16", "INT8")}


def split_dims(model, op, shape, axis_option):
    """(axis, outer_size, copy_size) as PackImpl/UnpackImpl derive them from `shape`."""
    rank = len(shape)
    axis = axis_option + rank if axis_option < 0 else axis_option
    if not 0 <= axis < rank:
        raise error(model, op, f"axis {axis_option} out of range for rank {rank}")
    outer = int(np.prod(shape[:axis], dtype=np.int64))
    copy = int(np.prod(shape[axis + 1:], dtype=np.int64))
    return axis, outer, copy


def prepare(model, op):
    out = model.tensors[op.outputs[0]]
    count = op.options["ValuesCount"]
    ins = [model.tensors[i] if i >= 0 else None for i in op.inputs]
    if count < 1 or count > len(ins) or any(t is None for t in ins[:count]):
        raise error(model, op, f"option ValuesCount = {count} with {len(ins)} inputs (TFLM "
                               f"reads that many)")
    ins = ins[:count]
    axis, outer, copy = split_dims(model, op, out.shape, op.options["Axis"])
    if out.size != count * outer * copy or any(t.size != outer * copy for t in ins):
        raise error(model, op, f"output {list(out.shape)} does not stack {count} inputs of "
                               f"{outer * copy} elements on axis {axis}")
    if out.type not in TYPES["PACK"]:
        raise error(model, op, f"output {out.describe()} is {out.type}: TFLM's PACK takes "
                               f"{', '.join(TYPES['PACK'])}")
    elem = simulated_elem(out, ins, "output")
    if any(t.constant for t in ins):
        raise NotSimulated("a constant input: armsim's port takes activations")
    case = {"case": case_tag(model, op), "family": "pack", "rank": len(out.shape),
            "axis": axis, "negative_axis": int(op.options["Axis"] < 0),
            "other_rank": len(ins[0].shape), "outer": outer, "copy": copy, "elem": elem}
    return Step(op.index, op.op, "pack", case, {"inputs": [t.index for t in ins]}, out.index,
                out.shape, reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import pack
    return pack.run_pack(m, case, addr, tracer)


OPERATOR = Operator(
    name="PACK", max_version=4, prepare=prepare,
    options="PackOptions", option_fields=("ValuesCount", "Axis"),
    # PackEval: builtin_data, GetEvalOutput, the type switch (PackImpl's own GetEvalInput
    # calls are in the port); body an estimate
    glue={"reference": EvalGlue((8, 8), (0, 1, 0, 0))},
    op_data=(8, 0, 0),         # TfLitePackParams {values_count, axis}
    run_reference=run_reference,
)
