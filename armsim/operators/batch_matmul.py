"""BATCH_MATMUL: TFLM's Register_BATCH_MATMUL() with its CMSIS-NN Eval (cmsis_nn/batch_matmul.cc:
int8 goes to arm_batch_matmul_s8, int16 to arm_batch_matmul_s16) and reference Eval
(batch_matmul.cc: BatchMatMul<int8_t, int32_t> / <int16_t, int64_t>), Prepare as the
CMSIS-NN Prepare derives it (lhs, rhs and output of one type, int8 or int16; ranks 2-4,
batch dims that broadcast, equal accumulation depths, GetQuantizedConvolutionMultipler:
lhs scale * rhs scale / output scale, in double as TFLM's interpreter computes it, the type's range, no fused activation; int16
zero points 0).

Eval, both builds: the rhs is transposed to [..., N, K] unless adj_y, the lhs to
[..., M, K] when adj_x (TransposeRowsColumns into persistent buffers, counted: the case's
`eval_transpose`).  A constant rhs is transposed only on the first invocation
(rhs_is_transposed): armsim profiles the steady state, so a constant rhs arrives already
transposed.  Then the CMSIS-NN glue compresses a [..., 1, N, K] rhs by folding the lhs
batch dim into its rows (both ranks > 2) and fills 4-D cmsis_nn_dims; the reference kernel
gets the same operands (ReshapeToFlattenBatchDimsIfPossible, kernels/tflm/batch_matmul.py).

Arena: the persistent transposed tensors (TfLiteEvalTensor, dims array, data) and the
quantization struct are allocated in Prepare, each rounded up to the arena's 16-byte
alignment (MicroArenaBufferAlignment); they go in the step's `persistent_bytes`.
Eval glue: no measurement covers these Evals; the body sizes are estimates from the C
(PopulateEvalData's shape swaps and compression, the param structs), the call counts are
the code's.  TFLM requests no scratch buffer (arm_fully_connected_s8_get_buffer_size is 0
without MVE).
"""
import math

import numpy as np

from armsim.operators import EvalGlue, Operator
from armsim.operators.common import (Step, case_tag, convolution_multiplier, error, input_tensor,
                                     require_int8, tensor_zero_point)

DIMS = "nhwc"
ALIGN = 16


def _align(n):
    return (n + ALIGN - 1) // ALIGN * ALIGN


def _fill_variable_shape(shape):
    """cmsis_nn/batch_matmul.cc FillVariableShape: ranks 2-4 to {n, h, w, c}."""
    return dict(zip(DIMS, [1] * (4 - len(shape)) + [int(d) for d in shape]))


