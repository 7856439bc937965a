"""tflite::reference_integer_ops::ConvPerChannel (kernels/internal/reference/integer_ops/conv.h)
as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG compiles it (out of line: TFLM's conv
Eval calls it from two sites), calling tflite::MultiplyByQuantizedMultiplier per output.

The loop nest is the C one; the instructions of each basic block are issued in the order of
the compiled code.  The shapes and ConvParams live in the caller's frame: their loads, and
the compiler's spills, are stack-slot ops (ldr_sp/str_sp/...).  The tap loop tests the
bounds as gcc does (``(in_x | in_y) < 0`` with one ORRS, then in_x < width, in_y < height,
filter_input_depth > 0); the in-channel loop is six instructions per MAC
(LDRSB, LDRSB, CMP, ADD, MLA, BNE), the 64-bit bookkeeping of Offset() is hoisted as MLAs
per tap.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cbz, cmp, it, ldr, ldr_sp, ldrd_sp, ldrsb, ldrsh_sp,
                        mla, mov, mul, orr, pop_pc, push, rsb, sdiv, str_sp, strb, strd_sp, sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::reference_integer_ops::ConvPerChannel"


@kernel
def ConvPerChannel(m, input_offset, stride_width, stride_height, dilation_width_factor,
                   dilation_height_factor, pad_width, pad_height, output_offset,
                   output_activation_min, output_activation_max, output_multiplier,
                   output_shift, batches, input_height, input_width, input_depth, input_data,
                   output_depth, filter_height, filter_width, filter_input_depth,
                   filter_data, bias_data, output_height, output_width, output_data):
    # --- prologue: params and shape dims into registers and spill slots ----------------
    push(m, 9)                                   # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 156)                               # sub sp, #156
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)                                    # input_offset
    ldr_sp(m)
    ldrsh_sp(m)
    ldrsh_sp(m)
    ldrsh_sp(m)
    mov(m, 0)
    ldr_sp(m)
    cmp(m, batches, batches)                     # MatchingDim(input, 0, output, 0)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, batches)
    mov(m, batches)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    cmp(m, output_depth, output_depth)           # MatchingDim(filter, 0, output, 3)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, output_depth)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, filter_input_depth)
    ldr_sp(m)
    groups = sdiv(m, input_depth, filter_input_depth)       # input_depth / filter_input_depth
    filters_per_group = sdiv(m, output_depth, groups)       # output_depth / groups
    str_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, batches)
    ldr_sp(m)
    cmp(m, batches, 0)
    ldr_sp(m)
    bcc(m, batches <= 0)
    if batches > 0:
        ldr_sp(m)
        mov(m, 0)
        ldr_sp(m)                                # output_height
        cmp(m, output_height, 0)
        bcc(m, output_height <= 0)
    if batches > 0 and output_height <= 0:       # nothing to compute: count the batch loop
        batch = 0
        while True:
            ldr_sp(m)
            batch = add(m, batch, 1)
            cmp(m, batch, batches)
            bcc(m, batch != batches)
            if batch == batches:
                break
            ldr_sp(m)
            cmp(m, output_height, 0)
            bcc(m, True)
        b(m)
    elif batches > 0:
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)
        str_sp(m)
        add(m, filter_data, filter_input_depth)
        str_sp(m)
        mov(m, 0)
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        str_sp(m)
        batch = 0
        while True:                              # for (batch = 0; batch < batches; ++batch)
            cmp(m, output_width, 0)
            bcc(m, output_width <= 0)
            if output_width > 0:
                in_y_origin = rsb(m, pad_height, 0)        # out_y * stride_height - pad_height
                str_sp(m)
                rsb(m, pad_width, 0)
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                str_sp(m)
                out_y = mov(m, 0)
                mov(m, 0)
                mov(m, 0)
                while True:                      # for (out_y = 0; out_y < output_height; ++out_y)
                    ldr_sp(m)
                    str_sp(m)
                    cmp(m, output_depth, 0)
                    bcc(m, output_depth <= 0)
                    if output_depth > 0:
                        out_x = mov(m, 0)
                        str_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        sub(m, output_multiplier, 4)
                        ldr_sp(m)
                        str_sp(m)
                        sub(m, output_shift, 4)
                        str_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        in_x_origin = 0 - pad_width
                        while True:              # for (out_x = 0; out_x < output_width; ++out_x)
                            ldr_sp(m)
                            str_sp(m)
                            strd_sp(m)
                            out_channel = mov(m, 0)
                            ldr_sp(m)
                            str_sp(m)
                            str_sp(m)
                            str_sp(m)
                            str_sp(m)
                            str_sp(m)
                            str_sp(m)
                            mult_ptr = output_multiplier - 4
                            shift_ptr = output_shift - 4
                            while True:          # for (out_channel ...)
                                ldr_sp(m)
                                ldr_sp(m)
                                group = sdiv(m, out_channel, filters_per_group)
                                ldr_sp(m)
                                cmp(m, filter_height, 0)
                                bcc(m, filter_height <= 0)
                                acc = 0
                                if filter_height > 0:
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    str_sp(m)
                                    group_base = mul(m, filter_input_depth, group)   # group * filter_input_depth
                                    acc = mov(m, 0)
                                    str_sp(m)
                                    filter_y = 0
                                    in_y = in_y_origin
                                    while True:  # for (filter_y ...)
                                        cmp(m, filter_width, 0)
                                        bcc(m, filter_width <= 0)
                                        if filter_width > 0:
                                            ldr_sp(m)
                                            filter_x = mov(m, 0)
                                            in_x = in_x_origin
                                            b(m)
                                            while True:      # for (filter_x ...)
                                                neg = orr(m, in_y, in_x)
                                                inside = neg >= 0
                                                bcc(m, not inside)       # bmi
                                                if inside:
                                                    ldr_sp(m)
                                                    cmp(m, input_width, in_x)
                                                    inside = in_x < input_width
                                                    bcc(m, not inside)
                                                if inside:
                                                    ldr_sp(m)
                                                    cmp(m, input_height, in_y)
                                                    inside = in_y < input_height
                                                    bcc(m, not inside)
                                                if inside:
                                                    ldr_sp(m)
                                                    cmp(m, filter_input_depth, 0)
                                                    inside = filter_input_depth > 0
                                                    bcc(m, not inside)
                                                if inside:
                                                    ldr_sp(m)
                                                    ldr_sp(m)
                                                    ldrd_sp(m)
                                                    row = mla(m, input_height, batch, in_y)
                                                    ldr_sp(m)
                                                    frow = mla(m, filter_height, out_channel, filter_y)
                                                    ldr_sp(m)
                                                    ldr_sp(m)
                                                    col = mla(m, input_width, row, in_x)
                                                    ldr_sp(m)
                                                    fcol = mla(m, filter_width, frow, filter_x)
                                                    ldr_sp(m)
                                                    in_index = mla(m, input_depth, col, group_base)
                                                    ldr_sp(m)
                                                    in_ptr = add(m, input_data, in_index)
                                                    ldr_sp(m)
                                                    f_index = mul(m, filter_input_depth, fcol)
                                                    ldr_sp(m)
                                                    f_ptr = add(m, filter_data, f_index)
                                                    ldr_sp(m)
                                                    f_end = add(m, f_ptr, filter_input_depth)
                                                    while True:      # for (in_channel ...)
                                                        filter_val = ldrsb(m, f_ptr)
                                                        f_ptr += 1
                                                        input_val = ldrsb(m, in_ptr)
                                                        in_ptr += 1
                                                        cmp(m, f_end, f_ptr)
                                                        input_val = add(m, input_val, input_offset)
                                                        acc = mla(m, filter_val, input_val, acc)
                                                        bcc(m, f_ptr != f_end)
                                                        if f_ptr == f_end:
                                                            break
                                                filter_x = add(m, filter_x, 1)
                                                cmp(m, filter_width, filter_x)
                                                in_x = add(m, in_x, dilation_width_factor)
                                                done = filter_x == filter_width
                                                bcc(m, done if not inside else not done)
                                                if done:
                                                    break
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        in_y = add(m, in_y, dilation_height_factor)
                                        ldr_sp(m)
                                        filter_y = add(m, filter_y, 1)
                                        cmp(m, filter_height, filter_y)
                                        str_sp(m)
                                        bcc(m, filter_y != filter_height)
                                        if filter_y == filter_height:
                                            break
                                        in_x = in_x_origin
                                    ldr_sp(m)
                                else:
                                    mov(m, 0)
                                    b(m)
                                ldr_sp(m)
                                cbz(m, bias_data == 0)                   # if (bias_data)
                                if bias_data != 0:
                                    ldr_sp(m)
                                    acc = add(m, acc, ldr(m, bias_data + 4 * out_channel))
                                ldr_sp(m)
                                mult_ptr += 4
                                multiplier = ldr(m, mult_ptr)            # ldr r2, [r3, #4]!
                                str_sp(m)
                                ldr_sp(m)
                                shift_ptr += 4
                                shift = ldr(m, shift_ptr)
                                str_sp(m)
                                bl(m)
                                acc = MultiplyByQuantizedMultiplier(m, acc, multiplier, shift)
                                ldr_sp(m)
                                ldr_sp(m)
                                acc = add(m, output_offset, acc)         # acc += output_offset
                                ldr_sp(m)
                                ldr_sp(m)
                                acc = max_lt(m, acc, output_activation_min)  # std::max
                                ldr_sp(m)
                                acc = min_ge(m, acc, output_activation_max)  # std::min
                                ldr_sp(m)
                                row = mla(m, output_height, batch, out_y)
                                ldr_sp(m)
                                ldr_sp(m)
                                col = mla(m, output_width, row, out_x)
                                ldr_sp(m)
                                ldr_sp(m)
                                out_index = mla(m, output_depth, col, output_data)
                                ldr_sp(m)
                                strb(m, out_index + out_channel, acc)   # output_data[Offset(...)]
                                ldr_sp(m)
                                out_channel = add(m, out_channel, 1)
                                cmp(m, out_channel, output_depth)
                                str_sp(m)
                                bcc(m, out_channel != output_depth)
                                if out_channel == output_depth:
                                    break
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            out_x = add(m, out_x, 1)
                            in_x_origin = add(m, in_x_origin, stride_width)
                            cmp(m, output_width, out_x)
                            ldrd_sp(m)
                            str_sp(m)
                            str_sp(m)
                            bcc(m, out_x != output_width)
                            if out_x == output_width:
                                break
                        mov(m, 0)
                        ldr_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    in_y_origin = add(m, in_y_origin, stride_height)
                    str_sp(m)
                    ldr_sp(m)
                    out_y = add(m, out_y, 1)
                    cmp(m, output_height, out_y)
                    bcc(m, out_y != output_height)
                    if out_y == output_height:
                        break
                ldr_sp(m)
                ldr_sp(m)
                mov(m, 0)
                ldr_sp(m)
                batch = add(m, batch, 1)
                cmp(m, batches, batch)
                mov(m, 0)
                mov(m, 0)
                ldr_sp(m)
                str_sp(m)
                bcc(m, batch != batches)
            else:
                ldr_sp(m)
                ldr_sp(m)
                batch = add(m, batch, 1)
                cmp(m, batch, batches)
                str_sp(m)
                bcc(m, batch != batches)
            if batch == batches:
                break
    add(m, 0, 156)                               # add sp, #156
    pop_pc(m, 9)                                 # ldmia sp!, {r4-r11, pc}


def run_reference(m, case, addr, tracer):
    p = case["conv_params"]
    i, f, o = case["input_dims"], case["filter_dims"], case["output_dims"]
    act = p["activation"]
    run(ConvPerChannel, m, p["input_offset"], p["stride"]["w"], p["stride"]["h"],
        p["dilation"]["w"], p["dilation"]["h"], p["padding"]["w"], p["padding"]["h"],
        p["output_offset"], act["min"], act["max"], addr["output_mult"], addr["output_shift"],
        i["n"], i["h"], i["w"], i["c"], addr["input"], o["c"], f["h"], f["w"], f["c"],
        addr["weights"], addr["bias"], o["h"], o["w"], addr["output"], tracer=tracer)
    return [NAME, MBQM]
