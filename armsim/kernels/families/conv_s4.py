"""Convolution with packed int4 weights: arm_convolve_wrapper_s4 and the kernels it
dispatches to (non-MVE): arm_convolve_1x1_s4_fast / arm_convolve_1x1_s4 (both via
arm_nn_mat_mult_nt_t_s4), arm_convolve_1_x_n_s4 (-> arm_convolve_s4) and arm_convolve_s4
(im2col into int16, arm_nn_mat_mult_kernel_s4_s16).  The reference path is TFLM's: the
filter unpacked to int8 into Prepare's scratch, then the int8 reference ConvPerChannel
(kernels/tflm/conv_s4.py).

Weights: the CMSIS-NN vectors store the packed bytes in `weights`, the measured cases the
int4 values in `weights` and the packed bytes in `weights_packed_int4`; `packed_weights` is
the one place that tells them apart, the kernels read the packed bytes."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_convolve_wrapper_s4 as wrapper_mod
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_convolve_1_x_n_s4 import arm_convolve_1_x_n_s4
from armsim.kernels.cmsis_nn.arm_convolve_1x1_s4 import arm_convolve_1x1_s4
from armsim.kernels.cmsis_nn.arm_convolve_1x1_s4_fast import arm_convolve_1x1_s4_fast
from armsim.kernels.cmsis_nn.arm_convolve_s4 import arm_convolve_s4
from armsim.errors import CaseError
from armsim.kernels.tflm import conv_s4 as tflm_conv_s4

WRAPPER = "arm_convolve_wrapper_s4"
FUNCTIONS = (WRAPPER, "arm_convolve_s4", "arm_convolve_1x1_s4_fast", "arm_convolve_1x1_s4",
             "arm_convolve_1_x_n_s4")
_LEAF_NAME = {wrapper_mod.LEAF_1X1_FAST: "arm_convolve_1x1_s4_fast",
              wrapper_mod.LEAF_1X1: "arm_convolve_1x1_s4",
              wrapper_mod.LEAF_1_X_N: "arm_convolve_1_x_n_s4",
              wrapper_mod.LEAF_CONVOLVE: "arm_convolve_s4"}
_LEAF = {"arm_convolve_s4": arm_convolve_s4, "arm_convolve_1x1_s4_fast": arm_convolve_1x1_s4_fast,
         "arm_convolve_1x1_s4": arm_convolve_1x1_s4, "arm_convolve_1_x_n_s4": arm_convolve_1_x_n_s4}
reference_buffer_size = tflm_conv_s4.reference_buffer_size


def weight_count(case):
    f = case["filter_dims"]
    return case["output_dims"]["c"] * f["h"] * f["w"] * f["c"]


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
    return np.stack([low, packed >> 4], axis=1).ravel()[:weight_count(case)]


def derived_arrays(case):
    return {"packed_weights": ("flash", packed_weights(case))}


def _is_1x1(case):
    p, i, f = case["conv_params"], case["input_dims"], case["filter_dims"]
    return (p["padding"]["w"] == 0 and p["padding"]["h"] == 0 and f["w"] == 1 and f["h"] == 1
            and p["dilation"]["w"] == 1 and p["dilation"]["h"] == 1 and f["c"] == i["c"])


def buffer_size(case, dsp, armclang, function=None):
    """arm_convolve_wrapper_s4_get_buffer_size (non-MVE; or the leaf's own): 0 for the 1x1
    kernels, else arm_convolve_s4_get_buffer_size, two int16 im2col columns."""
    function = function or case.get("function") or WRAPPER
    if function in ("arm_convolve_1x1_s4_fast", "arm_convolve_1x1_s4") or (
            function == WRAPPER and _is_1x1(case)):
        return 0
    f = case["filter_dims"]
    return 2 * f["w"] * f["h"] * case["input_dims"]["c"] * 2


def _args(case, addr):
    """The C API's arguments (ctx, conv_params, quant_params, input_dims, input_data,
    filter_dims, filter_data, bias_data, output_dims, output_data)."""
    return (types.Context(int(addr["scratch"]), int(addr["scratch_bytes"])),
            types.conv_params(case["conv_params"]),
            types.PerChannelQuantParams(int(addr["output_mult"]), int(addr["output_shift"])),
            types.dims(case["input_dims"]), int(addr["input"]),
            types.dims(case["filter_dims"]), int(addr["packed_weights"]), int(addr["bias"]),
            types.dims(case["output_dims"]), int(addr["output"]))


def _leaf_chain(case, leaf):
    if leaf in ("arm_convolve_1x1_s4_fast", "arm_convolve_1x1_s4"):
        return [leaf, "arm_nn_mat_mult_nt_t_s4"]
    o = case["output_dims"]
    gemm = ["arm_nn_mat_mult_kernel_s4_s16"] if o["h"] * o["w"] >= 2 else []
    return [leaf] + (["arm_convolve_s4"] if leaf == "arm_convolve_1_x_n_s4" else []) + gemm


def run_cmsis(m, case, addr, function, tracer):
    name = case.get("case", "?")
    function = function or WRAPPER
    if function not in FUNCTIONS:
        raise CaseError(f"{name}: {function} is not an int4 convolution entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    need = buffer_size(case, m.dsp, m.armclang, function)
    if addr["scratch_bytes"] < need:
        raise CaseError(f"{name}: {function} needs a {need}-byte buffer, the case was given "
                        f"{addr['scratch_bytes']} (sized for the wrapper)")
    args = _args(case, addr)
    chain = []
    leaf = function
    if function == WRAPPER:
        leaf = _LEAF_NAME[run(wrapper_mod.arm_convolve_wrapper_s4, m, args[1], args[3], args[5],
                              tracer=tracer)]
        chain = [WRAPPER]
    status = run(_LEAF[leaf], m, *args, tracer=tracer)
    if status != 0:
        raise CaseError(f"{name}: {leaf} returned ARM_CMSIS_NN_ARG_ERROR for these parameters")
    return chain + _leaf_chain(case, leaf)


def run_reference(m, case, addr, tracer):
    return tflm_conv_s4.run_reference(m, case, addr, tracer)


def ORACLE(case):
    """The int8 conv oracle on the unpacked weights."""
    return oracle.conv({**case, "weights": unpacked_weights(case)})
