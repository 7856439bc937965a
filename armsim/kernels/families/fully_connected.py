"""Fully connected: arm_fully_connected_s8 (per tensor) / arm_fully_connected_per_channel_s8,
both reachable through arm_fully_connected_wrapper_s8."""
from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_fully_connected_get_buffer_sizes_s8 import \
    arm_fully_connected_s8_get_buffer_size
from armsim.kernels.cmsis_nn.arm_fully_connected_per_channel_s8 import arm_fully_connected_per_channel_s8
from armsim.kernels.cmsis_nn.arm_fully_connected_s8 import arm_fully_connected_s8
from armsim.kernels.cmsis_nn.arm_fully_connected_wrapper_s8 import call_fully_connected_wrapper_s8
from armsim.errors import CaseError

FUNCTIONS = ("arm_fully_connected_s8", "arm_fully_connected_per_channel_s8",
             "arm_fully_connected_wrapper_s8")
from armsim.kernels import oracle
from armsim.kernels.tflm.fully_connected import run_reference  # noqa: F401 (the reference path)
LEAF = {"arm_fully_connected_s8": "arm_nn_vec_mat_mult_t_s8",
        "arm_fully_connected_per_channel_s8": "arm_nn_vec_mat_mult_t_per_ch_s8"}


def buffer_size(case, dsp, armclang):
    return arm_fully_connected_s8_get_buffer_size(case["filter_dims"])


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
    p = case["fc_params"]
    act = p["activation"]
    if per_channel:
        multiplier, shift = addr["output_mult"], addr["output_shift"]
    else:
        multiplier, shift = case["quant_params"]["multiplier"], case["quant_params"]["shift"]
    args = (addr["input"], addr["weights"], addr["bias"], addr["output"], p["input_offset"],
            p["filter_offset"], p["output_offset"], act["min"], act["max"], multiplier, shift,
            case["input_dims"]["n"], case["filter_dims"]["n"], case["output_dims"]["c"])
    if function == "arm_fully_connected_wrapper_s8":
        call_fully_connected_wrapper_s8(m, per_channel, *args, tracer=tracer)
        return [function, entry, LEAF[entry]]
    kern = arm_fully_connected_per_channel_s8 if per_channel else arm_fully_connected_s8
    run(kern, m, *args, tracer=tracer)
    return [function, LEAF[function]]


ORACLE = oracle.fully_connected
