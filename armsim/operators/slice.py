"""SLICE: TFLM's Register_SLICE() (slice.cc), the reference kernel on every path.

Prepare checks only the operand counts (3 inputs, 1 output; the rest are DCHECKs).  Eval
reads begin and size (int32 or int64) for the input's rank, front-pads them to 5 dims
(begin 0, size 1) and runs reference_ops::Slice over the 5-D extended shape; size -1 means
"to the end".  armsim needs begin and size constant (held in the case) and refuses what
TFLM would read or write outside a tensor (a begin/size beyond the input, a rank above 5,
an output of another element count).
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     element_type, simulated_elem)

MAX_DIM = 5


def constant_vector(model, op, t, what, types=("INT32", "INT64")):
    """A constant int32/int64 operand's values (armsim keeps them in the case)."""
    if t.type not in types:
        raise error(model, op, f"{what} {t.describe()} is {t.type}; TFLM takes "
                               f"{' or '.join(types)}")
    if t.data is None:
        raise NotSimulated(f"{what} {t.describe()} is not constant")
    return [int(v) for v in np.asarray(t.data).ravel()]


def prepare(model, op):
    inp = input_tensor(model, op, 0, "input")
    begin_t, size_t = input_tensor(model, op, 1, "begin"), input_tensor(model, op, 2, "size")
    out = model.tensors[op.outputs[0]]
    if begin_t.type != size_t.type:
        raise error(model, op, f"begin is {begin_t.type}, size {size_t.type}: TFLM reads "
                               f"both as begin's type")
    begin = constant_vector(model, op, begin_t, "begin")
    size = constant_vector(model, op, size_t, "size")
    rank = len(inp.shape)
    if rank > MAX_DIM:
        raise error(model, op, f"input {inp.describe()} has rank {rank}; TFLM's SLICE "
                               f"takes at most {MAX_DIM}")
    if len(begin) < rank or len(size) < rank:
        raise error(model, op, f"begin {begin} / size {size} have fewer entries than the "
                               f"input's rank {rank}")
    ext = [1] * (MAX_DIM - rank) + [int(d) for d in inp.shape]
    start = [0] * (MAX_DIM - rank) + begin[:rank]
    sizes = [1] * (MAX_DIM - rank) + size[:rank]
    stop = []
    for d in range(MAX_DIM):
        s = ext[d] if sizes[d] == -1 else start[d] + sizes[d]
        if not (0 <= start[d] <= ext[d] and start[d] <= s <= ext[d]):
            raise error(model, op, f"begin {begin} / size {size} reach outside input "
                                   f"{list(inp.shape)} (TFLM would read outside it)")
        stop.append(s)
    count = int(np.prod([b - a for a, b in zip(start, stop)], dtype=np.int64))
    if count != out.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, the slice "
                               f"{count}")
    if inp.type not in ("FLOAT32", "INT32", "INT8", "INT16", "BOOL"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's SLICE takes "
                               f"float32, int32, int8, int16 and bool")
    elem = simulated_elem(inp, [out], "input")
    case = {"case": case_tag(model, op), "family": "slice", "rank": rank, "ext_shape": ext,
            "start": start, "stop": stop, "size_minus_one": [int(v == -1) for v in sizes],
            "elem": elem}
    return Step(op.index, op.op, "slice", case, {"input": inp.index}, out.index, out.shape,
                reference_only=True, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import slice as slice_kernel
    return slice_kernel.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="SLICE", max_version=6, prepare=prepare,
    input_counts=(3,), output_counts=(1,),   # slice.cc SlicePrepare
    # SliceEval: three GetEvalInput, GetEvalOutput, two GetTensorShape (input, output);
    # its body beyond the padding loops (counted in the kernel) is an estimate
    glue={"reference": EvalGlue((12, 12), (3, 1, 2, 0))},
    op_data=(0, 0, 0),         # no OpData, no builtin params
    run_reference=run_reference,
    same_quantization=(0,),
)
