"""TFLM's reference DEPTHWISE_CONV_2D on int4 weights (kernels/depthwise_conv.cc): Prepare
requests a scratch buffer of one byte per weight; Eval unpacks the packed filter into it with
tflite::tensor_utils::UnpackDenseInt4IntoInt8 (kernels/tflm/fully_connected_s4.py, the same
function) and runs the int8 reference DepthwiseConvPerChannel on the unpacked copy
(kernels/tflm/depthwise_conv.py).
"""
from armsim.cpu.kernel import run

from . import depthwise_conv
from .fully_connected_s4 import NAME_UNPACK, UnpackDenseInt4IntoInt8


def reference_buffer_size(case):
    """Prepare's scratch request: the unpacked filter, one byte per weight."""
    f = case["filter_dims"]
    return f["h"] * f["w"] * case["output_dims"]["c"]


def run_reference(m, case, addr, tracer):
    """`addr["weights"]` holds the packed bytes, `addr["scratch"]` reference_buffer_size bytes."""
    run(UnpackDenseInt4IntoInt8, m, addr["weights"], reference_buffer_size(case),
        addr["scratch"], tracer=tracer)
    chain = depthwise_conv.run_reference(m, case, {**addr, "weights": addr["scratch"]}, tracer)
    return [NAME_UNPACK] + chain
