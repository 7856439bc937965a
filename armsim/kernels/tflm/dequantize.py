"""TFLite Micro's reference DEQUANTIZE int8 -> float32 (reference_ops::Dequantize).

    const int32_t val = input_data[i];
    const float result = static_cast<float>(scale * (val - zero_point));   // scale: double

Float arithmetic needs the FPU, which armsim does not model: computed on the host and
reported as not simulated.
"""
import numpy as np


def host_dequantize(case, x):
    v = np.asarray(x, np.int64) - case["zero_point"]
    return (np.float64(np.float32(case["scale"])) * v).astype(np.float32)
