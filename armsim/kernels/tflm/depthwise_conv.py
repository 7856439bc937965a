"""tflite::reference_integer_ops::DepthwiseConvPerChannel
(kernels/internal/reference/integer_ops/depthwise_conv.h) as arm-none-eabi-gcc 12.2 -O2
-mcpu=cortex-m4 -DNDEBUG compiles it (out of line), calling
tflite::MultiplyByQuantizedMultiplier per output.

Loop nest batch / out_y / out_x / in_channel / m (depth multiplier) / filter_y / filter_x as
in C; each basic block issues the compiled code's instructions in order.  Per tap: the
bounds test (ORRS of in_x | in_y, then in_x < width, in_y < height), and for a tap inside
the image both Offset() computations (MLA, MLA, MUL and MLA, MUL) with the two LDRSB and
the MLA -- 18 instructions -- plus the loop's ADDS/CMP/ADD/BNE.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bl, cbz, cmp, it, ldr, ldr_sp, ldrd_sp, ldrsb, ldrsh_sp,
                        lsl, mla, mov, mul, mvn, orr, pop_pc, push, rsb, str_sp, strb, strd_sp,
                        sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::reference_integer_ops::DepthwiseConvPerChannel"


@kernel
def DepthwiseConvPerChannel(m, input_offset, stride_width, stride_height,
                            dilation_width_factor, dilation_height_factor, pad_width,
                            pad_height, depth_multiplier, output_offset,
                            output_activation_min, output_activation_max, output_multiplier,
                            output_shift, batches, input_height, input_width, input_depth,
                            input_data, filter_height, filter_width, filter_data, bias_data,
                            output_height, output_width, output_depth, output_data):
    # --- prologue ------------------------------------------------------------------------
    push(m, 9)
    sub(m, 0, 132)
    mov(m, 0)
    strd_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldrsh_sp(m)
    ldrsh_sp(m)
    ldrsh_sp(m)
    mov(m, 0)
    cmp(m, batches, batches)                    # MatchingDim(input, 0, output, 0)
    ldr_sp(m)
    str_sp(m)
    it(m, 0)                                    # std::min of two equal dims: MOVGE holds
    mov(m, batches)
    ldr_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    mov(m, batches)
    ldrsh_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldrd_sp(m)
    ldrd_sp(m)
    ldr_sp(m)
    cmp(m, batches, 0)
    ldr_sp(m)
    str_sp(m)
    bcc(m, batches <= 0)
    go = batches > 0
    if go:
        mult_bytes = lsl(m, depth_multiplier, 2)         # depth_multiplier * 4 (pointer step)
        str_sp(m)
        ldr_sp(m)
        cmp(m, output_height, 0)
        go = output_height > 0
        bcc(m, not go)
    if go:
        rsb(m, pad_height, 0)
        mov(m, 0)
        str_sp(m)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        batch = 0
        while True:                              # for (batch ...)
            out_y = mov(m, 0)
            str_sp(m)
            mov(m, 0)
            str_sp(m)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            in_y_origin = 0 - pad_height
            while True:                          # for (out_y ...)
                ldr_sp(m)
                cmp(m, output_width, 0)
                bcc(m, output_width <= 0)
                if output_width > 0:
                    ldrd_sp(m)
                    ldr_sp(m)
                    cmp(m, input_depth, 0)
                    bcc(m, input_depth <= 0)
                    if input_depth > 0:
                        strd_sp(m)
                        in_x_origin = rsb(m, pad_width, 0)
                        str_sp(m)
                        mov(m, 0)
                        strd_sp(m)
                        str_sp(m)
                        mov(m, 0)
                        out_x = mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        while True:              # for (out_x ...)
                            mvn(m, 3)
                            mov(m, 0)
                            mov(m, 0)
                            in_channel = mov(m, 0)
                            mov(m, 0)
                            mov(m, 0)
                            str_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                            mov(m, 0)
                            mult_ptr = output_multiplier - 4
                            shift_ptr = output_shift - 4
                            output_channel = 0
                            while True:          # for (in_channel ...)
                                cmp(m, depth_multiplier, 0)
                                it(m, depth_multiplier > 0)   # ADDLE fails on any real layer
                                if depth_multiplier <= 0:
                                    add(m, depth_multiplier, output_channel)
                                bcc(m, depth_multiplier <= 0)
                                if depth_multiplier > 0:
                                    ldr_sp(m)
                                    add(m, output_shift, 0)
                                    str_sp(m)
                                    ldr_sp(m)
                                    add(m, output_multiplier, 0)
                                    str_sp(m)
                                    ldr_sp(m)
                                    strd_sp(m)
                                    strd_sp(m)
                                    in_ptr_base = add(m, input_data, in_channel)   # input_data + in_channel
                                    channel_end = add(m, depth_multiplier, output_channel)
                                    str_sp(m)
                                    str_sp(m)
                                    mov(m, 0)
                                    while True:  # for (m = 0; m < depth_multiplier; ++m)
                                        ldr_sp(m)
                                        cmp(m, filter_height, 0)
                                        acc = mov(m, 0)
                                        bcc(m, filter_height <= 0)
                                        if filter_height > 0:
                                            ldr_sp(m)
                                            ldr_sp(m)
                                            str_sp(m)
                                            f_base = add(m, filter_data, output_channel)
                                            mov(m, 0)
                                            mov(m, 0)
                                            mov(m, 0)
                                            filter_y = 0
                                            in_y = in_y_origin
                                            while True:          # for (filter_y ...)
                                                cmp(m, filter_width, 0)
                                                bcc(m, filter_width <= 0)
                                                if filter_width > 0:
                                                    ldr_sp(m)
                                                    str_sp(m)
                                                    filter_x = mov(m, 0)
                                                    mov(m, 0)
                                                    in_x = in_x_origin
                                                    while True:  # for (filter_x ...)
                                                        neg = orr(m, in_y, in_x)
                                                        inside = neg >= 0
                                                        bcc(m, not inside)
                                                        if inside:
                                                            cmp(m, input_width, in_x)
                                                            inside = in_x < input_width
                                                            bcc(m, not inside)
                                                        if inside:
                                                            cmp(m, input_height, in_y)
                                                            inside = in_y < input_height
                                                            bcc(m, not inside)
                                                        if inside:
                                                            ldr_sp(m)
                                                            ldr_sp(m)
                                                            row = mla(m, input_height, batch, in_y)
                                                            ldr_sp(m)
                                                            col = mla(m, input_width, row, in_x)
                                                            ldr_sp(m)
                                                            index = mul(m, input_depth, col)
                                                            ldr_sp(m)
                                                            input_val = ldrsb(m, in_ptr_base + index)
                                                            ldr_sp(m)
                                                            ldr_sp(m)
                                                            input_val = add(m, input_val, input_offset)
                                                            ldr_sp(m)
                                                            fcol = mla(m, filter_width, filter_y, filter_x)
                                                            ldr_sp(m)
                                                            f_index = mul(m, output_depth, fcol)
                                                            filter_val = ldrsb(m, f_base + f_index)
                                                            acc = mla(m, filter_val, input_val, acc)
                                                        filter_x = add(m, filter_x, 1)
                                                        cmp(m, filter_width, filter_x)
                                                        in_x = add(m, in_x, dilation_width_factor)
                                                        bcc(m, filter_x != filter_width)
                                                        if filter_x == filter_width:
                                                            break
                                                    mov(m, 0)
                                                    ldr_sp(m)
                                                ldr_sp(m)
                                                in_y = add(m, in_y, dilation_height_factor)
                                                ldr_sp(m)
                                                filter_y = add(m, filter_y, 1)
                                                cmp(m, filter_height, filter_y)
                                                bcc(m, filter_y != filter_height)
                                                if filter_y == filter_height:
                                                    break
                                            ldr_sp(m)
                                            acc = mov(m, acc)
                                        ldr_sp(m)
                                        cbz(m, bias_data == 0)           # if (bias_data)
                                        if bias_data != 0:
                                            acc = add(m, acc, ldr(m, bias_data + 4 * output_channel))
                                        str_sp(m)
                                        ldr_sp(m)
                                        mult_ptr += 4
                                        multiplier = ldr(m, mult_ptr)    # ldr r2, [r3, #4]!
                                        str_sp(m)
                                        ldr_sp(m)
                                        shift_ptr += 4
                                        shift = ldr(m, shift_ptr)
                                        str_sp(m)
                                        bl(m)
                                        acc = MultiplyByQuantizedMultiplier(m, acc, multiplier, shift)
                                        ldr_sp(m)
                                        acc = add(m, output_offset, acc)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        acc = max_lt(m, acc, output_activation_min)
                                        ldr_sp(m)
                                        acc = min_ge(m, acc, output_activation_max)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        row = mla(m, output_height, batch, out_y)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        col = mla(m, output_width, row, out_x)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        out_base = mla(m, output_depth, col, output_data)
                                        ldr_sp(m)
                                        strb(m, out_base + output_channel, acc)
                                        ldr_sp(m)
                                        output_channel = add(m, output_channel, 1)
                                        cmp(m, output_channel, channel_end)
                                        bcc(m, output_channel != channel_end)
                                        if output_channel == channel_end:
                                            break
                                    ldrd_sp(m)
                                    ldrd_sp(m)
                                    ldr_sp(m)
                                ldr_sp(m)
                                add(m, 0, mult_bytes)
                                ldr_sp(m)
                                in_channel = add(m, in_channel, 1)
                                cmp(m, input_depth, in_channel)
                                mov(m, 0)
                                bcc(m, in_channel != input_depth)
                                if in_channel == input_depth:
                                    break
                            mov(m, 0)
                            ldr_sp(m)
                            ldr_sp(m)
                            mov(m, 0)
                            mov(m, 0)
                            ldr_sp(m)
                            in_x_origin = add(m, in_x_origin, stride_width)
                            str_sp(m)
                            ldr_sp(m)
                            out_x = add(m, out_x, 1)
                            cmp(m, output_width, out_x)
                            mov(m, 0)
                            bcc(m, out_x != output_width)
                            if out_x == output_width:
                                break
                        mov(m, 0)
                        mov(m, 0)
                        ldr_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)
                    else:                        # no input channel: count out_y only
                        while True:
                            ldr_sp(m)
                            out_y = add(m, out_y, 1)
                            cmp(m, output_height, out_y)
                            add(m, 0, 0)
                            bcc(m, out_y != output_height)
                            if out_y == output_height:
                                break
                            ldr_sp(m)
                            cmp(m, input_depth, 0)
                            bcc(m, True)
                        b(m)
                        break
                ldr_sp(m)
                ldr_sp(m)
                in_y_origin = add(m, in_y_origin, stride_height)
                str_sp(m)
                ldr_sp(m)
                out_y = add(m, out_y, 1)
                cmp(m, output_height, out_y)
                str_sp(m)
                bcc(m, out_y != output_height)
                if out_y == output_height:
                    break
            ldr_sp(m)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            mov(m, 0)
            ldr_sp(m)
            batch = add(m, batch, 1)
            cmp(m, batch, batches)
            mov(m, 0)
            str_sp(m)
            bcc(m, batch != batches)
            if batch == batches:
                break
    add(m, 0, 132)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    p = case["dw_conv_params"]
    i, f, o = case["input_dims"], case["filter_dims"], case["output_dims"]
    act = p["activation"]
    run(DepthwiseConvPerChannel, m, p["input_offset"], p["stride"]["w"], p["stride"]["h"],
        p["dilation"]["w"], p["dilation"]["h"], p["padding"]["w"], p["padding"]["h"],
        p["ch_mult"], p["output_offset"], act["min"], act["max"], addr["output_mult"],
        addr["output_shift"], i["n"], i["h"], i["w"], i["c"], addr["input"], f["h"], f["w"],
        addr["weights"], addr["bias"], o["h"], o["w"], o["c"], addr["output"], tracer=tracer)
    return [NAME, MBQM]
