"""Batch matmul, int16 operands and output: arm_batch_matmul_s16 ->
arm_nn_vec_mat_mult_t_s16_s16 (64-bit accumulation, arm_nn_requantize_s64; no scratch
buffer, TFLM requests none for int16).

As for `batch_matmul`, the vectors hold the operands in the kernel's layout and a case from
a model may add `eval_transpose` (TFLM's Eval transposes into its persistent buffers first,
counted).  Both functions are transcribed from gcc 12.2's disassembly (exact on the measured shapes
under tests/data/measured/batch_matmul_s16)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_batch_matmul_s16 import arm_batch_matmul_s16
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import batch_matmul_s16
from armsim.kernels.tflm.batch_matmul import eval_transposes
from armsim.kernels.tflm.batch_matmul import run_reference  # noqa: F401 (the reference path)

FUNCTIONS = ("arm_batch_matmul_s16",)
ARRAYS = {"input": ("sram", np.int16), "input2": ("sram", np.int16),
          "lhs_transposed": ("sram", np.int16), "rhs_transposed": ("sram", np.int16)}
OUTPUT_DTYPE = np.int16
DIMS = "nhwc"


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return int(np.prod([case["output_dims"][d] for d in DIMS]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, FUNCTIONS[0]):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 batch matmul "
                        f"entry point (use {FUNCTIONS[0]})")
    lhs, rhs, chain = eval_transposes(m, case, addr, tracer)
    p, q = case["bmm_params"], case["quant_params"]
    bmm = types.BmmParams(int(bool(p.get("adj_x", False))), int(bool(p.get("adj_y", False))),
                          types.fc_params(p["fc_params"]))
    run(arm_batch_matmul_s16, m, types.Context(0, 0), bmm,
        types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"])),
        types.dims(case["input_lhs_dims"]), lhs, types.dims(case["input_rhs_dims"]), rhs,
        types.dims(case["output_dims"]), addr["output"], tracer=tracer)
    return [FUNCTIONS[0], "arm_nn_vec_mat_mult_t_s16_s16"] + chain


def ORACLE(case):
    """`oracle_s16.batch_matmul_s16` of the operands in the kernel's layout (a model case's
    `eval_transpose` undone first)."""
    t = case.get("eval_transpose")
    if t:
        case = dict(case, input=_kernel_layout(case["input"], t["lhs_shape"], t["lhs"]),
                    input2=_kernel_layout(case["input2"], t["rhs_shape"], t["rhs"]))
    return batch_matmul_s16(case)


def _kernel_layout(data, shape, transposed):
    x = np.asarray(data, np.int64).reshape(shape)
    return (np.swapaxes(x, -1, -2) if transposed else x).ravel()
