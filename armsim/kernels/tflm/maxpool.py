"""tflite::reference_integer_ops::MaxPool (kernels/internal/reference/integer_ops/pooling.h)
as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG compiles it (out of line, shapes by
reference): per output channel the window bounds are clipped to the input
(max(0, -origin) with BIC ..., ASR #31; min(filter, size - origin) with IT GE/MOVGE), per
window row three MLAs of Offset(), per tap LDRSB, ADDS, CMP, IT LT/MOVLT, CMP, ADD, BNE;
max starts at -128, then the clamp to the activation range (LDRSB of the int8 params).

The int16 overload (TFLM's int16 MAX_POOL_2D) is the same template: `esize` 2 makes its element
loads / store halfwords (LDRSH / STRH), max starts at -32768, the params are read with LDRSH.
Not calibrated for int16: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bic, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsb_sp, ldrsh, ldrsh_sp, mla,
                        mov, mvn, pop_pc, push, str_sp, strb, strd_sp, strh, sub)
from armsim.kernels.minmax import max_lt, min_ge

NAME = "tflite::reference_integer_ops::MaxPool"
NAME_S16 = "tflite::reference_integer_ops::MaxPool<int16>"


@kernel
def MaxPool(m, stride_height, stride_width, filter_height, filter_width, pad_height,
            pad_width, activation_min, activation_max, batches, input_height, input_width,
            depth, input_data, output_height, output_width, output_data, esize):
    push(m, 9)
    mov(m, 0)
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    mov(m, 0)
    cmp(m, batches, batches)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, batches)
    mov(m, batches)
    ldr_sp(m)
    ldr_sp(m)
    sub(m, 0, 68)
    cmp(m, depth, depth)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, depth)
    ldr_sp(m)
    str_sp(m)
    cmp(m, batches, 0)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    str_sp(m)
    ldrd_sp(m)
    ldrd_sp(m)
    bcc(m, batches <= 0)
    go = batches > 0
    if go:
        cmp(m, output_height, 0)
        go = output_height > 0
        bcc(m, not go)
    if go:
        batch = mov(m, 0)
        str_sp(m)
        mov(m, 0)
        while True:                              # for (batch ...)
            out_y = mov(m, 0)
            strd_sp(m)
            in_y_origin = -pad_height
            while True:                          # for (out_y ...)
                cmp(m, output_width, 0)
                bcc(m, output_width <= 0)
                if output_width > 0:
                    ldrd_sp(m)
                    ldr_sp(m)
                    cmp(m, depth, 0)
                    bcc(m, depth <= 0)
                if output_width > 0 and depth > 0:
                    strd_sp(m)
                    strd_sp(m)
                    out_x = mov(m, 0)
                    str_sp(m)
                    in_x_origin = -pad_width
                    while True:                  # for (out_x ...)
                        strd_sp(m)
                        channel = mov(m, 0)
                        str_sp(m)
                        while True:              # for (channel ...)
                            ldr_sp(m)
                            ldrsh_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldrsh_sp(m)
                            sub(m, 0, 0)                 # in_y_origin
                            y_end = sub(m, input_height, in_y_origin)
                            cmp(m, y_end, filter_height)
                            it(m, y_end < filter_height)   # the MOV fails unless filter_height is the min
                            filter_y_end = y_end
                            if y_end >= filter_height:
                                filter_y_end = mov(m, filter_height)
                            ldr_sp(m)
                            sub(m, 0, 0)
                            sub(m, 0, 0)                 # in_x_origin
                            ldr_sp(m)
                            x_end = sub(m, input_width, in_x_origin)
                            cmp(m, x_end, filter_width)
                            filter_y_start = bic(m, -in_y_origin, -in_y_origin >> 31)
                            sub(m, 0, 0)
                            it(m, x_end < filter_width)   # the MOV fails unless filter_width is the min
                            filter_x_end = x_end
                            if x_end >= filter_width:
                                filter_x_end = mov(m, filter_width)
                            cmp(m, filter_y_start, filter_y_end)
                            filter_x_start = bic(m, -in_x_origin, -in_x_origin >> 31)
                            bcc(m, filter_y_start >= filter_y_end)
                            lowest = 127 if esize == 1 else 32767    # ~lowest: numeric_limits<T>::lowest()
                            max_value = -lowest - 1
                            if filter_y_start < filter_y_end:
                                strd_sp(m)
                                ldr_sp(m)
                                str_sp(m)
                                add(m, 0, 0)
                                add(m, 0, 0)
                                add(m, 0, 0)
                                max_value = mvn(m, lowest)           # numeric_limits<T>::lowest()
                                filter_y = filter_y_start
                                while True:      # for (filter_y ...)
                                    cmp(m, filter_x_start, filter_x_end)
                                    bcc(m, filter_x_start >= filter_x_end)
                                    if filter_x_start < filter_x_end:
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        ldr_sp(m)
                                        row = mla(m, input_height, batch, in_y_origin + filter_y)
                                        col = mla(m, input_width, row, in_x_origin + filter_x_start)
                                        index = mla(m, depth, col, channel)
                                        p = add(m, index * esize, input_data)
                                        filter_x = mov(m, filter_x_start)
                                        while True:  # for (filter_x ...)
                                            v = ldrsb(m, p) if esize == 1 else ldrsh(m, p)
                                            filter_x = add(m, filter_x, 1)
                                            max_value = max_lt(m, max_value, v)
                                            cmp(m, filter_x_end, filter_x)
                                            p = add(m, p, depth * esize)
                                            bcc(m, filter_x != filter_x_end)
                                            if filter_x == filter_x_end:
                                                break
                                    filter_y = add(m, filter_y, 1)
                                    cmp(m, filter_y_end, filter_y)
                                    bcc(m, filter_y != filter_y_end)
                                    if filter_y == filter_y_end:
                                        break
                                ldrd_sp(m)
                                ldr_sp(m)
                            else:
                                max_value = mvn(m, lowest)
                                b(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            row = mla(m, output_height, batch, out_y)
                            ldr_sp(m)
                            col = mla(m, output_width, row, out_x)
                            ldr_sp(m)
                            ldr_sp(m)
                            out_base = mla(m, depth * esize, col, output_data)
                            if esize == 1:
                                ldrsb_sp(m)                      # ldrsb r2, [fp, #28]: int8 activation_min
                            else:
                                ldrsh_sp(m)
                            cmp(m, activation_min, max_value)
                            it(m, activation_min >= max_value)   # std::max: the MOV fails unless max_value is larger
                            value = activation_min
                            if activation_min < max_value:
                                value = mov(m, max_value)
                            if esize == 1:
                                ldrsb_sp(m)                      # int8 activation_max
                            else:
                                ldrsh_sp(m)
                            value = min_ge(m, value, activation_max)
                            if esize == 1:
                                strb(m, out_base + channel, value)
                            else:
                                strh(m, out_base + 2 * channel, value)
                            ldr_sp(m)
                            channel = add(m, channel, 1)
                            cmp(m, depth, channel)
                            bcc(m, channel != depth)
                            if channel == depth:
                                break
                        ldr_sp(m)
                        ldr_sp(m)
                        ldrd_sp(m)
                        out_x = add(m, out_x, 1)
                        cmp(m, output_width, out_x)
                        str_sp(m)
                        in_x_origin = add(m, in_x_origin, stride_width)
                        bcc(m, out_x != output_width)
                        if out_x == output_width:
                            break
                    ldrd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                out_y = add(m, out_y, 1)
                in_y_origin = add(m, in_y_origin, stride_height)
                cmp(m, out_y, output_height)
                str_sp(m)
                str_sp(m)
                bcc(m, out_y != output_height)
                if out_y == output_height:
                    break
            batch = add(m, batch, 1)
            cmp(m, batches, batch)
            bcc(m, batch != batches)
            if batch == batches:
                break
    add(m, 0, 68)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer, esize=1):
    p = case["pool_params"]
    i, o, f = case["input_dims"], case["output_dims"], case["filter_dims"]
    act = p["activation"]
    run(MaxPool, m, p["stride"]["h"], p["stride"]["w"], f["h"], f["w"], p["padding"]["h"],
        p["padding"]["w"], act["min"], act["max"], i["n"], i["h"], i["w"], i["c"],
        addr["input"], o["h"], o["w"], addr["output"], esize, tracer=tracer)
    return [NAME if esize == 1 else NAME_S16]


def run_reference_s16(m, case, addr, tracer):
    return run_reference(m, case, addr, tracer, esize=2)
