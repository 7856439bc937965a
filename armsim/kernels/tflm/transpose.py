"""TFLite Micro's reference TRANSPOSE for int8 and int16 (reference_ops::Transpose<T>,
transpose.h).

    Transpose(params, input_shape, input, output_shape, output):
      if (input_shape.FlatSize() == 0) return;
      SetupTransposeStrides(input_stride, input_shape.DimsData(), dims);
      SetupTransposeStrides(output_stride, output_shape.DimsData(), dims);
      TransposeImpl(0, dims, perm, input, input_stride, output, output_stride, out_dims);

TransposeImpl recurses over the output dimensions; the innermost level copies one output
row, stepping the input pointer by input_stride[perm[dims - 1]]:

    for (int i = 0; i < dimension_size; ++i) { output_data[i] = *input_data;
                                               input_data += loop_stride; }

There is no measured reference-kernel case for TRANSPOSE: the instruction sequence is
written from the C as gcc -O2 compiles such loops (LDRSB, ADD, STRB with post-increment,
CMP, BNE per element; a BL, PUSH/POP frame and argument reloads per recursive call),
not fitted to a measurement.  batch_matmul's Eval (TransposeRowsColumns) calls the same
kernel.  Ranks up to 4 (armsim's TRANSPOSE limit, as in TFLM's CMSIS-NN build).  int16 is
the same structure with halfword accesses (LDRSH, STRH) and strides in bytes.
"""
import math

from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, ldr_sp, ldrsb, ldrsh, mov, mul, pop_pc, push,
                            str_sp, strb, strh, sub)


@kernel(inline=True)
def _copy_row(m, out, inp, size, loop_stride, elem):
    """The innermost level (depth == dims - 1); `elem` bytes per value (int8: LDRSB / STRB,
    int16: LDRSH / STRH), the strides in bytes."""
    cmp(m, size, 0)
    bcc(m, size <= 0)
    for i in range(size):
        if elem == 2:
            v = ldrsh(m, inp)                          # output_data[i] = *input_data;
        else:
            v = ldrsb(m, inp)
        inp = add(m, inp, loop_stride)                 # input_data += loop_stride;
        if elem == 2:
            strh(m, out + 2 * i, v)                    # (STRH r, [out], #2)
        else:
            strb(m, out + i, v)                        # (STRB r, [out], #1)
        cmp(m, i + 1, size)
        bcc(m, i + 1 < size)


@kernel(inline=True)
def _enter(m):
    """A recursive TransposeImpl call: BL, frame, the stacked arguments, depth test."""
    bl(m)
    push(m, 8)
    for _ in range(3):
        ldr_sp(m)
    sub(m, 0, 1)                                       # dims - 1
    cmp(m, 0, 0)                                       # depth == dims - 1
    bcc(m, True)


@kernel(inline=True)
def _leave(m):
    pop_pc(m, 8)


@kernel
def transpose_impl(m, rank, inp, out, d0, d1, d2, d3, is0, is1, is2, is3, os0, os1, os2, elem):
    """TransposeImpl from depth 0 over output dims d0..d3 (the first `rank` used); `isk` is
    input_stride[perm[k]], `osk` output_stride[k], in bytes (`elem` bytes per value)."""
    _enter(m)
    if rank == 1:
        _copy_row(m, out, inp, d0, is0, elem)
        _leave(m)
        return 0
    for a in range(d0):
        _enter(m)
        ia, oa = inp + a * is0, out + a * os0
        if rank == 2:
            _copy_row(m, oa, ia, d1, is1, elem)
        else:
            for b in range(d1):
                _enter(m)
                ib, ob = ia + b * is1, oa + b * os1
                if rank == 3:
                    _copy_row(m, ob, ib, d2, is2, elem)
                else:
                    for c in range(d2):
                        _enter(m)
                        _copy_row(m, ob + c * os2, ib + c * is2, d3, is3, elem)
                        _leave(m)
                        add(m, 0, is2)                 # input_data += input_stride[perm[depth]];
                        add(m, 0, os2)                 # output_data += output_stride[depth];
                        cmp(m, c + 1, d2)
                        bcc(m, c + 1 < d2)
                _leave(m)
                add(m, 0, is1)
                add(m, 0, os1)
                cmp(m, b + 1, d1)
                bcc(m, b + 1 < d1)
        _leave(m)
        add(m, 0, is0)
        add(m, 0, os0)
        cmp(m, a + 1, d0)
        bcc(m, a + 1 < d0)
    _leave(m)
    return 0


@kernel
def transpose_setup(m, rank):
    """Transpose's body before TransposeImpl: FlatSize() (a MUL per dim), the two stride
    set-ups (a MUL and a store per dim), the StorageType casts."""
    push(m, 8)
    sub(m, 0, 0)
    for _ in range(rank):                              # FlatSize
        ldr_sp(m)
        mul(m, 0, 0)
        cmp(m, 0, 0)
        bcc(m, True)
    cmp(m, 0, 0)                                       # if (FlatSize() == 0) return;
    bcc(m, False)
    for _ in range(2):                                 # SetupTransposeStrides x 2
        mov(m, 1)
        str_sp(m)                                      # stride[dims - 1] = 1;
        for _ in range(rank - 1):
            ldr_sp(m)
            mul(m, 0, 0)                               # stride[i] = stride[i + 1] * shape[i + 1];
            str_sp(m)
            cmp(m, 0, 0)
            bcc(m, True)
    for _ in range(4):                                 # TransposeImpl's arguments
        mov(m, 0)
    str_sp(m)
    str_sp(m)
    return 0


@kernel
def transpose_teardown(m):
    add(m, 0, 0)
    pop_pc(m, 8)
    return 0


def shapes(case):
    """(input shape, permutation) of a case in the vectors' schema."""
    k = case["transpose_params"]["num_dims"]
    d = case["input_dims"]
    shape = [d["n"], d["h"], d["w"], d["c"]][:k]
    return shape, list(case["transpose_params"]["permutations"])[:k]


def run_transpose(m, shape, perm, inp, out, tracer=None, elem=1):
    """reference_ops::Transpose of an int8 (`elem` 1) or int16 (`elem` 2: batch_matmul's
    TransposeRowsColumns of int16 operands) tensor of `shape` (rank 1..4) at `inp` to `out`."""
    rank = len(shape)
    in_stride = [1] * rank
    for i in range(rank - 2, -1, -1):
        in_stride[i] = in_stride[i + 1] * shape[i + 1]
    out_shape = [shape[p] for p in perm]
    out_stride = [1] * rank
    for i in range(rank - 2, -1, -1):
        out_stride[i] = out_stride[i + 1] * out_shape[i + 1]
    run(transpose_setup, m, rank, tracer=tracer)
    if math.prod(shape):
        d = out_shape + [1] * (4 - rank)
        is_ = [elem * in_stride[p] for p in perm] + [0] * (4 - rank)
        os_ = [elem * s for s in out_stride] + [0] * (4 - rank)
        run(transpose_impl, m, rank, inp, out, *d, *is_, *os_[:3], elem, tracer=tracer)
    run(transpose_teardown, m, tracer=tracer)
    return [f"tflite::reference_ops::Transpose<int{8 * elem}_t>"]


def run_reference(m, case, addr, tracer=None):
    shape, perm = shapes(case)
    return run_transpose(m, shape, perm, addr["input"], addr["output"], tracer)
