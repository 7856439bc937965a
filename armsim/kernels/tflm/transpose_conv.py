"""tflite::reference_integer_ops::TransposeConv, int8 (kernels/internal/reference/integer_ops/
transpose_conv.h), the kernel TFLM's reference TRANSPOSE_CONV Eval calls with the int32
scratch buffer its Prepare requests (output flat size * 4 bytes).

    memset(scratch_buffer, 0, num_elements * sizeof(int32_t));
    for batch, in_y, in_x, in_channel, filter_y, filter_x, out_channel:
        if 0 <= out_x < output_width && 0 <= out_y < output_height:
            scratch[Offset(output_shape, batch, out_y, out_x, out_channel)] +=
                (input_value + input_offset) * filter_value;
    for batch, out_y, out_x, out_channel:
        acc = scratch[...] (+ bias[out_channel]); MultiplyByQuantizedMultiplier;
        + output_offset; std::max / std::min; store int8

The loop nest and the per-MAC work (the bounds test, both loads, the scratch
read-modify-write) are the C's; the index arithmetic is taken as gcc -O2 strength-reduces
it (pointer steps per loop level) and the stack traffic of the shape dims per loop level is
estimated: there is no measured count of this kernel in ../shared, and it was not read off
a disassembly.  MultiplyByQuantizedMultiplier is the called function (`common`).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (
    add,
    bcc,
    bl,
    cbz,
    cmp,
    ldr,
    ldr_sp,
    ldrsb,
    mla,
    mov,
    mul,
    pop_pc,
    push,
    str_,
    str_sp,
    strb,
    sub,
)
from armsim.kernels.libc import memset
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::reference_integer_ops::TransposeConv"


@kernel
def TransposeConv(m, stride_width, stride_height, pad_width, pad_height, input_offset,
                  output_offset, output_activation_min, output_activation_max,
                  output_multiplier, output_shift, batches, input_height, input_width,
                  input_depth, input_data, filter_height, filter_width, filter_data, bias_data,
                  output_height, output_width, output_depth, output_data, scratch_buffer):
    push(m, 9)                                        # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #frame
    for _ in range(24):
        ldr_sp(m)                                     # params and the shapes' dims
    for _ in range(12):
        str_sp(m)
    num_elements = mul(m, mul(m, mul(m, batches, output_height), output_width), output_depth)
    mov(m, 0)
    bl(m)
    memset(m, scratch_buffer, 0, 4 * num_elements)    # memset(scratch_buffer, 0, num_elements * 4)
    filter_oc_step = mul(m, mul(m, filter_height, filter_width), input_depth)
    out_row = output_width * output_depth
    for batch in range(batches):
        for in_y in range(input_height):
            ldr_sp(m)
            out_y_origin = sub(m, mul(m, in_y, stride_height), pad_height)
            for in_x in range(input_width):
                ldr_sp(m)
                ldr_sp(m)
                out_x_origin = sub(m, mul(m, in_x, stride_width), pad_width)
                in_ptr = input_data + ((batch * input_height + in_y) * input_width + in_x) \
                    * input_depth
                add(m, in_ptr, 0)                     # Offset(input_shape, batch, in_y, in_x, 0)
                for in_channel in range(input_depth):
                    ldr_sp(m)
                    ldr_sp(m)
                    for filter_y in range(filter_height):
                        out_y = add(m, out_y_origin, filter_y)
                        ldr_sp(m)
                        for filter_x in range(filter_width):
                            out_x = add(m, out_x_origin, filter_x)
                            f_ptr = filter_data + (filter_y * filter_width + filter_x) \
                                * input_depth + in_channel
                            s_ptr = scratch_buffer + 4 * (
                                ((batch * output_height + out_y) * output_width + out_x)
                                * output_depth)
                            mla(m, out_y, out_row, out_x)  # Offset(output_shape, ...) base
                            ldr_sp(m)
                            cmp(m, output_depth, 0)
                            bcc(m, output_depth <= 0)
                            for out_channel in range(output_depth):
                                # if ((out_x >= 0) && (out_x < output_width) &&
                                #     (out_y >= 0) && (out_y < output_height))
                                inside = True
                                cmp(m, out_x, 0)
                                bcc(m, out_x < 0)
                                inside = out_x >= 0
                                if inside:
                                    cmp(m, out_x, output_width)
                                    bcc(m, out_x >= output_width)
                                    inside = out_x < output_width
                                if inside:
                                    cmp(m, out_y, 0)
                                    bcc(m, out_y < 0)
                                    inside = out_y >= 0
                                if inside:
                                    cmp(m, out_y, output_height)
                                    bcc(m, out_y >= output_height)
                                    inside = out_y < output_height
                                if inside:
                                    input_value = ldrsb(m, in_ptr + in_channel)
                                    filter_value = ldrsb(m, f_ptr + out_channel * filter_oc_step)
                                    addr = s_ptr + 4 * out_channel
                                    acc = ldr(m, addr)
                                    acc = mla(m, add(m, input_value, input_offset), filter_value,
                                              acc)
                                    str_(m, addr, acc)
                                add(m, 0, 0)                          # filter pointer step
                                add(m, out_channel, 1)
                                cmp(m, out_channel + 1, output_depth)
                                bcc(m, out_channel + 1 < output_depth)
                            cmp(m, filter_x + 1, filter_width)
                            bcc(m, filter_x + 1 < filter_width)
                        cmp(m, filter_y + 1, filter_height)
                        bcc(m, filter_y + 1 < filter_height)
                    add(m, in_channel, 1)
                    cmp(m, in_channel + 1, input_depth)
                    bcc(m, in_channel + 1 < input_depth)
                cmp(m, in_x + 1, input_width)
                bcc(m, in_x + 1 < input_width)
            cmp(m, in_y + 1, input_height)
            bcc(m, in_y + 1 < input_height)
    index = 0
    for batch in range(batches):
        for out_y in range(output_height):
            ldr_sp(m)
            for out_x in range(output_width):
                ldr_sp(m)
                ldr_sp(m)
                for out_channel in range(output_depth):
                    acc = ldr(m, scratch_buffer + 4 * index)
                    ldr_sp(m)
                    cbz(m, bias_data == 0)                    # if (bias_data)
                    if bias_data != 0:
                        acc = add(m, acc, ldr(m, bias_data + 4 * out_channel))
                    multiplier = ldr(m, output_multiplier + 4 * out_channel)
                    shift = ldr(m, output_shift + 4 * out_channel)
                    bl(m)
                    acc = MultiplyByQuantizedMultiplier(m, acc, multiplier, shift)
                    ldr_sp(m)
                    acc = add(m, acc, output_offset)          # acc += output_offset;
                    acc = max_lt(m, acc, output_activation_min)
                    acc = min_ge(m, acc, output_activation_max)
                    strb(m, output_data + index, acc)
                    index += 1
                    add(m, out_channel, 1)
                    cmp(m, out_channel + 1, output_depth)
                    bcc(m, out_channel + 1 < output_depth)
                cmp(m, out_x + 1, output_width)
                bcc(m, out_x + 1 < output_width)
            cmp(m, out_y + 1, output_height)
            bcc(m, out_y + 1 < output_height)
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)                                      # ldmia sp!, {r4-r11, pc}


def reference_buffer_size(case):
    """The int32 scratch TFLM's reference Prepare requests: output flat size * 4."""
    o = case["output_dims"]
    return o["n"] * o["h"] * o["w"] * o["c"] * 4


def run_reference(m, case, addr, tracer):
    p = case["transpose_conv_params"]
    i, f, o = case["input_dims"], case["filter_dims"], case["output_dims"]
    act = p["activation"]
    run(TransposeConv, m, p["stride"]["w"], p["stride"]["h"], p["padding"]["w"],
        p["padding"]["h"], p["input_offset"], p["output_offset"], act["min"], act["max"],
        addr["output_mult"], addr["output_shift"], i["n"], i["h"], i["w"], i["c"],
        addr["input"], f["h"], f["w"], addr["weights"], addr["bias"], o["h"], o["w"], o["c"],
        addr["output"], addr["scratch"], tracer=tracer)
    return [NAME, MBQM]
