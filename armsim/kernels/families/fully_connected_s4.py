"""Fully connected with packed int4 weights: arm_fully_connected_s4 -> arm_nn_vec_mat_mult_t_s4
(per-tensor quantization, int8 activations).  The reference path is TFLM's: the int4 weights
unpacked to int8 into a scratch buffer, then the int8 reference FULLY_CONNECTED
(kernels/tflm/fully_connected_s4.py).

Weights: the CMSIS-NN vectors store the packed bytes in `weights`; the measured cases store
the int4 values in `weights` and the packed bytes in `weights_packed_int4`.  `packed_weights`
is the one place that tells them apart; the kernels read the packed bytes (`packed_weights`)."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_fully_connected_s4 import arm_fully_connected_s4
from armsim.errors import CaseError
from armsim.kernels.tflm.fully_connected_s4 import (reference_buffer_size,  # noqa: F401
                                                     run_reference)

FUNCTIONS = ("arm_fully_connected_s4",)
LEAF = "arm_nn_vec_mat_mult_t_s4"


def weight_count(case):
    return case["filter_dims"]["n"] * case["output_dims"]["c"]


def packed_weights(case):
    """The packed bytes (two int4 weights per byte, element 2k in the low nibble of byte k)."""
    count = weight_count(case)
    packed = case.get("weights_packed_int4", case["weights"])
    if len(packed) != (count + 1) // 2:
        raise CaseError(f"{case.get('case', '?')}: weights: {len(packed)} packed int4 bytes, "
                        f"expected {(count + 1) // 2} for {count} weights")
    return np.asarray(packed, np.int8)


def unpacked_weights(case):
    """The int4 weights as int8 values, from the packed bytes."""
    packed = packed_weights(case).astype(np.int16)
    low = ((packed & 0xF) ^ 8) - 8
    high = packed >> 4
    return np.stack([low, high], axis=1).ravel()[:weight_count(case)]


def derived_arrays(case):
    return {"packed_weights": ("flash", packed_weights(case))}


def buffer_size(case, dsp, armclang):
    return 0                                  # arm_fully_connected_s4_get_buffer_size: 0


def run_cmsis(m, case, addr, function, tracer):
    if function not in (None, *FUNCTIONS):
        raise CaseError(f"{case.get('case', '?')}: {function} is not an int4 fully connected "
                        f"entry point (choose from {', '.join(FUNCTIONS)})")
    if case["quant_params"]["per_channel"]:
        raise CaseError(f"{case.get('case', '?')}: arm_fully_connected_s4 is per-tensor only")
    q = case["quant_params"]
    out = case["output_dims"]
    run(arm_fully_connected_s4, m, types.Context(addr["scratch"], addr["scratch_bytes"]),
        types.fc_params(case["fc_params"]),
        types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"])),
        types.dims(case["input_dims"]), addr["input"], types.dims(case["filter_dims"]),
        addr["packed_weights"],
        types.dims(case.get("bias_dims", {"n": 1, "h": 1, "w": 1, "c": out["c"]})),
        addr["bias"], types.dims(out), addr["output"], tracer=tracer)
    return [FUNCTIONS[0], LEAF]


def ORACLE(case):
    """The int8 fully connected oracle on the unpacked weights (filter offset 0: symmetric)."""
    return oracle.fully_connected({**case, "weights": unpacked_weights(case),
                                   "fc_params": {**case["fc_params"], "filter_offset": 0}})
