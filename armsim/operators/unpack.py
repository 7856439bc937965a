"""UNPACK: TFLM's Register_UNPACK() (unpack.cc: no Prepare, UnpackEval -> UnpackImpl<T> by
the input's type), the reference kernel on every path, int8 and int16 simulated; one output
buffer per output.

TFLM checks nothing before Eval: num (options) outputs are written, axis (negative: plus the
input's rank) splits the input's dims into outer_size and copy_size, and output i takes the
blocks at k * num * copy_size + i * copy_size.  armsim refuses what TFLM would read or write
outside a tensor, or outputs it would leave unwritten.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     simulated_elem)
from armsim.operators.pack import TYPES, split_dims


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    num = op.options["Num"]
    if num != len(op.outputs):
        raise error(model, op, f"option Num = {num} with {len(op.outputs)} outputs (TFLM "
                               f"writes Num outputs)")
    outs = [model.tensors[i] for i in op.outputs]
    axis, outer, copy = split_dims(model, op, inp.shape, op.options["Axis"])
    if num > inp.shape[axis] or any(t.size != outer * copy for t in outs):
        raise error(model, op, f"input {list(inp.shape)} does not unstack into {num} "
                               f"outputs of {outer * copy} elements on axis {axis}")
    if inp.type not in TYPES["UNPACK"]:
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's UNPACK takes "
                               f"{', '.join(TYPES['UNPACK'])}")
    elem = simulated_elem(inp, outs, "input")
    case = {"case": case_tag(model, op), "family": "unpack", "rank": len(inp.shape),
            "axis": axis, "negative_axis": int(op.options["Axis"] < 0),
            "other_rank": len(outs[0].shape), "outer": outer, "copy": copy, "elem": elem}
    return Step(op.index, op.op, "unpack", case, {"input": inp.index}, outs[0].index,
                outs[0].shape, reference_only=True, outputs=list(op.outputs),
                output_counts=[t.size for t in outs], output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import pack
    return pack.run_unpack(m, case, addr, tracer)


OPERATOR = Operator(
    name="UNPACK", max_version=4, prepare=prepare,
    options="UnpackOptions", option_fields=("Num", "Axis"),
    # UnpackEval: builtin_data, GetEvalInput, the type switch (UnpackImpl's GetEvalOutput
    # calls are in the port); body an estimate
    glue={"reference": EvalGlue((8, 8), (1, 0, 0, 0))},
    op_data=(8, 0, 0),         # TfLiteUnpackParams {num, axis}
    run_reference=run_reference,
)
