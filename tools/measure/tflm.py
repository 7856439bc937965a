"""The TFLM reference-kernel build (`ref_O2`): TFLM's kernel sources compiled with
arm-none-eabi-g++ 12.2 as TFLM's Makefile compiles kernels (-O2, -fno-rtti -fno-exceptions
-fno-threadsafe-statics, no unwind tables, -DTF_LITE_STATIC_MEMORY, -DNDEBUG: the
`release_with_logs` build type, error strings kept), for Cortex-M4 without FPU.  With these
flags the first operator of kws (CONV_2D) and ad (FULLY_CONNECTED) executes, function for
function, what ../shared/models/*/measured.json recorded for the `reference` path
(`validate.py --models`); with -DTF_LITE_STRIP_ERROR_STRINGS ConvEval differs by 7.

The harness runs the operator's real Eval (micro/kernels/<op>.cc), so the reference kernel is
the function TFLM compiles, in TFLM's calling context (e.g. conv.cc's ConvPerChannel is an
IPA-SRA clone there, `[clone .isra.0]`; a direct call from a harness would compile it
differently).  Only the interpreter's GetEvalTensor callback is the harness's own.
"""
from pathlib import Path

from . import toolchain
from .builds import TFLM_COMMIT, TFLM_DIR

THIRD_PARTY = Path("/work/cache/third_party")   # gemmlowp 719139c, ruy d371283, flatbuffers v25.9.23
# TFLM sources the measured ops reach: the kernels' Eval / Prepare files, their helpers, and
# what those reference (MultiplyByQuantizedMultiplier, tensor utils, kernel utils)
SOURCES = (
    "tensorflow/lite/kernels/internal/common.cc",
    "tensorflow/lite/kernels/internal/runtime_shape.cc",
    "tensorflow/lite/kernels/internal/portable_tensor_utils.cc",
    "tensorflow/lite/kernels/internal/reference/portable_tensor_utils.cc",
    "tensorflow/lite/kernels/internal/tensor_utils.cc",
    "tensorflow/lite/kernels/internal/quantization_util.cc",
    "tensorflow/lite/kernels/internal/tensor_ctypes.cc",
    "tensorflow/lite/kernels/kernel_util.cc",
    "tensorflow/lite/core/c/common.cc",
    "tensorflow/lite/micro/micro_context.cc",
    "tensorflow/lite/micro/micro_log.cc",
    "tensorflow/lite/micro/kernels/kernel_util.cc",
    "tensorflow/lite/micro/kernels/conv.cc",
    "tensorflow/lite/micro/kernels/conv_common.cc",
    "tensorflow/lite/micro/kernels/depthwise_conv.cc",
    "tensorflow/lite/micro/kernels/depthwise_conv_common.cc",
    "tensorflow/lite/micro/kernels/fully_connected.cc",
    "tensorflow/lite/micro/kernels/fully_connected_common.cc",
    "tensorflow/lite/micro/kernels/pooling.cc",
    "tensorflow/lite/micro/kernels/pooling_common.cc",
    "tensorflow/lite/micro/kernels/softmax.cc",
    "tensorflow/lite/micro/kernels/softmax_common.cc",
    "tensorflow/lite/micro/kernels/add.cc",
    "tensorflow/lite/micro/kernels/add_common.cc",
    "tensorflow/lite/micro/kernels/mul.cc",
    "tensorflow/lite/micro/kernels/mul_common.cc",
    "tensorflow/lite/micro/kernels/transpose.cc",
    "tensorflow/lite/micro/kernels/transpose_common.cc",
    "tensorflow/lite/micro/kernels/pad.cc",
    "tensorflow/lite/micro/kernels/pad_common.cc",
    "tensorflow/lite/micro/kernels/maximum_minimum.cc",
    "tensorflow/lite/micro/kernels/transpose_conv.cc",
    "tensorflow/lite/micro/kernels/svdf.cc",
    "tensorflow/lite/micro/kernels/svdf_common.cc",
    "tensorflow/lite/micro/kernels/batch_matmul.cc",
    "tensorflow/lite/micro/kernels/batch_matmul_common.cc",
)


def includes():
    return [Path(TFLM_DIR), THIRD_PARTY / "gemmlowp", THIRD_PARTY / "ruy",
            THIRD_PARTY / "flatbuffers" / "include"]


def libraries(build):
    missing = [d for d in includes() if not d.is_dir()]
    if missing:
        raise toolchain.ToolchainError(f"missing {missing[0]} (fetch gemmlowp / ruy / flatbuffers at "
                                       f"tflite-micro 90b983c's pins into {THIRD_PARTY})")
    return [toolchain.archive(build, "tflm_ref", [Path(TFLM_DIR) / s for s in SOURCES], includes())]


def build_record(build):
    return build.record("tflite_micro_commit", TFLM_COMMIT, "-I<tflite-micro> -I<gemmlowp>")
