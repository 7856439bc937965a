"""TFLM's reference CONV_2D on int4 weights (kernels/conv.cc): Prepare requests a scratch
buffer of one byte per weight; Eval unpacks the packed filter into it with
tflite::tensor_utils::UnpackDenseInt4IntoInt8 (tflite::micro::MakeUnpackedInt4Tensor) and runs
the int8 reference ConvPerChannel on the unpacked copy (kernels/tflm/conv.py).  The unpacking
kernel is fully_connected_s4's (one home)."""
from armsim.cpu.kernel import run

from . import conv
from .fully_connected_s4 import NAME_UNPACK, UnpackDenseInt4IntoInt8


def reference_buffer_size(case):
    """Prepare's scratch request: the unpacked filter, one byte per weight."""
    f = case["filter_dims"]
    return case["output_dims"]["c"] * f["h"] * f["w"] * f["c"]


def run_reference(m, case, addr, tracer):
    run(UnpackDenseInt4IntoInt8, m, addr["packed_weights"], reference_buffer_size(case),
        addr["scratch"], tracer=tracer)
    return [NAME_UNPACK] + conv.run_reference(m, case, {**addr, "weights": addr["scratch"]},
                                              tracer)
