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

GetFlatIndex and MirrorPad<int8_t> are transcribed from gcc's disassembly: mirror_pad.cc's
three functions (retyped with stub TfLiteEvalTensor / TfLiteIntArray structs of TFLM's
layout, not committed) compiled with arm-none-eabi-g++ 12.2 -O2 -mcpu=cortex-m4 -mthumb
-DNDEBUG.  GetFlatIndex stays out of line, GetInputDimension is inlined; gcc drops the
unused right_pad load and reads only the low word of an int64 left_pad.  Loads of
TFLM's structs (padding_matrix->type / ->data, input_dims->data[i]) are counted as
stack-slot loads (no data region); the padding values and the scratch buffers are real
loads.  MirrorPadEval's scratch set-up before the call is an estimate from the C (not
compiled).  No measurement exists: nothing is fitted.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cmp, it, ldr, ldr_sp, ldrsb, mla, mls, mov, mul,
                            pop_pc, push, rsb, sdiv, str_, str_sp, strb, strd_sp, sub)

NAME = "tflite::MirrorPad<int8_t>"


@kernel(inline=True)
def _get_flat_index(m, index, rank, pads, pad_bytes, out_num, in_num, in_dims, offset):
    """GetFlatIndex(index, ...) as compiled: its prologue, one pass of the dims loop per
    dim (the padding switch, SDIV, GetInputDimension's three cases, MLS, MLA)."""
    push(m, 9)                                         # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 20)                                      # sub sp, #20
    cmp(m, rank, 0)
    ldr_sp(m)                                          # ldr.w r9, [sp, #64]  offset
    str_sp(m)                                          # str r1, [sp, #4]     num_dims
    bcc(m, rank <= 0)                                  # ble
    add(m, 0, 4)                                       # adds r3, #4  (input_dims->data)
    str_sp(m)
    ldr_sp(m)                                          # input_dims_num_elements
    ldr_sp(m)                                          # ldrb.w r8, [r2, #8]  padding type
    sub(m, in_num, 4)
    ldr_sp(m)                                          # output_dims_num_elements
    mov(m, 0)                                          # left_pad = 0
    offset_plus_1 = add(m, offset, 1)
    mov(m, index)
    sub(m, out_num, 4)
    flat = mov(m, 0)
    mov(m, 0)
    str_sp(m)                                          # str r1, [sp, #12]  offset + 1
    b(m)
    for k in range(rank):
        cmp(m, pad_bytes, 4)                           # cmp.w r8, #2  (kTfLiteInt32)
        bcc(m, pad_bytes == 4)                         # beq
        if pad_bytes == 4:
            ldr_sp(m)                                  # ldr r1, [r2]  padding_matrix->data
            left_pad = ldr(m, pads + 8 * k)            # ldr.w r4, [r1, r3, lsl #3]
            b(m)
        else:
            cmp(m, pad_bytes, 8)                       # cmp.w r8, #4  (kTfLiteInt64)
            mov(m, k << 4)
            bcc(m, pad_bytes != 8)                     # bne
            ldr_sp(m)                                  # ldr r1, [r2]
            left_pad = ldr(m, pads + 16 * k)           # its low word
        out_elements = ldr(m, out_num + 4 * k)         # ldr.w sl, [r6, #4]!
        dimension_index = sdiv(m, index, out_elements)
        original = add(m, offset, left_pad)            # left_pad + offset - 1
        cmp(m, dimension_index, left_pad)
        original = add(m, original, -1)
        padded = sub(m, dimension_index, left_pad)
        bcc(m, dimension_index < left_pad)             # blt
        if dimension_index < left_pad:
            limit = sub(m, original, offset)
            cmp(m, limit, dimension_index)
            it(m, 1)                                   # ite le
            in_index = sub(m, original, min(dimension_index, limit))
        else:
            ldr_sp(m)                                  # ldr.w ip, [sp, #8]
            ldr_sp(m)                                  # ldr.w ip, [ip, r3, lsl #2]
            input_dim = in_dims[k]
            cmp(m, input_dim, padded)
            bcc(m, input_dim > padded)                 # bgt: inside the input
            in_index = padded
            if input_dim <= padded:
                padded = sub(m, padded, input_dim)
                ldr_sp(m)                              # ldr.w lr, [sp, #12]  offset + 1
                original = sub(m, input_dim, offset_plus_1)
                cmp(m, padded, original)
                it(m, 1)                               # ite le
                in_index = sub(m, original, min(padded, original))
                b(m)
        index = mls(m, out_elements, dimension_index, index)   # index %= ...
        flat = mla(m, ldr(m, in_num + 4 * k), in_index, flat)  # ldr.w r1, [r7, #4]!
        ldr_sp(m)                                      # ldr r1, [sp, #4]  num_dims
        add(m, k, 1)
        cmp(m, rank, k + 1)
        bcc(m, k + 1 == rank)                          # beq: return
    add(m, 0, 20)                                      # add sp, #20
    pop_pc(m, 9)                                       # ldmia.w sp!, {r4-r11, pc}
    return flat


@kernel
def mirror_pad_s8(m, inp, out, pads, pad_bytes, out_num, in_num, rank, d0, d1, d2, d3, d4,
                  i0, i1, i2, i3, i4, offset, output_size):
    """MirrorPadEval from its scratch set-up (dims up to 5: d*, i* the output and input
    dims, unused ones 1) through MirrorPad's loop; pad_bytes 4 (int32) or 8 (int64)."""
    out_dims = (d0, d1, d2, d3, d4)
    in_dims = (i0, i1, i2, i3, i4)
    for k in range(rank):                              # num_elements[k] = 1 (estimate)
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
    bl(m)                                              # MirrorPad<int8_t> (disassembled)
    push(m, 9)                                         # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 20)                                      # sub sp, #20
    ldr_sp(m)                                          # output_size
    ldr_sp(m)                                          # offset
    ldr_sp(m)                                          # num_dims
    cmp(m, output_size, 0)
    bcc(m, output_size <= 0)                           # ble
    if output_size > 0:
        sub(m, out, 1)                                 # subs r4, r6, #1
        rsb(m, out, 1)
        for _ in range(2):
            mov(m, 0)
        ldr_sp(m)                                      # input_data
        for _ in range(4):
            mov(m, 0)
        add(m, out, output_size)
        mov(m, 0)
    for i in range(output_size):
        ldr_sp(m)                                      # ldr r3, [sp, #64]  offset
        str_sp(m)                                      # the stacked arguments
        strd_sp(m)
        index = add(m, i, 0)                           # add.w r0, fp, r4
        mov(m, 0)
        mov(m, rank)
        bl(m)
        flat = _get_flat_index(m, index, rank, pads, pad_bytes, out_num, in_num, in_dims,
                               offset)
        strb(m, out + i, ldrsb(m, inp + flat))         # ldrsb.w r3, [r8, r0]; strb.w [r4, #1]!
        cmp(m, i + 1, output_size)
        bcc(m, i + 1 < output_size)                    # bne
    add(m, 0, 20)                                      # add sp, #20
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
