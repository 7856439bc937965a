"""BATCH_TO_SPACE_ND: TFLM's Register_BATCH_TO_SPACE_ND() (batch_to_space_nd.cc), the
reference kernel on every path.  SPACE_TO_BATCH_ND shares the Prepare.

Prepare: three inputs, one output, input and output of rank 3 (NHC) or 4 (NHWC), the same
type; Eval runs float32 and int8 (armsim simulates int8) and refuses other types.  TFLM
checks nothing else: its kernel reads block_shape[0..1] and crops / paddings [0] and [2]
as int32 and walks the shapes it is given, so armsim refuses what would read or write
outside them -- block shape and crops / paddings not constant int32 of shape [rank - 2]
and [rank - 2, 2], a block size < 1, negative crops / paddings, and an output shape other
than the one TensorFlow defines.  The block shape and crops / paddings are read by the
kernel: placed in flash.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     require_int8)


def batch_space_step(model, op, to_batch):
    """The Step of SPACE_TO_BATCH_ND (`to_batch`) or BATCH_TO_SPACE_ND after the checks."""
    inp = input_tensor(model, op, 0, "input")
    block = input_tensor(model, op, 1, "block_shape")
    margins = input_tensor(model, op, 2, "paddings" if to_batch else "crops")
    out = model.tensors[op.outputs[0]]
    for t, what in ((inp, "input"), (out, "output")):
        if not 3 <= len(t.shape) <= 4:
            raise error(model, op, f"{what} {t.describe()} has rank {len(t.shape)}; TFLM "
                                   f"takes 3 or 4")
    if inp.type != out.type:
        raise error(model, op, f"input {inp.type}, output {out.type}: TFLM takes the same "
                               f"type")
    if inp.type not in ("FLOAT32", "INT8"):
        raise error(model, op, f"input {inp.describe()} is {inp.type}: TFLM's Eval takes "
                               f"float32 or int8")
    require_int8(model, op, inp, "input")
    require_int8(model, op, out, "output")
    rank = len(inp.shape)
    if len(out.shape) != rank:
        raise error(model, op, f"output {out.describe()} has rank {len(out.shape)}, input "
                               f"{rank}")
    spatial = rank - 2
    for t, shape in ((block, (spatial,)), (margins, (spatial, 2))):
        if t.type != "INT32" or t.shape != shape:
            raise error(model, op, f"{t.describe()} is {t.type} {list(t.shape)}; TFLM's "
                                   f"kernel reads INT32 {list(shape)}")
        if t.data is None:
            raise NotSimulated(f"{t.describe()} is not constant: armsim's port takes "
                               f"constant block shape and {'paddings' if to_batch else 'crops'}")
    bs = [int(v) for v in np.asarray(block.data).reshape(-1)]
    mg = np.asarray(margins.data, np.int64).reshape(spatial, 2)
    if min(bs) < 1 or mg.min() < 0:
        raise error(model, op, f"block shape {bs} must be >= 1 and "
                               f"{'paddings' if to_batch else 'crops'} {mg.tolist()} >= 0")
    n, dims, depth = int(inp.shape[0]), [int(d) for d in inp.shape[1:-1]], int(inp.shape[-1])
    if to_batch:
        if any((d + int(p.sum())) % k for d, p, k in zip(dims, mg, bs)):
            raise error(model, op, f"padded input {list(inp.shape)} + {mg.tolist()} is not a "
                                   f"multiple of block shape {bs}")
        expect = [n * int(np.prod(bs))] + [(d + int(p.sum())) // k
                                           for d, p, k in zip(dims, mg, bs)]
    else:
        if n % int(np.prod(bs)):
            raise error(model, op, f"input batch {n} is not a multiple of the block size "
                                   f"{int(np.prod(bs))}")
        expect = [n // int(np.prod(bs))] + [d * k - int(c.sum())
                                            for d, c, k in zip(dims, mg, bs)]
    expect.append(depth)
    if list(out.shape) != expect:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}; block "
                               f"shape {bs} and {'paddings' if to_batch else 'crops'} "
                               f"{mg.tolist()} make it {expect}")
    extend = (lambda s: list(s) if rank == 4 else [s[0], s[1], 1, s[2]])
    case = {"case": case_tag(model, op), "family": op.op.lower(), "rank": rank,
            "input_shape": extend(inp.shape), "output_shape": extend(out.shape)}
    step = Step(op.index, op.op, op.op.lower(), case,
                {"inputs": [inp.index, block.index, margins.index]}, out.index, out.shape,
                reference_only=True)
    step.constants = {t.index: np.ascontiguousarray(t.data) for t in (block, margins)}
    return step


def prepare(model, op):
    return batch_space_step(model, op, False)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import batch_space
    return batch_space.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="BATCH_TO_SPACE_ND", max_version=2, prepare=prepare,
    input_counts=(3,), output_counts=(1,),
    # BatchToSpaceNDEval: four GetEvalInput/Output, the type switch, four GetTensorShape
    # (an estimate)
    glue={"reference": EvalGlue((12, 12), (3, 1, 4, 0))},
    op_data=(0, 0, 0),
    run_reference=run_reference,
    same_quantization=(0,),
)
