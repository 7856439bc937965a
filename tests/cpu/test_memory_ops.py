"""Loads and stores of armsim.cpu.ops on a machine with named regions.

Little-endian values against numpy views of the same bytes, sign extension, per-region
traffic counters, the simulated HardFault outside every region, agreement with unicorn
executing the same instructions on the same bytes, and the sticky Q flag.
Every op runs both ways a kernel can run it: compiled (`fast`) and the Python body the
traced run uses (`traced`).
"""
import numpy as np
import pytest

from armsim.cpu import machine, ops
from armsim.cpu.machine import (FLASH_BASE, GE_FLAGS, Q_FLAG, SRAM_BASE, MemoryFault, build,
                            counts, fault_message, region_traffic)

import thumb
from thumb import asm

SIZE = 256
SEED = 4242
MODES = ("fast", "traced")

# name -> (numpy little-endian dtype it must agree with, bytes, results)
LOADS = {"ldr": ("<i4", 4, 1), "ldrh": ("<u2", 2, 1), "ldrsh": ("<i2", 2, 1),
         "ldrb": ("u1", 1, 1), "ldrsb": ("i1", 1, 1), "ldrd": ("<i4", 8, 2),
         "ldm2": ("<i4", 8, 2), "ldm4": ("<i4", 16, 4)}
STORES = {"str_": 4, "strh": 2, "strb": 1, "strd": 8, "stm2": 8, "stm4": 16}


def op(name, mode):
    """The op as the counted run calls it (compiled) or as the traced run does (Python)."""
    return getattr(ops, name) if mode == "fast" else ops.OPS[name].body


def machine_with(flash_bytes, sram_bytes):
    """A machine with `flash` and `sram` regions holding the given bytes at their bases."""
    layout = machine.Memory().region("flash", FLASH_BASE, 0).region("sram", SRAM_BASE, 0)
    assert layout.place("flash", flash_bytes) == FLASH_BASE
    assert layout.place("sram", sram_bytes) == SRAM_BASE
    return build(layout), layout.names


@pytest.fixture()
def data():
    rng = np.random.default_rng(SEED)
    flash = rng.integers(0, 256, SIZE, dtype=np.uint8)
    sram = rng.integers(0, 256, SIZE, dtype=np.uint8)
    sram[:8] = [0x7F, 0x80, 0xFF, 0x00, 0xFF, 0x7F, 0x00, 0x80]   # sign-extension edges
    return flash, sram


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", LOADS)
def test_loads_match_numpy_views(data, name, mode):
    """Every offset of both regions (word-aligned for LDRD/LDM, which must be aligned)."""
    dtype, nbytes, _ = LOADS[name]
    load = op(name, mode)
    m, _ = machine_with(*data)
    step = 4 if name.startswith(("ldrd", "ldm")) else 1
    for base, raw in ((FLASH_BASE, data[0]), (SRAM_BASE, data[1])):
        for offset in range(0, SIZE - nbytes + 1, step):
            want = raw[offset:offset + nbytes].view(dtype).tolist()
            got = load(m, base + offset)
            assert (list(got) if isinstance(got, tuple) else [got]) == want, \
                f"{name} at {base + offset:#x}"


