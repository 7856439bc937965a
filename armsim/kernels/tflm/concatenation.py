"""TFLite Micro's reference CONCATENATION for int8 and int16 (reference_ops::Concatenation
<Scalar>, one template: the memcpy length is copy_size * sizeof(Scalar)).

Prepare requires every int8 input to share the output's scale and zero point (int16: zero
point 0), so the kernel is pure data movement:

    for (int k = 0; k < outer_size; k++)
      for (int i = 0; i < inputs_count; ++i) {
        const int copy_size = input_shapes[i]->Dims(axis) * base_inner_size;
        memcpy(output_ptr, input_data[i] + k * copy_size, copy_size * sizeof(Scalar));
        output_ptr += copy_size;
      }

int16 is the int8 port's structure with the byte counts doubled (the memcpy copies
2 * copy_size bytes); the one LSL gcc adds for sizeof(int16_t) is not counted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import add, bcc, bl, cmp, ldr_sp, mla, pop_pc, push

from armsim.kernels.libc import memcpy


@kernel
def frame(m, enter):
    """Concatenation's call, prologue (enter) or epilogue."""
    if enter:
        bl(m)
        push(m, 8)
    else:
        pop_pc(m, 8)
    return 0


@kernel
def copy_slice(m, out, base, k, size, last_input, last_outer):
    """One memcpy of the inner loop, with its loop bookkeeping; returns output_ptr."""
    ldr_sp(m)                                   # input_data[i] (array on the stack)
    src = mla(m, k, size, base)                 # input_data[i] + k * copy_size
    bl(m)
    memcpy(m, out, src, size)              # memcpy(output_ptr, ..., copy_size)
    out = add(m, out, size)                     # output_ptr += copy_size
    cmp(m, 0, 0)                                # ++i < inputs_count
    bcc(m, not last_input)
    if last_input:
        cmp(m, 0, 0)                            # ++k < outer_size
        bcc(m, not last_outer)
    return out


def run_reference(m, case, addr, tracer=None):
    elem = case["elem"]                          # sizeof(Scalar)
    sizes = [elem * n for n in case["copy_sizes"]]
    srcs = addr["inputs"]
    run(frame, m, True, tracer=tracer)
    out = addr["output"]
    outer = case["outer"]
    for k in range(outer):
        for i, size in enumerate(sizes):
            out = run(copy_slice, m, out, srcs[i], k, size, i == len(sizes) - 1,
                      k == outer - 1, tracer=tracer)
    run(frame, m, False, tracer=tracer)
    return [f"Concatenation<int{8 * elem}_t>", "memcpy"]
