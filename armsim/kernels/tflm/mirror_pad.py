"""TFLite Micro's MIRROR_PAD for int8 (mirror_pad.cc MirrorPadEval + MirrorPad<int8_t>),
counted.  Eval fills its two scratch buffers with the row-major element counts of the
output and input dims, then every output element is copied from the input element
GetFlatIndex finds:

    for i < output_size:
      index = i; flat_index = 0
      for each dim d:
        left_pad, right_pad = padding[d]               (int32 or int64, read every time)
        dimension_index = index / output_dims_num_elements[d]
        flat_index += GetInputDimension(dimension_index, left_pad, right_pad,
                                        input_dims[d], offset) * input_dims_num_elements[d]
        index %= output_dims_num_elements[d]
      output[i] = input[flat_index]

offset is 1 for REFLECT, 0 for SYMMETRIC.  GetInputDimension mirrors an index left of the
input (original_ind = left_pad + offset - 1; original_ind - min(d, original_ind - offset))
or right of it (original_ind = input_dim - (1 + offset); original_ind - min(d, original_ind)).

Counts are estimates (no measurement, not compiled): written from the C as gcc -O2
compiles it (GetFlatIndex called out of line per element, GetInputDimension inlined, the
division and remainder as SDIV + MLS, TfLiteIntArray and tensor fields as struct loads
counted like stack-slot loads); the padding values and the scratch buffers are real loads.
Not fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cmp, it, ldr, ldr_sp, ldrd, ldrsb, mla, mls, mov,
                            mul, pop_pc, push, sdiv, str_, strb, sub)

NAME = "tflite::MirrorPad<int8_t>"


@kernel(inline=True)
def _input_dimension(m, padded, left_pad, input_dim, offset):
    """GetInputDimension, inlined."""
    cmp(m, padded, left_pad)
    bcc(m, padded < left_pad)
    if padded < left_pad:
        original = add(m, left_pad, offset - 1)
        limit = sub(m, original, offset)
        cmp(m, padded, limit)
        it(m, padded > limit)
        low = padded
        if padded > limit:
            low = mov(m, limit)
        return sub(m, original, low)
    padded = sub(m, padded, left_pad)
    cmp(m, padded, input_dim)
    bcc(m, padded >= input_dim)
    if padded >= input_dim:
        padded = sub(m, padded, input_dim)
        original = sub(m, input_dim, 1 + offset)
        cmp(m, padded, original)
        it(m, padded > original)
        low = padded
        if padded > original:
            low = mov(m, original)
        return sub(m, original, low)
    return padded


@kernel
def mirror_pad_s8(m, inp, out, pads, pad_bytes, out_num, in_num, rank, d0, d1, d2, d3, d4,
                  i0, i1, i2, i3, i4, offset, output_size):
    """MirrorPadEval from its scratch set-up (dims up to 5: d*, i* the output and input
    dims, unused ones 1) through MirrorPad's loop; pad_bytes 4 (int32) or 8 (int64)."""
    out_dims = (d0, d1, d2, d3, d4)
    in_dims = (i0, i1, i2, i3, i4)
    for k in range(rank):                              # num_elements[k] = 1
        str_(m, out_num + 4 * k, mov(m, 1))
        str_(m, in_num + 4 * k, 1)
        add(m, k, 1)
        cmp(m, k + 1, rank)
        bcc(m, k + 1 < rank)
    for k in range(rank - 2, -1, -1):                  # the products from the innermost dim
        ldr_sp(m)                                      # output_tensor->dims->data[k + 1]
        str_(m, out_num + 4 * k, mul(m, ldr(m, out_num + 4 * k + 4), out_dims[k + 1]))
        ldr_sp(m)                                      # input_tensor->dims->data[k + 1]
        str_(m, in_num + 4 * k, mul(m, ldr(m, in_num + 4 * k + 4), in_dims[k + 1]))
        sub(m, k, 1)
        cmp(m, k, 0)
        bcc(m, k > 0)
    ldr_sp(m)                                          # output_tensor->type
    cmp(m, 9, 9)                                       # kTfLiteInt8
    bcc(m, True)
    bl(m)
    push(m, 9)                                         # MirrorPad<int8_t>
    for i in range(output_size):
        bl(m)
        push(m, 9)                                     # GetFlatIndex(i, ...)
        index = mov(m, i)
        flat = mov(m, 0)
        for k in range(rank):
            ldr_sp(m)                                  # padding_matrix->type
            cmp(m, pad_bytes, 4)
            bcc(m, pad_bytes == 4)
            ldr_sp(m)                                  # padding_matrix->data
            if pad_bytes == 4:
                left_pad = ldr(m, pads + 8 * k)        # GetPadding: data[2k], data[2k + 1]
                ldr(m, pads + 8 * k + 4)
            else:
                cmp(m, pad_bytes, 8)
                bcc(m, pad_bytes == 8)
                left_pad, _ = ldrd(m, pads + 16 * k)
                ldrd(m, pads + 16 * k + 8)
            out_elements = ldr(m, out_num + 4 * k)
            dimension_index = sdiv(m, index, out_elements)
            ldr_sp(m)                                  # input_dims->data[k]
            in_index = _input_dimension(m, dimension_index, left_pad, in_dims[k], offset)
            flat = mla(m, in_index, ldr(m, in_num + 4 * k), flat)
            index = mls(m, dimension_index, out_elements, index)   # index %= ...
            add(m, k, 1)
            cmp(m, k + 1, rank)
            bcc(m, k + 1 < rank)
        pop_pc(m, 9)
        strb(m, out + i, ldrsb(m, inp + flat))         # output_data[i] = input_data[...]
        add(m, i, 1)
        cmp(m, i + 1, output_size)
        bcc(m, i + 1 < output_size)
    pop_pc(m, 9)
    return 0


def run_reference(m, case, addr, tracer=None):
    (inp, pads), (out_num, in_num) = addr["inputs"], addr["scratch"]
    rank = len(case["input_shape"])
    in_dims = list(case["input_shape"]) + [1] * (5 - rank)
    out_dims = list(case["output_shape"]) + [1] * (5 - rank)
    run(mirror_pad_s8, m, inp, addr["output"], pads, case["padding_bytes"], out_num, in_num,
        rank, *out_dims, *in_dims, case["offset"], case["output_size"], tracer=tracer)
    return [NAME, "tflite::GetFlatIndex"]
