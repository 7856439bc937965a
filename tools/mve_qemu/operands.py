"""Seeded operands for the cases: edge values (limits of each lane width, shift amounts
around the element size, whole-element and ragged predicates) mixed with uniform ones.

The first third of a case's operand sets draws its lanes almost only from the edge
palettes, the rest half from them and half uniformly.  The recorded data keeps the drawn
operands, so the test never regenerates them.
"""
import zlib

import numpy as np

SEED = 20261

EDGES = {
    8: [0, 1, -1, 2, -2, 127, -128, 126, -127, 64, -64, 0x55, -0x56],
    16: [0, 1, -1, 0x7FFF, -0x8000, 0x7FFE, -0x7FFF, 0x7F, 0x80, -0x80, 0xFF, 0x100, 0x4000,
         -0x4000],
    32: [0, 1, -1, 0x7FFFFFFF, -0x80000000, 0x7FFFFFFE, -0x7FFFFFFF, 0x7FFF, 0x8000, -0x8000,
         0xFFFF, 0x10000, 0x40000000, -0x40000000, 0x7F, 0x80, 0x3FFFFFFF],
}
SHIFTS = [-128, -65, -64, -63, -33, -32, -31, -17, -16, -15, -9, -8, -7, -2, -1, 0, 1, 2, 7, 8,
          9, 15, 16, 17, 31, 32, 33, 63, 64, 127]
ELEMENT_COUNTS = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 255, 256, 0x7FFFFFFF,
                  -0x80000000, -1, -16]
MEM_EDGES = [0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF]


def seed_of(name):
    return SEED ^ zlib.crc32(name.encode())


def _pick(rng, shape, palette, uniform, edge_share):
    """Values of `shape`: from `palette` with probability edge_share (per set), else from
    the `uniform()` draw."""
    use_palette = rng.random(shape) < edge_share
    chosen = np.asarray(palette, np.int64)[rng.integers(0, len(palette), shape)]
    return np.where(use_palette, chosen, uniform(shape))


def _edge_shares(rng, sets):
    share = np.full(sets, 0.5)
    share[: sets // 3] = 0.9
    return share


def _lanes(rng, sets, esize, kind):
    lanes = 128 // esize
    share = _edge_shares(rng, sets)[:, None]
    if kind == "int":
        values = _pick(rng, (sets, lanes), EDGES[esize],
                       lambda s: rng.integers(-(1 << (esize - 1)), 1 << (esize - 1), s), share)
    elif kind == "shift":
        low = _pick(rng, (sets, lanes), SHIFTS, lambda s: rng.integers(-70, 71, s), share)
        high = rng.integers(0, 1 << max(esize - 8, 0), (sets, lanes)) \
            * (rng.random((sets, lanes)) < 0.5)
        values = (low & 0xFF) | (high << 8) if esize > 8 else low
    elif kind[0] == "offset":
        _, limit, align = kind
        values = rng.integers(0, (limit - align) // align + 1, (sets, lanes)) * align
    else:
        raise ValueError(f"unknown lane kind {kind!r}")
    unsigned = np.asarray(values, np.int64) & ((1 << esize) - 1)
    words = np.zeros((sets, 4), np.uint64)
    per_word = 32 // esize
    for lane in range(lanes):
        words[:, lane // per_word] |= unsigned[:, lane].astype(np.uint64) << np.uint64(
            (lane % per_word) * esize)
    return words.astype(np.uint32)


def _register(rng, sets, kind):
    share = _edge_shares(rng, sets)
    if kind == "word":
        values = _pick(rng, sets, EDGES[32] + EDGES[16] + EDGES[8],
                       lambda s: rng.integers(-(1 << 31), 1 << 31, s), share)
    elif kind == "shift":
        low = _pick(rng, sets, SHIFTS, lambda s: rng.integers(-70, 71, s), share)
        values = (low & 0xFF) | (rng.integers(0, 1 << 24, sets) << 8) * (rng.random(sets) < 0.5)
    elif kind[0] == "offset":
        _, limit, align = kind
        values = rng.integers(0, limit // align + 1, sets) * align
    elif kind[0] == "count":
        low = kind[2] if len(kind) > 2 else 0
        values = rng.integers(low, kind[1] + 1, sets)
        if low == 0 and kind[1] > 32:                      # VCTP: any register value
            values = _pick(rng, sets, ELEMENT_COUNTS, lambda s: values, share)
    else:
        raise ValueError(f"unknown register kind {kind!r}")
    return (np.asarray(values, np.int64) & 0xFFFFFFFF).astype(np.uint32)


def _predicates(rng, sets, esize):
    """All, none, whole random elements, a prefix of elements, or any 16 bits."""
    step = esize // 8
    whole = np.zeros(sets, np.int64)
    for e in range(16 // step):
        whole |= (rng.random(sets) < 0.5).astype(np.int64) * (((1 << step) - 1) << (e * step))
    prefix = (1 << (rng.integers(0, 16 // step + 1, sets) * step)) - 1
    ragged = rng.integers(0, 1 << 16, sets)
    kind = rng.integers(0, 12, sets)
    values = np.select([kind < 2, kind < 3, kind < 6, kind < 8], [0xFFFF, 0, whole, prefix],
                       ragged)
    return values.astype(np.uint32)


def draw(case):
    """{field: values} for every input field of `case` (its own seed)."""
    rng = np.random.default_rng(seed_of(case.name))
    sets = case.sets
    out = {}
    for name, spec in case.inputs.items():
        if name == "mem":
            out[name] = _pick(rng, (sets, 32), MEM_EDGES,
                              lambda s: rng.integers(0, 256, s), 0.4).astype(np.uint8)
        elif name == "qc":
            out[name] = (rng.random(sets) < 0.3).astype(np.uint8)
        elif name == "flags":
            out[name] = rng.integers(0, 32, sets).astype(np.uint8)
        elif spec[0] == "lanes":
            out[name] = _lanes(rng, sets, spec[1], spec[2])
        elif spec[0] == "reg":
            out[name] = _register(rng, sets, spec[1])
        elif spec[0] == "p0":
            out[name] = _predicates(rng, sets, spec[1])
        else:
            raise ValueError(f"{case.name}: unknown input {name}={spec!r}")
    return out
