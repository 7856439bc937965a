"""Batch matmul: arm_batch_matmul_s8 (no scratch buffer in a non-MVE build; TFLM requests
arm_fully_connected_s8_get_buffer_size(output_shape), 0 there).

The vectors' cases hold the operands in the kernel's layout (lhs [b, h, M, K], rhs
transposed [b, h, N, K]).  A case from a model (operators/batch_matmul.py) may add
`eval_transpose` {lhs, rhs, lhs_shape, rhs_shape} with zero-filled `lhs_transposed` /
`rhs_transposed` buffers: TFLM's Eval (both builds) first transposes the operands there
with TransposeRowsColumns (reference Transpose), counted before the kernel.
"""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_batch_matmul_s8 import arm_batch_matmul_s8
from armsim.errors import CaseError
from armsim.kernels.oracle import requantize
from armsim.kernels.tflm.batch_matmul import eval_transposes, run_reference  # noqa: F401

FUNCTIONS = ("arm_batch_matmul_s8",)
ARRAYS = {"lhs_transposed": ("sram", np.int8), "rhs_transposed": ("sram", np.int8)}
DIMS = "nhwc"


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return int(np.prod([case["output_dims"][d] for d in DIMS]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTIONS[0]):
        raise CaseError(f"{case.get('case', '?')}: {function} is not a batch matmul entry "
                        f"point (use {FUNCTIONS[0]})")
    lhs, rhs, chain = eval_transposes(m, case, addr, tracer)
    p, q = case["bmm_params"], case["quant_params"]
    bmm = types.BmmParams(int(bool(p.get("adj_x", False))), int(bool(p.get("adj_y", False))),
                          types.fc_params(p["fc_params"]))
    run(arm_batch_matmul_s8, m, types.Context(addr["scratch"], addr["scratch_bytes"]), bmm,
        types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"])),
        types.dims(case["input_lhs_dims"]), lhs, types.dims(case["input_rhs_dims"]), rhs,
        types.dims(case["output_dims"]), addr["output"], tracer=tracer)
    return [FUNCTIONS[0], "arm_nn_vec_mat_mult_t_s8"] + chain


def ORACLE(case):
    """numpy matmul of the operands in their original layout (`eval_transpose` undone),
    batch dims broadcast, then the README's requantization and clamp."""
    t = case.get("eval_transpose")
    lhs_d, rhs_d = case["input_lhs_dims"], case["input_rhs_dims"]
    if t:
        lhs = np.asarray(case["input"], np.int64).reshape(t["lhs_shape"])
        rhs = np.asarray(case["input2"], np.int64).reshape(t["rhs_shape"])
        if t["lhs"]:
            lhs = np.swapaxes(lhs, -1, -2)                 # adj_x: [.., K, M] -> [.., M, K]
        if t["rhs"]:
            rhs = np.swapaxes(rhs, -1, -2)                 # not adj_y: [.., K, N] -> [.., N, K]
    else:
        lhs = np.asarray(case["input"], np.int64).reshape([lhs_d[d] for d in DIMS])
        rhs = np.asarray(case["input2"], np.int64).reshape([rhs_d[d] for d in DIMS])
    fc, q = case["bmm_params"]["fc_params"], case["quant_params"]
    acc = np.matmul(lhs + fc["input_offset"], np.swapaxes(rhs + fc["filter_offset"], -1, -2))
    y = requantize(acc, q["multiplier"], q["shift"]) + fc["output_offset"]
    return np.clip(y, fc["activation"]["min"], fc["activation"]["max"]).astype(np.int8).ravel()
