"""Fully connected: arm_fully_connected_s8 (per tensor) / arm_fully_connected_per_channel_s8,
both reachable through arm_fully_connected_wrapper_s8."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_fully_connected_get_buffer_sizes_s8 import \
    arm_fully_connected_s8_get_buffer_size
from armsim.kernels.cmsis_nn.arm_fully_connected_per_channel_s8 import arm_fully_connected_per_channel_s8
from armsim.kernels.cmsis_nn.arm_fully_connected_s8 import arm_fully_connected_s8
from armsim.kernels.cmsis_nn.arm_fully_connected_wrapper_s8 import call_fully_connected_wrapper_s8
from armsim.errors import CaseError
from armsim.kernels.tflm.fully_connected import run_reference  # noqa: F401 (the reference path)

FUNCTIONS = ("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8",
             "arm_fully_connected_wrapper_s8")
LEAF = {"arm_fully_connected_s8": "arm_nn_vec_mat_mult_t_s8",
        "arm_fully_connected_per_channel_s8": "arm_nn_vec_mat_mult_t_per_ch_s8"}


def buffer_size(case, dsp, armclang):
    return arm_fully_connected_s8_get_buffer_size(types.dims(case["filter_dims"]))


def derived_arrays(case):
    """The per-tensor multiplier and shift the wrapper's cmsis_nn_quant_params points at
    (TFLM keeps them in the op's data in the arena)."""
    q = case["quant_params"]
    if q["per_channel"]:
        return {}
    return {"tensor_quant": ("sram", np.array([q["multiplier"], q["shift"]], np.int32))}


def run_cmsis(m, case, addr, function, tracer):
    per_channel = bool(case["quant_params"]["per_channel"])
    entry = "arm_fully_connected_per_channel_s8" if per_channel else "arm_fully_connected_s8"
    if function is None:
        function = entry
    if function not in FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not a fully connected entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    if function != "arm_fully_connected_wrapper_s8" and function != entry:
        kind = "per-channel" if per_channel else "per-tensor"
        raise CaseError(f"{case.get('case', '?')}: {function} cannot run a {kind} case")
    q = case["quant_params"]
    ctx = types.Context(addr["scratch"], addr["scratch_bytes"])
    bias_dims = types.dims(case.get("bias_dims", {"n": 1, "h": 1, "w": 1,
                                                  "c": case["output_dims"]["c"]}))
    args = (ctx, types.fc_params(case["fc_params"]), types.dims(case["input_dims"]),
            addr["input"], types.dims(case["filter_dims"]), addr["weights"], bias_dims,
            addr["bias"], types.dims(case["output_dims"]), addr["output"])
    if function == "arm_fully_connected_wrapper_s8":
        if per_channel:
            quant = types.QuantParams(addr["output_mult"], addr["output_shift"], 1)
        else:
            quant = types.QuantParams(addr["tensor_quant"], addr["tensor_quant"] + 4, 0)
        call_fully_connected_wrapper_s8(m, args[0], args[1], quant, *args[2:], tracer=tracer)
        return [function, entry, LEAF[entry]]
    if per_channel:
        quant = types.PerChannelQuantParams(addr["output_mult"], addr["output_shift"])
    else:
        quant = types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"]))
    kern = arm_fully_connected_per_channel_s8 if per_channel else arm_fully_connected_s8
    run(kern, m, args[0], args[1], quant, *args[2:], tracer=tracer)
    return [function, LEAF[function]]


ORACLE = oracle.fully_connected
