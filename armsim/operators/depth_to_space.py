"""DEPTH_TO_SPACE: TFLM's Register_DEPTH_TO_SPACE() (depth_to_space.cc), the reference
kernel on every path.

Prepare: one input, one output, rank 4, float32 or int8 output of the input's type,
block_size > 0, the input's channels a multiple of block_size^2; the output's dims are
rewritten to (n, h * bs, w * bs, c / bs^2).  SPACE_TO_DEPTH shares the case layout.
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import NotSimulated, Step, case_tag, error, input_tensor


def depth_space_step(model, op, to_space):
    """The Step of DEPTH_TO_SPACE (`to_space`) or SPACE_TO_DEPTH after TFLM's checks."""
    inp = input_tensor(model, op, 0, "input")
    out = model.tensors[op.outputs[0]]
    if len(inp.shape) != 4:
        raise error(model, op, f"input {inp.describe()} has rank {len(inp.shape)}; TFLM "
                               f"takes 4")
    if out.type not in ("FLOAT32", "INT8") or inp.type != out.type:
        raise error(model, op, f"input {inp.type}, output {out.type}: TFLM takes float32 or "
                               f"int8, both the same")
    bs = op.options["BlockSize"]
    if bs <= 0:
        raise error(model, op, f"block_size {bs} must be > 0")
    n, h, w, c = (int(d) for d in inp.shape)
    if to_space:
        if c % (bs * bs):
            raise error(model, op, f"input channels {c} are not a multiple of block_size^2 "
                                   f"{bs * bs}")
        shape = (n, h * bs, w * bs, c // (bs * bs))
    else:
        if h % bs or w % bs:
            raise error(model, op, f"input {h}x{w} is not a multiple of block_size {bs}")
        shape = (n, h // bs, w // bs, c * bs * bs)
    if int(np.prod(shape, dtype=np.int64)) != out.size:
        raise error(model, op, f"output {out.describe()} has {out.size} elements, TFLM's "
                               f"Prepare makes it {list(shape)}")
    if inp.type != "INT8":
        raise NotSimulated(f"input {inp.describe()} is {inp.type}: armsim simulates int8")
    case = {"case": case_tag(model, op), "family": op.op.lower(), "to_space": int(to_space),
            "block_size": bs, "input_shape": [n, h, w, c], "output_shape": list(shape)}
    return Step(op.index, op.op, op.op.lower(), case, {"input": inp.index}, out.index, out.shape,
                reference_only=True)


def prepare(model, op):
    return depth_space_step(model, op, True)


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import depth_space
    return depth_space.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="DEPTH_TO_SPACE", max_version=2, prepare=prepare,
    input_counts=(1,), output_counts=(1,),   # depth_to_space.cc CalculateOpData
    options="DepthToSpaceOptions", option_fields=("BlockSize",),
    # DepthToSpaceEval: builtin_data, GetEvalInput, GetEvalOutput, the type switch, two
    # GetTensorShape and the two ExtendedShape copies; body an estimate
    glue={"reference": EvalGlue((16, 16), (1, 1, 2, 0))},
    op_data=(4, 0, 0),         # TfLiteDepthToSpaceParams {block_size}
    run_reference=run_reference,
)
