"""MIRROR_PAD: TFLM's Register_MIRROR_PAD() (mirror_pad.cc), the reference kernel on every
path, REFLECT (offset 1) and SYMMETRIC (offset 0).

Prepare (MirrorPadPrepare): the padding matrix has 2 dims and one row per input dim
(TF_LITE_ENSURE_EQ), offset from the mode, input_dims and output_size stored, two scratch
buffers of input_dims ints requested (the output's and the input's per-dim element
counts).  TFLM checks nothing else: armsim refuses negative paddings, paddings beyond what
the mode can mirror (REFLECT: < dim, SYMMETRIC: <= dim) and an output shape other than
input + paddings, where its kernel's indices would leave the input.  The padding values
(int32 or int64, read by the kernel for every element) must be constant: placed in flash.
The Eval's scratch set-up is counted with the kernel (armsim.kernels.tflm.mirror_pad).
"""
import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (NotSimulated, Step, case_tag, error, input_tensor,
                                     require_int8)

REFLECT = 0          # tflite.MirrorPadMode.REFLECT; SYMMETRIC is 1


def prepare(model, op):
    inp, pads = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "paddings")
    out = model.tensors[op.outputs[0]]
    rank = len(inp.shape)
    if len(pads.shape) != 2 or pads.shape[0] != rank:
        raise error(model, op, f"paddings {pads.describe()} have shape {list(pads.shape)}: "
                               f"TFLM's Prepare requires [{rank}, 2] for input "
                               f"{list(inp.shape)}")
    require_int8(model, op, inp, "input")
    require_int8(model, op, out, "output")
    if pads.type not in ("INT32", "INT64"):
        raise error(model, op, f"paddings {pads.describe()} are {pads.type}; TFLM reads INT32 "
                               f"or INT64")
    if pads.data is None:
        raise NotSimulated(f"paddings {pads.describe()} are not constant: armsim's port "
                           f"takes constant paddings")
    if not 1 <= rank <= 5:
        raise NotSimulated(f"input {inp.describe()} has rank {rank}: armsim's port takes 1 "
                           f"to 5 dimensions")
    if pads.shape[1] != 2:
        raise error(model, op, f"paddings {pads.describe()} have shape {list(pads.shape)}, "
                               f"not [{rank}, 2]")
    p = np.asarray(pads.data, np.int64).reshape(rank, 2)
    mode = op.options["Mode"]
    offset = 1 if mode == REFLECT else 0
    name = "REFLECT" if offset else "SYMMETRIC"
    for d, (size, (left, right)) in enumerate(zip(inp.shape, p)):
        if min(left, right) < 0 or max(left, right) > size - offset:
            raise error(model, op, f"paddings {[int(left), int(right)]} of dim {d} (size "
                                   f"{size}) outside [0, {size - offset}] for {name}")
    expect = tuple(int(s + a + b) for s, (a, b) in zip(inp.shape, p))
    if expect != tuple(out.shape):
        raise error(model, op, f"output shape {list(out.shape)}, paddings give {list(expect)}")
    case = {"case": case_tag(model, op), "family": "mirror_pad", "offset": offset,
            "input_shape": list(inp.shape), "output_shape": list(out.shape),
            "output_size": int(out.size), "padding_bytes": 4 if pads.type == "INT32" else 8,
            "scratch_bytes": [4 * rank, 4 * rank]}
    step = Step(op.index, op.op, "mirror_pad", case, {"inputs": [inp.index, pads.index]},
                out.index, out.shape, reference_only=True)
    step.constants = {pads.index: np.ascontiguousarray(pads.data)}
    return step


def run_reference(m, case, addr, tracer=None):
    from armsim.kernels.tflm import mirror_pad
    return mirror_pad.run_reference(m, case, addr, tracer)


OPERATOR = Operator(
    name="MIRROR_PAD", max_version=2, prepare=prepare,
    options="MirrorPadOptions", option_fields=("Mode",),
    # MirrorPadEval: three tensor lookups, two scratch-buffer lookups, the OpData loads
    # (an estimate; its scratch set-up loops are counted with the kernel)
    glue={"reference": EvalGlue((16, 16), (2, 1, 0, 2))},
    op_data=(4, 20, 20),       # TfLiteMirrorPaddingParams {mode}; OpDataMirrorPad (5 int)
    run_reference=run_reference,
)
