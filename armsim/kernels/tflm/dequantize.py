"""TFLite Micro's reference DEQUANTIZE int8 -> float32 (reference_ops::Dequantize).

    const int32_t val = input_data[i];
    const float result = static_cast<float>(scale * (val - zero_point));   // scale: double

Float arithmetic needs the FPU, which armsim does not model: computed on the host and
reported as not simulated.
"""
import numpy as np


def host_dequantize(case, x):
    """``(float)(scale * (val - zero_point))``: a product beyond float32's range becomes
    +/-inf, as the C cast does (IEEE), which numpy would otherwise warn about."""
    v = np.asarray(x, np.int64) - case["zero_point"]
    with np.errstate(over="ignore"):
        return (np.float64(np.float32(case["scale"])) * v).astype(np.float32)
