"""Maximum: arm_maximum_s8 (no scratch buffer), operands broadcast to output_dims."""
import numpy as np

from armsim.cpu.kernel import run
from armsim.kernels.cmsis_nn.arm_maximum_s8 import arm_maximum_s8
from armsim.errors import CaseError
from armsim.kernels.tflm.maximum_minimum import run_reference, shapes  # noqa: F401 (reference path)

FUNCTIONS = ("arm_maximum_s8",)
KERNEL = arm_maximum_s8


def buffer_size(case, dsp, armclang):
    return 0


def output_count(case):
    return int(np.prod(shapes(case)[2]))


def run_binary(m, case, addr, function, tracer, functions, kern):
    """Both families' CMSIS-NN call: the 4-D cmsis_nn_dims of the operands and output."""
    if function not in (None, functions[0]):
        raise CaseError(f"{case.get('case', '?')}: {function} is not a {case['family']} entry "
                        f"point (use {functions[0]})")
    d1, d2, do = (case[k] for k in ("input_1_dims", "input_2_dims", "output_dims"))
    run(kern, m, addr["input"], *(d1[k] for k in "nhwc"), addr["input2"],
        *(d2[k] for k in "nhwc"), addr["output"], do["n"], do["h"], do["w"], tracer=tracer)
    return [functions[0]]


def run_cmsis(m, case, addr, function, tracer):
    return run_binary(m, case, addr, function, tracer, FUNCTIONS, KERNEL)


def row_scalar_overrun(case):
    """True where arm_maximum_s8 / arm_minimum_s8 (this CMSIS-NN commit) read past an
    operand: in the per-row loop, a row of one element (w * c == 1) against a wider row
    (w > 1) takes the scalar branch, which steps that operand's pointer by one and then
    adds height_*_diff, which is width_*_diff = c = 1 here: two steps per row instead of
    one (e.g. [1, H, 1, 1] against [1, H, W, C], W > 1).  The output then differs from
    TFLite's; armsim runs the kernel as it is (tests/ops/test_maximum_minimum.py)."""
    d1, d2 = ([case[k][d] for d in "nhwc"] for k in ("input_1_dims", "input_2_dims"))
    if d1 == d2 or int(np.prod(d1)) == 1 or int(np.prod(d2)) == 1:
        return False
    (_, h1, w1, c1), (_, h2, w2, c2) = d1, d2
    if (h1, w1, c1) == (h2, w2, c2) or h1 * w1 * c1 == 1 or h2 * w2 * c2 == 1:
        return False
    if (w1, c1) == (w2, c2):
        return False
    return (w1 * c1 == 1 and w2 > 1) or (w2 * c2 == 1 and w1 > 1)


def oracle_of(case, fn):
    """numpy broadcasting of the two operands' shapes, then `fn` element-wise."""
    s1, s2, so = shapes(case)
    a = np.asarray(case["input"], np.int8).reshape(s1)
    b = np.asarray(case["input2"], np.int8).reshape(s2)
    return np.broadcast_to(fn(a, b), so).ravel()


def ORACLE(case):
    return oracle_of(case, np.maximum)
