"""TFLite Micro's reference CONCATENATION for int8 (reference_ops::Concatenation).

Prepare requires every int8 input to share the output's scale and zero point, so the
kernel is pure data movement:

    for (int k = 0; k < outer_size; k++)
      for (int i = 0; i < inputs_count; ++i) {
        const int copy_size = input_shapes[i]->Dims(axis) * base_inner_size;
        memcpy(output_ptr, input_data[i] + k * copy_size, copy_size * sizeof(Scalar));
        output_ptr += copy_size;
      }
"""
from armsim.kernel import run
from armsim.ops import add, bcc, bl, cmp, ldr_sp, mla, pop_pc, push

from kernels import libc


def run_reference(m, case, addr, tracer=None):
    sizes = case["copy_sizes"]
    srcs = addr["inputs"]
    bl(m)
    push(m, 8)
    out = addr["output"]
    for k in range(case["outer"]):
        for i, size in enumerate(sizes):
            ldr_sp(m)                                   # input_data[i] (array on the stack)
            src = mla(m, k, size, srcs[i])              # input_data[i] + k * copy_size
            bl(m)
            run(libc.memcpy, m, out, src, size, tracer=tracer)
            out = add(m, out, size)                     # output_ptr += copy_size
            cmp(m, i + 1, len(sizes))
            bcc(m, i + 1 < len(sizes))
        cmp(m, k + 1, case["outer"])
        bcc(m, k + 1 < case["outer"])
    pop_pc(m, 8)
    return ["Concatenation<int8_t>", "memcpy"]
