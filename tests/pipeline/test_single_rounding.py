"""What-if CMSIS_NN_USE_SINGLE_ROUNDING (issue 13 item 4): CMSIS-NN's single-rounding
arm_nn_requantize, bit-exact against its own numpy reference (it changes outputs, so TFLM's
interpreter, built with double rounding, is no reference for it)."""
import numpy as np
import pytest
from click.testing import CliRunner

from armsim.pipeline.build import Build
from armsim.errors import BuildError
from armsim.cli.main import main
from armsim.pipeline import harness
from armsim.kernels import families, oracle

from conftest import VECTORS, load_case, shared_cases

FAMILIES = ("conv", "depthwise_conv", "fully_connected", "elementwise_add", "elementwise_mul",
            "transpose_conv", "svdf")
CASES = [p for p in shared_cases(VECTORS) if load_case(p)["family"] in FAMILIES]


def test_requantize_single_matches_the_c_formula():
    rng = np.random.default_rng(3)
    acc = rng.integers(-2**31, 2**31, 2000)
    mult = rng.integers(2**30, 2**31, 2000)
    shift = rng.integers(-31, 31, 2000)
    got = oracle.requantize_single(acc, mult, shift)
    for a, mu, sh, g in zip(acc, mult, shift, got):
        total_shift = 31 - int(sh)
        r = (int(a) * int(mu)) >> (total_shift - 1)
        r = ((r + 2**31) % 2**32) - 2**31                 # (int32_t)
        r = ((((r + 1) + 2**31) % 2**32) - 2**31) >> 1
        assert g == r


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("case_file", CASES, ids=lambda p: p.stem)
def test_vectors_bit_exact_with_single_rounding(case_file, path):
    case = dict(load_case(case_file), single_rounding=True)
    res = harness.run_case(case, Build(path, single_rounding=True))
    assert np.array_equal(res.output.astype(np.int64),
                          np.asarray(families.oracle(case), np.int64).ravel())


#: families whose ports, transcribed from the default (double-rounding) gcc build, do not
#: yet run CMSIS_NN_USE_SINGLE_ROUNDING's arm_nn_requantize (issue 25: that build is to be
#: measured and transcribed too); their single-rounding runs compute double rounding
SINGLE_ROUNDING_NOT_TRANSCRIBED = {"fully_connected", "svdf", "elementwise_mul"}


def test_single_rounding_changes_some_outputs():
    changed = 0
    for case_file in CASES:
        case = load_case(case_file)
        single = harness.run_case(case, Build("simd", single_rounding=True))
        double = harness.run_case(case, Build("simd"))
        changed += not np.array_equal(single.output, double.output)
    assert changed, "no vector case rounds differently: the test has no teeth"


def _counts_case(path):
    family = load_case(path)["family"]
    marks = [pytest.mark.xfail(strict=True, reason=f"{family}: single rounding not transcribed")
             ] if family in SINGLE_ROUNDING_NOT_TRANSCRIBED else []
    return pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("case_file", [_counts_case(p) for p in CASES])
def test_single_rounding_changes_the_counts(case_file):
    case = load_case(case_file)
    single = harness.run_case(case, Build("simd", single_rounding=True))
    double = harness.run_case(case, Build("simd"))
    assert single.counts() != double.counts()


def test_reference_path_refuses_single_rounding():
    with pytest.raises(BuildError, match="CMSIS-NN build option"):
        Build("reference", single_rounding=True)


def test_whatif_single_rounding():
    result = CliRunner().invoke(main, ["whatif", "--vs", "rounding=single"])
    assert result.exit_code == 0, result.output
    assert "rounding=single" in result.output and "total" in result.output
    bad = CliRunner().invoke(main, ["whatif", "--path", "reference", "--vs", "rounding=single"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
    assert "CMSIS_NN_USE_SINGLE_ROUNDING" in bad.output


def test_tflm_reference_ops_keep_double_rounding():
    """A reference-only op on a CMSIS-NN path (here QUANTIZE int8 -> int8, whose TFLM port
    shares arm_nn_requantize's code) is TFLM's kernel: the CMSIS-NN macro does not reach it."""
    from armsim.pipeline import model, profiler
    from armsim.data import modelgen
    g = modelgen.Graph()
    x = g.input((1, 64), scale=0.05, zero_point=3)
    g.output(g.quantize(x, scale=0.0371, zero_point=-5))
    m = model.parse(g.build(), "requantize.tflite")
    double = profiler.run(m, Build("simd"))
    single = profiler.run(m, Build("simd", single_rounding=True))
    assert double.ops[0].reference and double.ops[0].mnemonics == single.ops[0].mnemonics
    assert np.array_equal(double.outputs[0], single.outputs[0])
