"""TFLite Micro's GATHER for int8 data and int32 positions (gather.cc Gather<int8_t,
int32_t>), counted.

    for batch < batch_size, outer < outer_size, coord < coord_size:
      memcpy(output_data + (((batch * outer_size) + outer) * coord_size + coord) * inner_size,
             input_data + (((batch * outer_size) + outer) * axis_size
                           + coords_data[batch * coord_size + coord]) * inner_size,
             inner_size);

Each copy is a call of newlib's memcpy (the size is not a constant).  The index arithmetic
per copy (a coordinate load, MLAs for both offsets, the call's argument moves) and the
dim-product loops before the nest are an estimate of gcc -O2's code for the C above (not
read off a listing).  Constant positions are the model's (held in the case, loaded as
stack-slot loads); positions computed by the graph are read from their SRAM buffer.  Not
calibrated: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr, ldr_sp, mla, mov, mul, pop_pc, push,
                            sub)
from armsim.kernels.libc import memcpy


@kernel
def prologue(m, input_rank, coords_rank, negative_axis, negative_batch_dims):
    bl(m)
    push(m, 9)
    sub(m, 0, 20)
    for _ in range(5):                          # data pointers, dims, params
        ldr_sp(m)
    cmp(m, negative_axis, 0)                    # if (axis < 0) axis += input_dims_size
    it(m, 0 if negative_axis else 1)
    if negative_axis:
        add(m, 0, input_rank)
    cmp(m, negative_batch_dims, 0)
    it(m, 0 if negative_batch_dims else 1)
    if negative_batch_dims:
        add(m, 0, coords_rank)
    ldr_sp(m)                                   # axis_size
    for d in range(input_rank + coords_rank):   # batch, outer, inner, coord size products
        ldr_sp(m)
        mul(m, d, d)
        cmp(m, d, 0)
        bcc(m, True)
    return 0


@kernel
def copy_one(m, out, inp, coords_addr, coord_index, constant_coord, inner, last):
    """One memcpy of the nest with its index arithmetic; returns the coordinate used."""
    if coords_addr:
        c = ldr(m, coords_addr + 4 * coord_index)   # coords_data[batch * coord_size + coord]
    else:
        c = ldr_sp(m)
        c = constant_coord
    mla(m, 0, 0, 0)                             # ((batch * outer_size) + outer) * axis_size
    add(m, c, 0)
    mul(m, c, inner)                            # (... + coord) * inner_size
    mla(m, 0, 0, 0)                             # output offset
    mul(m, 0, inner)
    add(m, inp, 0)
    add(m, out, 0)
    mov(m, inner)
    bl(m)
    memcpy(m, out, inp, inner)
    add(m, coord_index, 1)                      # ++coord < coord_size
    cmp(m, coord_index + 1, 0)
    bcc(m, not last)
    return c


@kernel
def loop_step(m, last):
    """An outer or batch loop's increment, compare and branch, with one reload."""
    ldr_sp(m)
    add(m, 0, 1)
    cmp(m, 0, 0)
    bcc(m, not last)
    return 0


@kernel
def epilogue(m):
    mov(m, 0)
    add(m, 0, 20)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    from armsim.cpu import machine
    from armsim.errors import CaseError
    batch, outer_size, coord_size = case["batch_size"], case["outer_size"], case["coord_size"]
    axis_size, inner = case["axis_size"], case["inner_size"]
    if "coords" in case:
        coords, coords_addr = case["coords"], 0
    else:
        coords_addr = addr["inputs"][1]
        coords = [int(v) for v in machine.read(m, coords_addr, batch * coord_size, "int32")]
    bad = [c for c in coords if not 0 <= c < axis_size]
    if bad:
        raise CaseError(f"{case['case']}: position {bad[0]} outside [0, {axis_size}) "
                              f"(TFLM's Gather would read outside its input)")
    inp = addr["inputs"][0] if "inputs" in addr else addr["input"]
    run(prologue, m, case["input_rank"], case["coords_rank"], case["negative_axis"],
        case["negative_batch_dims"], tracer=tracer)
    for b in range(batch):
        for o in range(outer_size):
            for c in range(coord_size):
                k = b * coord_size + c
                dst = addr["output"] + (((b * outer_size) + o) * coord_size + c) * inner
                src = inp + (((b * outer_size) + o) * axis_size + coords[k]) * inner
                run(copy_one, m, dst, src, coords_addr, k, coords[k], inner,
                    c == coord_size - 1, tracer=tracer)
            run(loop_step, m, o == outer_size - 1, tracer=tracer)
        run(loop_step, m, b == batch - 1, tracer=tracer)
    run(epilogue, m, tracer=tracer)
    return ["Gather<int8_t, int32_t>", "memcpy"]
