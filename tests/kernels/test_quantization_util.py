"""QuantizeMultiplier two ways (std::frexp and TFLM's IntegerFrExp bit manipulation)."""
import math
import random
import struct

import pytest

from armsim.kernels.tflm.quantization_util import (
    QuantizationError, integer_frexp, quantize_multiplier, quantize_multiplier_frexp,
    quantize_multiplier_greater_than_one, quantize_multiplier_integer,
    quantize_multiplier_smaller_than_one_exp, tflite_round)


def _from_bits(u):
    return struct.unpack("<d", struct.pack("<Q", u))[0]


def _bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _is_tie(x):
    """The 22 fraction bits IntegerFrExp discards are exactly one half."""
    return (_bits(x) & 0x3FFFFF) == 0x200000


def _real(multiplier, shift):
    return multiplier * 2.0 ** (shift - 31)


EDGE = [
    1.0, 0.5, 0.25, 2.0, 0.75, 1.5, -0.5, -1.0, -0.75, 3.0, 123.456, 1e-3, 2.0**30, 2.0**-31,
    2.0**-32, 2.0**-33, 2.0**-31 * 0.75, 2.0**-31 * 0.5, 2.0**-31 * 0.4999, 1e-12, 1e-300,
    5e-324,                                    # smallest denormal
    math.nextafter(1.0, 0.0),                  # mantissa rounds up to 1.0
    math.nextafter(0.5, 0.0), math.nextafter(2.0**-20, 0.0), -math.nextafter(1.0, 0.0),
    math.nextafter(1.0, 2.0), 0.0, -0.0,
    _from_bits(0x3FEFFFFFFFDFFFFF),            # just under a tie, top bits all ones
    _from_bits(0x3FEFFFFFFFE00001),            # just over a tie: rounds up to 1.0
]


@pytest.mark.parametrize("x", EDGE, ids=repr)
def test_edge_values_agree(x):
    assert quantize_multiplier_frexp(x) == quantize_multiplier_integer(x)


def test_random_values_agree():
    rng = random.Random(20261120)
    n = 0
    for _ in range(20000):
        kind = rng.random()
        if kind < 0.4:
            x = rng.uniform(0.0, 1.0)
        elif kind < 0.6:
            x = math.ldexp(rng.uniform(0.5, 1.0), rng.randint(-40, 20))
        elif kind < 0.8:
            x = -math.ldexp(rng.uniform(0.5, 1.0), rng.randint(-40, 20))
        else:                                   # arbitrary bit patterns of finite doubles
            x = _from_bits(rng.getrandbits(64) & ~(0x7FF << 52) | (rng.randint(900, 1100) << 52))
        if _is_tie(x):
            continue
        n += 1
        assert quantize_multiplier_frexp(x) == quantize_multiplier_integer(x), x
    assert n > 19000


def test_mantissa_rounding_up_to_one():
    x = math.nextafter(1.0, 0.0)
    assert quantize_multiplier_frexp(x) == (1 << 30, 1)
    assert quantize_multiplier_integer(x) == (1 << 30, 1)
    q, shift = integer_frexp(x)
    assert (q, shift) == (1 << 31, 0)         # IntegerFrExp itself returns 2^31


def test_shift_below_minus_31_flushes_to_zero():
    assert quantize_multiplier(2.0**-31) == (1 << 30, -30)
    assert quantize_multiplier(2.0**-32) == (1 << 30, -31)
    assert quantize_multiplier(2.0**-33) == (0, 0)
    assert quantize_multiplier_integer(2.0**-33) == (0, 0)
    assert quantize_multiplier_integer(5e-324) == (0, 0)
    # rounding up to 1.0 can lift a shift of -32 back to -31
    x = math.nextafter(2.0**-32, 0.0)
    assert quantize_multiplier(x) == quantize_multiplier_integer(x) == (1 << 30, -31)


def test_exact_tie_is_where_the_two_builds_differ():
    """std::round rounds the half up; IntegerFrExp needs discarded > 0x200000."""
    x = _from_bits(0x3FE0000000200000)        # q * 2^31 = 2^30 + 0.5
    assert _is_tie(x)
    assert quantize_multiplier_frexp(x) == ((1 << 30) + 1, 0)
    assert quantize_multiplier_integer(x) == (1 << 30, 0)


def test_values_represent_the_multiplier():
    rng = random.Random(7)
    for _ in range(2000):
        x = math.ldexp(rng.uniform(0.5, 1.0), rng.randint(-25, 10))
        q, shift = quantize_multiplier(x)
        assert (1 << 30) <= q < (1 << 31)
        assert abs(_real(q, shift) - x) <= 2.0 ** (shift - 32)


def test_known_values():
    assert quantize_multiplier(0.5) == (1 << 30, 0)
    assert quantize_multiplier(1.0) == (1 << 30, 1)
    assert quantize_multiplier(0.0) == (0, 0)
    assert quantize_multiplier(-0.5) == (-(1 << 30), 0)
    # the vectors' multipliers come from effective scales like this one
    assert quantize_multiplier(0.0028) == (1539316279, -8)   # 0.0028 * 2^39 = 1539316278.70...


def test_tflite_round_is_half_away_from_zero():
    assert tflite_round(2.5) == 3.0 and tflite_round(-2.5) == -3.0
    assert tflite_round(0.49999999999999994) == 0.0
    assert tflite_round(1.4999) == 1.0


def test_integer_frexp_special_values():
    assert integer_frexp(0.0) == (0, 0)
    assert integer_frexp(-0.0) == (0, 0)
    assert integer_frexp(float("nan")) == (0, 2**31 - 1)
    assert integer_frexp(float("inf")) == (2**63 - 1, 2**31 - 1)
    assert integer_frexp(float("-inf")) == (-(2**63), 2**31 - 1)
    with pytest.raises(QuantizationError):
        quantize_multiplier_integer(float("inf"))
    with pytest.raises(QuantizationError):
        quantize_multiplier_frexp(float("inf"))


def test_greater_than_one_and_smaller_than_one_exp():
    q, shift = quantize_multiplier_greater_than_one(3.0)
    assert (q, shift) == (3 << 29, 2)
    q, shift = quantize_multiplier_smaller_than_one_exp(0.1)
    assert shift <= 0 and _real(q, shift) == pytest.approx(0.1, rel=1e-9)
    for bad in (1.0, 0.5):
        with pytest.raises(QuantizationError):
            quantize_multiplier_greater_than_one(bad)
    for bad in (1.0, 0.0, -0.1):
        with pytest.raises(QuantizationError):
            quantize_multiplier_smaller_than_one_exp(bad)
