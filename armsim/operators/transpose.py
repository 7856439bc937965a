"""TRANSPOSE: TFLM's Register_TRANSPOSE() with its CMSIS-NN Eval (cmsis_nn/transpose.cc:
int8 goes to arm_transpose_s8) and reference Eval (transpose.cc), Prepare as
transpose_common.cc.  int16 (16x8 models) is the reference Transpose<int16_t> on every path
(cmsis_nn/transpose.cc sends only int8 to CMSIS-NN).

TFLM's CMSIS-NN Eval passes `perm_tensor->dims->data[0]` as num_dims and refuses more than
4 (TF_LITE_ENSURE(size <= 4)); armsim refuses rank 5 on every path.  With num_dims 2,
arm_transpose_s8 swaps rows and columns whatever the permutation: an identity [0, 1]
TRANSPOSE of an MxN matrix (M, N > 1) comes out transposed on the CMSIS-NN build, while the
reference kernel copies it; armsim reproduces both (tests/ops/test_transpose.py).

Eval glue: no measurement covers these Evals; the body sizes are estimates from the C
(argument set-up, the cmsis_nn_dims fill, the permutation copy), the call counts are the
code's: the CMSIS-NN Eval reads the perm tensor twice (TransposeEval, then
TransposeEvalInt8) and builds a RuntimeShape for each of the eight DimsData() reads.
"""
from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, error, input_tensor, element_type,
                                     simulated_elem)

DIM_NAMES = ("n", "h", "w", "c")


def prepare(model, op):
    inp, perm_t = input_tensor(model, op, 0, "input"), input_tensor(model, op, 1, "perm")
    out = model.tensors[op.outputs[0]]
    elem = simulated_elem(inp, [out], "input")
    rank = len(inp.shape)
    if perm_t.data is None:
        raise error(model, op, f"perm {perm_t.describe()} must be constant (TFLM: "
                               f"non-constant >perm< tensor is not supported)")
    if perm_t.type != "INT32" or len(perm_t.shape) != 1:
        raise error(model, op, f"perm {perm_t.describe()} must be a 1-D INT32 tensor")
    perm = [int(v) for v in perm_t.data.ravel()]
    if len(perm) != rank or sorted(perm) != list(range(rank)):
        raise error(model, op, f"perm {perm} is not a permutation of the {rank} input "
                               f"dimensions")
    if not 1 <= rank <= 4:
        raise error(model, op, f"input {inp.describe()} has rank {rank}: TFLM's CMSIS-NN "
                               f"TRANSPOSE takes 1 to 4 dimensions")
    expect = tuple(inp.shape[p] for p in perm)
    if out.shape != expect:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, the "
                               f"permutation gives {list(expect)}")
    pad = [0] * (4 - rank)
    case = {"case": case_tag(model, op), "family": "transpose",
            "input_dims": dict(zip(DIM_NAMES, [int(d) for d in inp.shape] + pad)),
            "output_dims": dict(zip(DIM_NAMES, [int(d) for d in out.shape] + pad)),
            "transpose_params": {"num_dims": rank, "permutations": perm}}
    if elem == 2:
        case["elem"] = elem
    return Step(op.index, op.op, "transpose", case, {"input": inp.index}, out.index, out.shape,
                reference_only=elem == 2, output_dtype=element_type(elem))


def run_reference(m, case, addr, tracer=None):
    """int16's reference-only run (int8's reference path runs through the family)."""
    from armsim.kernels.tflm import transpose
    shape, perm = transpose.shapes(case)
    return transpose.run_transpose(m, shape, perm, addr["input"], addr["output"], tracer,
                                   case["elem"])


OPERATOR = Operator(
    name="TRANSPOSE", max_version=6, prepare=prepare,
    cmsis_entry="arm_transpose_s8",
    glue={"cmsis": EvalGlue((30 + 40, 30 + 40), (4, 1, 8, 0)),
          # TransposeEval + TransposeEvalInt8 (estimates)
          "reference": EvalGlue((30 + 6 * 4, 30 + 6 * 4), (2, 1, 2, 0))},
          # TransposeEval with the perm copy (estimate)
    op_data=(0, 0, 0),         # no builtin params, no OpData
    run_reference=run_reference,
    families=("transpose",),
    same_quantization=(0,),
    converter_version=2,
)