@pytest.mark.parametrize("mode", MODES)
def test_sign_and_zero_extension(data, mode):
    m, _ = machine_with(*data)
    assert [op("ldrsb", mode)(m, SRAM_BASE + i) for i in range(4)] == [127, -128, -1, 0]
    assert [op("ldrb", mode)(m, SRAM_BASE + i) for i in range(4)] == [127, 128, 255, 0]
    assert op("ldrsh", mode)(m, SRAM_BASE) == -32641          # 0x807F
    assert op("ldrsh", mode)(m, SRAM_BASE + 4) == 0x7FFF
    assert op("ldrsh", mode)(m, SRAM_BASE + 6) == -32768      # 0x8000
    assert op("ldrh", mode)(m, SRAM_BASE + 6) == 0x8000
    assert op("ldr", mode)(m, SRAM_BASE + 4) == -0x7FFF8001   # 0x80007FFF
    assert op("ldr", mode)(m, SRAM_BASE) == 0x00FF807F


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", STORES)
def test_stores_write_little_endian_and_nothing_else(data, name, mode):
    nbytes = STORES[name]
    store = op(name, mode)
    rng = np.random.default_rng(SEED + nbytes)
    m, _ = machine_with(*data)
    expected = data[1].copy()
    values = [-1, 0x7FFFFFFF, -0x80000000, 0x12345678, -0x7F7F7F80, 0x8000, 0x80]
    values += rng.integers(-2**31, 2**31, 40).tolist()
    for value in values:
        offset = int(rng.integers(0, SIZE - nbytes + 1)) if nbytes < 4 else \
            int(rng.integers(0, (SIZE - nbytes) // 4 + 1)) * 4
        words = [value, ~value, value ^ 0x5A5A5A5A, -value][:max(1, nbytes // 4)]
        store(m, SRAM_BASE + offset, *words)
        if nbytes < 4:
            expected[offset:offset + nbytes] = np.array([value], "<i4").view(np.uint8)[:nbytes]
        else:
            expected[offset:offset + nbytes] = np.array(words, "<i8").astype("<i4").view(np.uint8)
        assert np.array_equal(machine.read(m, SRAM_BASE, SIZE, np.uint8), expected), \
            f"{name} of {words} at offset {offset}"
    assert np.array_equal(machine.read(m, FLASH_BASE, SIZE, np.uint8), data[0])


@pytest.mark.parametrize("mode", MODES)
def test_traffic_is_counted_per_region(data, mode):
    m, names = machine_with(*data)
    for i in range(3):
        op("ldrb", mode)(m, FLASH_BASE + i)
    op("ldm4", mode)(m, FLASH_BASE + 16)
    op("ldr", mode)(m, SRAM_BASE)
    op("ldrsh", mode)(m, SRAM_BASE + 2)
    op("ldrd", mode)(m, SRAM_BASE + 8)
    op("strd", mode)(m, SRAM_BASE + 16, 1, 2)
    op("strb", mode)(m, SRAM_BASE + 3, 7)
    op("stm2", mode)(m, SRAM_BASE + 24, 1, 2)
    assert region_traffic(m, names) == {
        "flash": {"loads": 4, "load_beats": 7, "load_bytes": 19,
                  "stores": 0, "store_beats": 0, "store_bytes": 0},
        "sram": {"loads": 3, "load_beats": 4, "load_bytes": 14,
                 "stores": 3, "store_beats": 5, "store_bytes": 17}}
    assert counts(m) == {"ldrb": 3, "ldm": 1, "ldr": 1, "ldrsh": 1, "ldrd": 1, "strd": 1,
                         "strb": 1, "stm": 1}


# (op, operands after the address, address): below, between and past the regions, and
# accesses that start inside a region but end outside it.
FAULTS = [("ldr", (), 0x0), ("ldrb", (), FLASH_BASE - 1), ("ldrsh", (), FLASH_BASE + SIZE - 1),
          ("ldrd", (), SRAM_BASE + SIZE - 4), ("ldm4", (), SRAM_BASE + SIZE - 12),
          ("ldr", (), 0x1000_0000), ("str_", (5,), SRAM_BASE + SIZE - 2),
          ("strh", (5,), SRAM_BASE - 2), ("strb", (5,), 0xE000_E000),
          ("strd", (5, 6), SRAM_BASE + SIZE - 4), ("stm2", (5, 6), SRAM_BASE + SIZE)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name,operands,address", FAULTS,
                         ids=[f"{f[0]}@{f[2]:#x}" for f in FAULTS])
def test_access_outside_every_region_faults(data, name, operands, address, mode):
    """A simulated HardFault naming the instruction and the address; memory untouched."""
    m, names = machine_with(*data)
    before = m.mem.copy()
    with pytest.raises(MemoryFault):
        op(name, mode)(m, address, *operands)
    message = fault_message(m, names)
    mnemonic = ops.OPS[name].mnemonic.upper()
    assert f"{mnemonic} accessed {address:#010x}" in message, message
    assert "flash" in message and "sram" in message
    assert np.array_equal(m.mem, before)
    assert region_traffic(m, names)["sram"]["stores"] == 0


# --- the same instructions on unicorn's Cortex-M4 -----------------------------------------
# Unicorn's data memory is at thumb.DATA_BASE, which is SRAM_BASE: the same addresses.

UNICORN_LOADS = [("ldr", "ldr.w r4, [r0]", 1), ("ldrh", "ldrh.w r4, [r0]", 1),
                 ("ldrsh", "ldrsh.w r4, [r0]", 1), ("ldrb", "ldrb.w r4, [r0]", 1),
                 ("ldrsb", "ldrsb.w r4, [r0]", 1), ("ldrd", "ldrd r4, r5, [r0]", 4),
                 ("ldm2", "ldm.w r0, {r4, r5}", 4)]
UNICORN_STORES = [("str_", "str.w r1, [r0]", 1), ("strh", "strh.w r1, [r0]", 1),
                  ("strb", "strb.w r1, [r0]", 1), ("strd", "strd r1, r2, [r0]", 4),
                  ("stm2", "stm.w r0, {r1, r2}", 4)]


@pytest.fixture(scope="module")
def cpu():
    return thumb.Thumb()


def _rows(rng, n, nbytes, align):
    """Operand sets: r0 an address inside the data (aligned to `align`), r1/r2 values."""
    rows = np.zeros((n, thumb.IN_WORDS), np.uint32)
    rows[:, 0] = SRAM_BASE + rng.integers(0, (SIZE - nbytes) // align + 1, n) * align
    rows[:, 1:3] = rng.integers(0, 1 << 32, (n, 2), dtype=np.uint64)
    return rows


def test_unicorn_data_is_sram():
    assert thumb.DATA_BASE == SRAM_BASE and thumb.DATA_SIZE >= SIZE


@pytest.mark.parametrize("name,text,align", UNICORN_LOADS, ids=[u[0] for u in UNICORN_LOADS])
def test_loads_match_unicorn(cpu, data, name, text, align):
    m, _ = machine_with(*data)
    rng = np.random.default_rng(SEED)
    rows = _rows(rng, 300, LOADS[name][1], align)
    got = cpu.run(asm(text), rows, data=data[1].tobytes())
    for row, (r4, r5, _) in zip(rows, got):
        result = ops.OPS[name].body(m, int(row[0]))
        want = result if isinstance(result, tuple) else (result,)
        have = (int(r4), int(r5))[:len(want)]
        assert tuple(v & 0xFFFFFFFF for v in want) == have, f"{text} at {int(row[0]):#x}"


@pytest.mark.parametrize("name,text,align", UNICORN_STORES, ids=[u[0] for u in UNICORN_STORES])
def test_stores_match_unicorn(cpu, data, name, text, align):
    m, _ = machine_with(*data)
    rng = np.random.default_rng(SEED + 1)
    nbytes = STORES[name]
    rows = _rows(rng, 300, nbytes, align)
    cpu.run(asm(text), rows, data=data[1].tobytes())
    store = ops.OPS[name].body
    for row in rows:
        values = [int(v) - (1 << 32) * (int(v) >> 31) for v in row[1:3]]
        store(m, int(row[0]), *values[:max(1, nbytes // 4)])
    assert cpu.read_data(SIZE) == machine.read(m, SRAM_BASE, SIZE, np.uint8).tobytes()


# --- flags across instructions ------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_q_is_sticky_and_ge_is_overwritten(data, mode):
    """Q is only ever set by an instruction (cleared by MSR, which kernels never execute);
    GE is replaced by every GE-setting instruction and read by SEL."""
    m, _ = machine_with(*data)
    qadd, ssat, smlad = op("qadd", mode), op("ssat", mode), op("smlad", mode)
    assert qadd(m, 1, 2) == 3 and m.st[Q_FLAG] == 0
    assert qadd(m, 0x7FFFFFFF, 1) == 0x7FFFFFFF and m.st[Q_FLAG] == 1
    assert qadd(m, 1, 2) == 3 and m.st[Q_FLAG] == 1
    assert ssat(m, 5, 8, 0) == 5 and m.st[Q_FLAG] == 1
    assert smlad(m, 0x10001, 0x10001, 0) == 2 and m.st[Q_FLAG] == 1
    machine.reset_counters(m)
    assert m.st[Q_FLAG] == 0
    assert op("usat_asr", mode)(m, 0x100, 8, 1) == 0x80 and m.st[Q_FLAG] == 0
    assert op("usat_asr", mode)(m, -0x100, 8, 1) == 0 and m.st[Q_FLAG] == 1
    machine.reset_counters(m)
    assert ssat(m, 300, 8, 0) == 127 and m.st[Q_FLAG] == 1
    assert op("sadd16", mode)(m, 1, 0) == 1 and m.st[Q_FLAG] == 1   # GE ops keep Q

    op("sadd16", mode)(m, -0x7FFFFFFB, 0x00010001)     # 0x8000+1 < 0 (hi), 5+1 >= 0 (lo)
    assert m.st[GE_FLAGS] == 0b0011
    assert op("sel", mode)(m, 0x11223344, 0x55667788) == 0x55663344
    op("usub8", mode)(m, 0x01000100, 0x00010001)       # borrow in lanes 0 and 2
    assert m.st[GE_FLAGS] == 0b1010
    assert op("sel", mode)(m, 0x11223344, 0x55667788) == 0x11663388
    op("qadd16", mode)(m, 0x7FFF7FFF, 0x00010001)      # saturating SIMD: GE untouched
    assert m.st[GE_FLAGS] == 0b1010