def prepare(model, op):
    lhs, rhs = input_tensor(model, op, 0, "lhs"), input_tensor(model, op, 1, "rhs")
    out = model.tensors[op.outputs[0]]
    int16 = lhs.type == "INT16"
    if int16 or "INT16" in (rhs.type, out.type):
        if not lhs.type == rhs.type == out.type:
            raise error(model, op, f"lhs {lhs.describe()}, rhs {rhs.describe()} and output "
                                   f"{out.describe()} are {lhs.type}, {rhs.type} and {out.type}: "
                                   f"TFLM's Prepare requires one type")
        for t, what in ((lhs, "lhs"), (rhs, "rhs"), (out, "output")):
            if not len(t.scale):
                raise error(model, op, f"{what} {t.describe()} has no quantization parameters")
            if tensor_zero_point(t) != 0:
                raise error(model, op, f"{what} {t.describe()} is INT16 with zero point "
                                       f"{tensor_zero_point(t)}: TFLM's Prepare requires 0")
    else:
        for t, what in ((lhs, "lhs"), (rhs, "rhs"), (out, "output")):
            require_int8(model, op, t, what)
    dtype, lo, hi = (np.int16, -32768, 32767) if int16 else (np.int8, -128, 127)
    if len(rhs.scale) > 1:
        raise error(model, op, f"rhs {rhs.describe()} is quantized per channel; TFLM's "
                               f"BATCH_MATMUL uses one scale")
    lr, rr = len(lhs.shape), len(rhs.shape)
    for t, r, what in ((lhs, lr, "lhs"), (rhs, rr, "rhs")):
        if not 2 <= r <= 4:
            raise error(model, op, f"{what} {t.describe()} has rank {r}: TFLM's CMSIS-NN "
                                   f"BATCH_MATMUL takes 2 to 4 dimensions")
    adj_x, adj_y = bool(op.options["AdjX"]), bool(op.options["AdjY"])
    rank = max(lr, rr)
    el = [1] * (rank - lr) + list(lhs.shape)
    er = [1] * (rank - rr) + list(rhs.shape)
    batch = []
    for a, b in zip(el[:-2], er[:-2]):
        if a != b and a != 1 and b != 1:
            raise error(model, op, f"batch dims of lhs {list(lhs.shape)} and rhs "
                                   f"{list(rhs.shape)} do not broadcast")
        batch.append(b if a == 1 else a)
    depth_l = el[-2] if adj_x else el[-1]
    depth_r = er[-1] if adj_y else er[-2]
    if depth_l != depth_r:
        raise error(model, op, f"lhs {list(lhs.shape)} (adj_x={adj_x}) and rhs "
                               f"{list(rhs.shape)} (adj_y={adj_y}) have accumulation depths "
                               f"{depth_l} and {depth_r}")
    rows = el[-1] if adj_x else el[-2]
    cols = er[-2] if adj_y else er[-1]
    expect = tuple(batch + [rows, cols])
    if tuple(out.shape) != expect:
        raise error(model, op, f"output {out.describe()} has shape {list(out.shape)}, Prepare "
                               f"computes {list(expect)}")
    mult, shift = convolution_multiplier(model, op, lhs, rhs, out)

    def swap(s):
        return list(s[:-2]) + [s[-1], s[-2]]
    lhs_data_shape = swap(lhs.shape) if adj_x else list(lhs.shape)      # [..., M, K]
    rhs_data_shape = list(rhs.shape) if adj_y else swap(rhs.shape)      # [..., N, K]
    lhs_dims, rhs_dims = list(lhs_data_shape), list(rhs_data_shape)
    out_dims = list(out.shape)
    if len(rhs_dims) > 2 and len(lhs_dims) > 2 and rhs_dims[-3] == 1:  # PopulateEvalData
        lhs_dims = lhs_dims[:-3] + [lhs_dims[-3] * lhs_dims[-2], lhs_dims[-1]]
        rhs_dims = rhs_dims[:-3] + rhs_dims[-2:]
        out_dims = out_dims[:-3] + [lhs_dims[-2], out_dims[-1]]
    transpose_rhs = not adj_y and not rhs.constant
    case = {
        "case": case_tag(model, op), "family": "batch_matmul_s16" if int16 else "batch_matmul",
        "bmm_params": {"adj_x": adj_x, "adj_y": adj_y, "fc_params": {
            "input_offset": -tensor_zero_point(lhs), "filter_offset": -tensor_zero_point(rhs),
            "output_offset": tensor_zero_point(out), "activation": {"min": lo, "max": hi}}},
        "quant_params": {"multiplier": mult, "shift": shift},
        "input_lhs_dims": _fill_variable_shape(lhs_dims),
        "input_rhs_dims": _fill_variable_shape(rhs_dims),
        "output_dims": _fill_variable_shape(out_dims),
        "tflm_shapes": {"lhs": lhs_data_shape, "rhs": rhs_data_shape},
        "eval_transpose": {"lhs": adj_x, "rhs": transpose_rhs,
                           "lhs_shape": list(lhs.shape), "rhs_shape": list(rhs.shape)},
    }
    if adj_x:
        case["lhs_transposed"] = np.zeros(lhs.size, dtype)
    if transpose_rhs:
        case["rhs_transposed"] = np.zeros(rhs.size, dtype)
    inputs = {}
    if lhs.constant:
        case["input"] = np.asarray(lhs.data).astype(dtype).ravel()
    else:
        inputs["input"] = lhs.index
    if rhs.constant:      # steady state: already transposed by the first Eval
        data = np.asarray(rhs.data).astype(dtype).reshape(rhs.shape)
        case["input2"] = (data if adj_y else np.swapaxes(data, -1, -2)).ravel()
        case["eval_transpose"]["rhs_shape"] = rhs_data_shape
    else:
        inputs["input2"] = rhs.index
    persistent = _align(28)                                  # the quantization struct
    for t, used in ((lhs, adj_x), (rhs, not adj_y)):
        if used:                                             # AllocInitTransposeTensor...
            persistent += (_align(12) + _align(4 + 4 * len(t.shape))
                           + _align(t.size * np.dtype(dtype).itemsize))
    macs = math.prod(expect) * depth_l
    return Step(op.index, op.op, case["family"], case, inputs, out.index, out.shape, macs,
                persistent_bytes=persistent,
                cmsis_function="arm_batch_matmul_s16" if int16 else None)


OPERATOR = Operator(
    name="BATCH_MATMUL", max_version=4, prepare=prepare,
    options="BatchMatMulOptions", option_fields=("AdjX", "AdjY"),
    cmsis_entry="arm_batch_matmul_s8",
    glue={"cmsis": EvalGlue((20 + 80 + 100, 20 + 80 + 100), (3, 1, 3, 0)),
          # Eval + EvalInt8 + PopulateEvalData (estimates)
          "reference": EvalGlue((60 + 90, 60 + 90), (2, 1, 3, 0))},
          # BatchMatMulEval + EvalInt8's params (estimates)
    op_data=(4, 36, 16),       # TfLiteBatchMatMulParams; OpData (CMSIS-NN), OpDataBatchMatmul
    families=("batch_matmul", "batch_matmul_s16"),
)
