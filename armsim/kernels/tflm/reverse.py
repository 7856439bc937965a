"""TFLite Micro's int8 REVERSE_V2 kernel (reference_ops::Reverse<uint8_t>,
kernels/internal/reference/reverse.h; int8 runs the uint8_t instance), counted.

    if (is_upper && is_lower) std::reverse_copy(input, input + FlatSize, output);
    else: upper_size = prod(dims[< min_dim]), lower_size = prod(dims[> max_dim]),
          middle_size = prod(dims[min_dim..max_dim]);
          lower_size > 1: for i, j: memcpy(output + (i * middle + middle - j - 1) * lower,
                                           input + (i * middle + j) * lower, lower)
          else:           for i: std::reverse_copy(the i-th row of middle_size elements)

The sequence is arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4's code for reverse.cc with
TFLM's kernel flags (tools/measure/builds.py, `ref_O2`), read off its disassembly, every
path the sorted, contiguous axes can take (a max_dim below min_dim cannot happen).  The
shape's dims live in the RuntimeShape on the caller's stack (stack-slot loads); the copies
call newlib's memcpy (kernels/libc.py).  Not measured: no tools/measure harness yet.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, ldr_sp, ldrb, mla, mov, mul, pop_pc, push,
                            str_sp, strb, sub)
from armsim.kernels.libc import memcpy


@kernel(inline=True)
def _dim(d0, d1, d2, d3, d4, d5, i):
    return d0 if i == 0 else d1 if i == 1 else d2 if i == 2 else d3 if i == 3 else \
        d4 if i == 4 else d5


@kernel(inline=True)
def _product(m, d0, d1, d2, d3, d4, d5, lo, hi):
    """prod(dims[lo:hi]): LDR (pre-indexed), ADDS, CMP, MUL, and the loop's branch per dim."""
    p = 1
    for i in range(lo, hi):
        ldr_sp(m)                                 # ldr.w r4, [r0, #4]!
        add(m, i, 1)
        cmp(m, i + 1, hi)
        p = mul(m, p, _dim(d0, d1, d2, d3, d4, d5, i))
        bcc(m, i + 1 < hi)
    return p


@kernel(inline=True)
def _reverse_copy(m, src, dst, n):
    """std::reverse_copy's byte loop: LDRB (pre-decrement), STRB (post-increment), CMP, BNE."""
    for k in range(n):
        strb(m, dst + k, ldrb(m, src + n - 1 - k))
        cmp(m, k + 1, n)
        bcc(m, k + 1 < n)


