"""Convolution (arm_convolve_wrapper_s8 and the kernels it dispatches to) and the libc calls
of its im2col path.

Parametrised over ../shared/cmsis_nn_vectors/*.json and ../shared/reference/*.json (family
conv): a new file there is a new test.
"""
import json
from pathlib import Path

import numpy as np
import pytest

from armsim.cpu import machine
from armsim.cpu.kernel import Tracer, run
from armsim.errors import CaseError
from armsim.pipeline.harness import run_case
from armsim.kernels.libc import memcpy, memset
from armsim.pipeline.build import Build

from conftest import REFERENCE, VECTORS

WRAPPER = "arm_convolve_wrapper_s8"


def _conv_files(directory):
    out = []
    for path in sorted(Path(directory).glob("*.json")):
        if json.loads(path.read_text()).get("family") == "conv":
            out.append(path)
    return out


VECTOR_FILES = _conv_files(VECTORS)
REFERENCE_FILES = _conv_files(REFERENCE)
ALL_FILES = VECTOR_FILES + REFERENCE_FILES


def _load(path):
    return json.loads(Path(path).read_text())


def _entry_points(case):
    """The wrapper, the case's function and every function it was validated through."""
    names = [WRAPPER, case["function"]] + list(case.get("functions_validated", []))
    return list(dict.fromkeys(names))


def test_the_directories_hold_conv_cases():
    assert len(VECTOR_FILES) >= 21 and len(REFERENCE_FILES) >= 6


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("file", ALL_FILES, ids=lambda p: p.stem)
def test_bit_exact_through_every_entry_point(file, path):
    case = _load(file)
    expected = np.asarray(case["output_ref"], np.int8)
    for function in _entry_points(case):
        result = run_case(case, Build(path), function=function)
        np.testing.assert_array_equal(result.output, expected, err_msg=f"{function} on {path}")
        assert result.kernel_path[0] == function
        if function == WRAPPER:
            assert result.kernel_path[1] == case["wrapper_dispatch"]


@pytest.mark.parametrize("file", [f for f in ALL_FILES
                                  if _load(f)["wrapper_dispatch"] == "arm_convolve_1x1_s8_fast"],
                         ids=lambda p: p.stem)
def test_armclang_buffered_1x1_fast_path(file):
    """Arm Compiler 6 + DSP: the buffered s8->s16 + arm_nn_mat_mult_kernel_s8_s16 path."""
    case = _load(file)
    expected = np.asarray(case["output_ref"], np.int8)
    simd = run_case(case, Build("simd", "armclang"))
    np.testing.assert_array_equal(simd.output, expected)
    assert simd.kernel_path == [WRAPPER, "arm_convolve_1x1_s8_fast", "arm_nn_mat_mult_kernel_s8_s16"]
    assert simd.counts().get("sxtab16", 0) > 0          # the widening ran
    gcc = run_case(case, Build("simd", "gcc"))
    assert gcc.kernel_path[-1] == "arm_nn_mat_mult_nt_t_s8"
    scalar = run_case(case, Build("scalar", "armclang"))  # no DSP: the gcc-like path
    np.testing.assert_array_equal(scalar.output, expected)
    assert scalar.kernel_path[-1] == "arm_nn_mat_mult_nt_t_s8"


def test_buffer_sizes():
    from armsim.kernels.families.conv import buffer_size
    case = _load(REFERENCE / "conv3x3_16x16x3_o8_s1_p1.json")  # rhs_cols 27 -> aligned 28
    assert buffer_size(case, True, False) == 2 * 28 * 2
    fast = _load(REFERENCE / "conv1x1_8x8x16_o32.json")
    assert buffer_size(fast, True, False) == 0                # gcc: no buffer
    assert buffer_size(fast, True, True) == 2 * 16 * 2        # armclang + DSP
    assert buffer_size(fast, False, True) == 0


