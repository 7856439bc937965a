"""Fully connected, int16 activations and int8 weights: arm_fully_connected_s16 ->
arm_nn_vec_mat_mult_t_s16 (64-bit bias, arm_nn_requantize_s64; per-tensor quantization
only, as TFLM's CMSIS-NN glue requires for int16)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_fully_connected_s16 import (arm_fully_connected_s16,
                                                             arm_fully_connected_s16_get_buffer_size)
from armsim.errors import CaseError
from armsim.kernels.oracle_s16 import fully_connected_s16
from armsim.kernels.tflm.fully_connected_s16 import run_reference  # noqa: F401 (reference path)

FUNCTIONS = ("arm_fully_connected_s16",)
ARRAYS = {"input": ("sram", np.int16), "bias": ("flash", np.int64)}
OUTPUT_DTYPE = np.int16


def buffer_size(case, dsp, armclang):
    return arm_fully_connected_s16_get_buffer_size(types.dims(case["filter_dims"]))


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int16 fully connected "
                        f"entry point (choose from {', '.join(FUNCTIONS)})")
    if case["quant_params"]["per_channel"]:
        raise CaseError(f"{case.get('case', '?')}: arm_fully_connected_s16 is per-tensor only")
    q = case["quant_params"]
    out = case["output_dims"]
    run(arm_fully_connected_s16, m, types.Context(addr["scratch"], addr["scratch_bytes"]),
        types.fc_params(case["fc_params"]),
        types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"])),
        types.dims(case["input_dims"]), addr["input"], types.dims(case["filter_dims"]),
        addr["weights"], types.dims(case.get("bias_dims", {"n": 1, "h": 1, "w": 1, "c": out["c"]})),
        addr["bias"], types.dims(out), addr["output"], tracer=tracer)
    return ["arm_fully_connected_s16", "arm_nn_vec_mat_mult_t_s16"]


ORACLE = fully_connected_s16