@kernel
def reverse_u8(m, inp, out, rank, d0, d1, d2, d3, d4, d5, min_dim, max_dim):
    push(m, 9)                                    # stmdb sp!, {r4-r11, lr}
    sub(m, 2, 1)                                  # subs r1, #1 (num_axes - 1)
    ldr_sp(m)                                     # ldr.w lr, [r2] (rank)
    ldr_sp(m)                                     # ldr.w ip, [r0, r1, lsl #2] (axes[n - 1])
    ldr_sp(m)                                     # ldr r6, [r0] (axes[0])
    sub(m, 0, 12)                                 # sub sp, #12
    add(m, rank, -1)
    cmp(m, max_dim, rank - 1)
    ldr_sp(m)                                     # ldr r5, [sp, #48] (output_data)
    bcc(m, max_dim == rank - 1)                   # beq: is_upper
    if max_dim == rank - 1:
        cmp(m, min_dim, 0)
        bcc(m, min_dim != 0)                      # bne: not is_lower
        if min_dim == 0:                          # both: one reverse_copy of FlatSize bytes
            cmp(m, rank, 0)
            bcc(m, rank <= 0)
            add(m, 0, rank)
            mov(m, 1)
            size = 1
            for i in range(rank):                 # FlatSize: the pointer is the counter
                ldr_sp(m)                         # ldr.w r0, [r2, #4]!
                cmp(m, i + 1, rank)
                size = mul(m, size, _dim(d0, d1, d2, d3, d4, d5, i))
                bcc(m, i + 1 < rank)
            add(m, inp, size)
            cmp(m, inp + size, inp)
            bcc(m, size == 0)                     # beq: nothing to copy
            if size != 0:
                add(m, out, size)
                _reverse_copy(m, inp, out, size)
            add(m, 0, 12)
            pop_pc(m, 9)                          # ldmia.w sp!, {r4-r11, pc}
            return 0
    cmp(m, min_dim, 0)
    bcc(m, min_dim <= 0)                          # ble.w: upper_size is 1
    if min_dim > 0:
        mov(m, 0)
        mov(m, 0)
        mov(m, 1)
        upper = _product(m, d0, d1, d2, d3, d4, d5, 0, min_dim)
        add(m, max_dim, 1)
        cmp(m, max_dim + 1, rank)
        bcc(m, max_dim + 1 >= rank)               # bge: lower_size is 1
    else:
        upper = 1
        add(m, max_dim, 1)
        cmp(m, rank, max_dim + 1)
        bcc(m, rank <= max_dim + 1)               # ble: not taken (both ends were above)
        mov(m, 1)
        b(m)                                      # b.n to the lower_size loop
    if max_dim + 1 < rank:
        add(m, max_dim, 1 << 30)
        add(m, 0, 1)
        add(m, 0, 0)
        mov(m, 1)
        lower = _product(m, d0, d1, d2, d3, d4, d5, max_dim + 1, rank)
        cmp(m, max_dim, min_dim)
        bcc(m, max_dim < min_dim)                 # blt: never
    else:
        lower = 1
        cmp(m, max_dim, min_dim)
        bcc(m, max_dim < min_dim)                 # blt: never
        mov(m, 1)
        b(m)                                      # b.n to the middle_size loop
    add(m, 0, min_dim)                            # add.w r2, r2, r6, lsl #2
    mov(m, 1)
    middle = 1
    for i in range(min_dim, max_dim + 1):         # the middle loop ends on BGE
        ldr_sp(m)
        add(m, i, 1)
        cmp(m, max_dim, i + 1)
        middle = mul(m, middle, _dim(d0, d1, d2, d3, d4, d5, i))
        bcc(m, max_dim >= i + 1)
    cmp(m, lower, 1)
    bcc(m, lower <= 1)                            # ble: the reverse_copy rows
    if lower > 1:
        cmp(m, upper, 0)
        bcc(m, upper <= 0)
        if upper > 0:
            add(m, middle, -1)
            row = mul(m, lower, middle)
            str_sp(m)                             # str.w r8, [sp, #4] (upper_size)
            mov(m, inp)
            mla(m, lower, middle - 1, out)
            mov(m, 0)
            mov(m, row)
            for i in range(upper):
                cmp(m, middle, 0)
                bcc(m, middle <= 0)
                if middle > 0:
                    mov(m, inp)
                    mov(m, out)
                    mov(m, 0)
                for j in range(middle):
                    mov(m, 0)
                    mov(m, 0)
                    mov(m, lower)
                    bl(m)
                    memcpy(m, out + (i * middle + middle - j - 1) * lower,
                           inp + (i * middle + j) * lower, lower)
                    add(m, j, 1)
                    cmp(m, j + 1, middle)
                    sub(m, 0, lower)
                    add(m, 0, lower)
                    bcc(m, j + 1 != middle)
                ldr_sp(m)                         # ldr r3, [sp, #4]
                add(m, i, 1)
                cmp(m, i + 1, upper)
                add(m, 0, row)
                add(m, 0, row)
                bcc(m, i + 1 != upper)
    else:
        cmp(m, upper, 0)
        bcc(m, upper <= 0)
        if upper > 0:
            mov(m, out)
            add(m, inp, middle)
            mov(m, 0)
            for i in range(upper):
                cmp(m, middle, 0)
                mov(m, 0)
                mov(m, 0)
                bcc(m, middle == 0)               # beq: an empty row
                _reverse_copy(m, inp + i * middle, out + i * middle, middle)
                add(m, i, 1)
                cmp(m, upper, i + 1)
                add(m, 0, middle)
                add(m, 0, middle)
                add(m, 0, middle)
                bcc(m, i + 1 != upper)
    add(m, 0, 12)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    dims = list(case["shape"]) + [0] * (6 - len(case["shape"]))
    run(reverse_u8, m, addr["input"], addr["output"], len(case["shape"]), *dims,
        case["axes"][0], case["axes"][-1], tracer=tracer)
    return ["ReverseV2Eval", "reference_ops::Reverse<uint8_t>"]