def test_1_x_n_argument_check():
    case = _load(VECTORS / "conv_2.json")                      # input h 3: not a 1xN case
    with pytest.raises(CaseError, match="ARG_ERROR"):
        run_case(case, Build("simd"), function="arm_convolve_1_x_n_s8")


# --- libc -----------------------------------------------------------------------------

def _fresh(n, dsp):
    mem = machine.Memory()
    mem.region("sram", machine.SRAM_BASE, 0)
    rng = np.random.default_rng(n)
    src = rng.integers(-128, 128, n + 8, dtype=np.int8)
    a = mem.place("sram", src)
    d = mem.place("sram", np.full(n + 8, 7, np.int8))
    return machine.build(mem, dsp=dsp), src, a, d


@pytest.mark.parametrize("dsp", [True, False])
def test_memcpy_memset_every_size_and_alignment(dsp):
    for n in list(range(0, 24)) + [31, 64, 67, 130, 200]:
        for so in range(4):
            for do in range(4):
                m, src, a, d = _fresh(n, dsp)
                assert run(memcpy, m, d + do, a + so, n) == d + do
                out = machine.read(m, d, n + 8)
                expect = np.full(n + 8, 7, np.int8)
                expect[do:do + n] = src[so:so + n]
                np.testing.assert_array_equal(out, expect, err_msg=f"memcpy n={n} {so} {do}")
            m, src, a, d = _fresh(n, dsp)
            value = -3 - n
            assert run(memset, m, d + so, value, n) == d + so
            expect = np.full(n + 8, 7, np.int8)
            expect[so:so + n] = ((value + 128) % 256) - 128    # (unsigned char)c
            np.testing.assert_array_equal(machine.read(m, d, n + 8), expect,
                                          err_msg=f"memset n={n} {so}")


def _libc_cost(function, n, dst_offset, src_offset, dsp):
    m, _, a, d = _fresh(n, dsp)
    if function == "memcpy":
        run(memcpy, m, d + dst_offset, a + src_offset, n)
    else:
        run(memset, m, d + dst_offset, 0, n)
    return sum(machine.counts(m).values())


def test_libc_costs_follow_the_library_code():
    # memcpy-armv7m.S: an aligned 16-byte copy is one mid block, ARMv7-M adds two ADDS
    assert _libc_cost("memcpy", 16, 0, 0, True) + 2 == _libc_cost("memcpy", 16, 0, 0, False)
    # a misaligned copy under 8 bytes goes bytewise and skips the word loops
    assert _libc_cost("memcpy", 3, 0, 1, True) < _libc_cost("memcpy", 3, 0, 0, True)
    # memset.c: an unaligned start costs byte stores up to the word boundary
    assert _libc_cost("memset", 16, 1, 0, True) > _libc_cost("memset", 16, 0, 0, True)


@pytest.mark.parametrize("path", ["simd", "scalar"])
@pytest.mark.parametrize("name", ["conv1x3_1x32x8_o16_p1", "conv3x3_8x8x16_o16_s2_p1"])
def test_libc_instructions_equal_measured(name, path):
    """The im2col memcpy/memset calls, traced, execute exactly what newlib executed."""
    case = _load(REFERENCE / f"{name}.json")
    tracer = Tracer(limit=200_000)
    run_case(case, Build(path), tracer=tracer)
    executed = {"memcpy": 0, "memset": 0}
    owner = {"memcpy": "memcpy", "_tail_less_than_4": "memcpy", "memset": "memset"}
    for record in tracer.records:
        if record.function in owner:
            executed[owner[record.function]] += 1
    functions = case["measured"][Build(path).measured_build]["functions"]
    assert executed == {"memcpy": functions["memcpy"], "memset": functions["memset"]}


def test_traced_run_equals_counted_run():
    case = _load(VECTORS / "conv_out_activation.json")
    fast = run_case(case, Build("simd"))
    traced = run_case(case, Build("simd"), tracer=Tracer())
    np.testing.assert_array_equal(fast.output, traced.output)
    assert fast.counts() == traced.counts()
