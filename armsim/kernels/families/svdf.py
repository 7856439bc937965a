"""SVDF with int8 state: arm_svdf_s8 (TFLM's CMSIS-NN glue calls it for int8 time weights).

A case holds `num_steps` input blocks (the unit tests call the kernel once per block,
carrying the state over); the family makes those calls in turn on the one machine, so
counts cover every call and `output` is the last call's.  The state is an SRAM array the
kernel updates in place (`Result.addr["state"]`).  input_ctx->buf and output_ctx->buf
(TFLM's two scratch buffers) are the case's scratch block: batch * features words, then
batch * units words.  Shared with svdf_state_s16 (int16 state, arm_svdf_state_s16_s8).
"""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels import oracle
from armsim.kernels.cmsis_nn import arm_nn_types as types
from armsim.kernels.cmsis_nn.arm_svdf_s8 import arm_svdf_s8
from armsim.errors import CaseError
from armsim.kernels.tflm.svdf import (  # noqa: F401
    reference_buffer_size,
    reference_buffer_sizes,
    run_reference,
)

FUNCTIONS = ("arm_svdf_s8",)
ARRAYS = {"state": ("sram", np.int8), "weights_feature": ("flash", np.int8),
          "weights_time": ("flash", np.int8)}
CHAIN = ["arm_svdf_s8", "memmove", "arm_nn_vec_mat_mult_t_s8"]


def buffer_sizes(case):
    """(input_ctx, output_ctx) bytes as TFLM's Prepare requests them; arm_svdf_s8's ctx
    (kernel sums) is 0 bytes on a non-MVE build (arm_svdf_s8_get_buffer_size_dsp)."""
    n = case["input_dims"]["n"]
    features = case["weights_feature_dims"]["n"]
    return 4 * n * features, 4 * n * (features // case["svdf_params"]["rank"])


def buffer_size(case, dsp, armclang):
    return sum(buffer_sizes(case))


def output_count(case):
    return case["input_dims"]["n"] * (case["weights_feature_dims"]["n"]
                                      // case["svdf_params"]["rank"])


def run_steps(kernel, name, m, case, addr, function, tracer, functions, chain):
    if function not in (None,) + functions:
        raise CaseError(f"{case.get('case', '?')}: {function} is not an SVDF entry point "
                        f"(choose from {', '.join(functions)})")
    p = case["svdf_params"]
    n, size = case["input_dims"]["n"], case["input_dims"]["h"]
    features = case["weights_feature_dims"]["n"]
    if features % p["rank"]:
        raise CaseError(f"{case.get('case', '?')}: {features} feature batches not divisible "
                        f"by rank {p['rank']}")
    buffer_a = addr["scratch"]
    buffer_b = buffer_a + buffer_sizes(case)[0]
    for step in range(case.get("num_steps", 1)):
        status = run(kernel, m, buffer_a, buffer_b, p["rank"], p["input_offset"],
                     p["output_offset"], p["input_activation"]["min"],
                     p["input_activation"]["max"], p["output_activation"]["min"],
                     p["output_activation"]["max"], case["input_quant_params"]["multiplier"],
                     case["input_quant_params"]["shift"],
                     case["output_quant_params"]["multiplier"],
                     case["output_quant_params"]["shift"], n, size, features,
                     case["weights_time_dims"]["h"], addr["input"] + step * n * size,
                     addr["state"], addr["weights_feature"], addr["weights_time"],
                     addr["bias"], addr["output"], tracer=tracer)
        if status != 0:
            raise CaseError(f"{case.get('case', '?')}: {name} returned ARM_CMSIS_NN_ARG_ERROR")
    return list(chain)


def run_cmsis(m, case, addr, function, tracer):
    """arm_svdf_s8 on CMSIS-NN's structs, once per input block."""
    if function not in (None,) + FUNCTIONS:
        raise CaseError(f"{case.get('case', '?')}: {function} is not an SVDF entry point "
                        f"(choose from {', '.join(FUNCTIONS)})")
    p = case["svdf_params"]
    n, size = case["input_dims"]["n"], case["input_dims"]["h"]
    features = case["weights_feature_dims"]["n"]
    if features % p["rank"]:
        raise CaseError(f"{case.get('case', '?')}: {features} feature batches not divisible "
                        f"by rank {p['rank']}")
    buffer_a = addr["scratch"]
    buffer_b = buffer_a + buffer_sizes(case)[0]
    quant = [types.PerTensorQuantParams(int(q["multiplier"]), int(q["shift"]))
             for q in (case["input_quant_params"], case["output_quant_params"])]
    units = features // p["rank"]
    state_dims = types.Dims(n, features, case["weights_time_dims"]["h"], 0)
    for step in range(case.get("num_steps", 1)):
        status = run(arm_svdf_s8, m, types.Context(0, 0),
                     types.Context(buffer_a, buffer_sizes(case)[0]),
                     types.Context(buffer_b, buffer_sizes(case)[1]), types.svdf_params(p),
                     quant[0], quant[1], types.dims(case["input_dims"]),
                     addr["input"] + step * n * size, state_dims, addr["state"],
                     types.dims(case["weights_feature_dims"]), addr["weights_feature"],
                     types.dims(case["weights_time_dims"]), addr["weights_time"],
                     types.Dims(units, 0, 0, 0), addr["bias"], types.Dims(n, units, 0, 0),
                     addr["output"], tracer=tracer)
        if status != 0:
            raise CaseError(f"{case.get('case', '?')}: arm_svdf_s8 returned "
                            "ARM_CMSIS_NN_ARG_ERROR")
    return list(CHAIN)


ORACLE = oracle.svdf
