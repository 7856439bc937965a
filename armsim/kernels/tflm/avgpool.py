"""tflite::reference_integer_ops::AveragePool (kernels/internal/reference/integer_ops/pooling.h)
inlined into TFLM's AverageEval (AveragePoolingEvalQuantized<int8_t>), after the code
arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG generates for it: the window walk is
strength-reduced -- per tap LDRSB, ADDS, CMP, ADD, ADD, BNE; per window row CMP/BGE, two
MOVs, the count update and the row step.  Per output channel both Offset() computations
are redone with the shapes' dims reloaded (3 LDR + 3 MLA each) and the row step is one MUL:
the measured AverageEval's histograms show exactly that (6 MLA, 1 MUL and ~15 LDR per
channel, none per row), where a stand-alone compile of the header kept the dims in registers.

    acc = acc > 0 ? (acc + filter_count / 2) / filter_count      (UDIV: both positive)
                  : (acc - filter_count / 2) / filter_count      (SDIV)
    clamp to [activation_min, activation_max]; filter_count == 0 returns false at once.

The int16 overload (AveragePool(..., const int16_t*, ..., int16_t*), TFLM's int16 AVERAGE_POOL_2D)
is the same template: `esize` 2 makes its element loads / store halfwords (LDRSH / STRH, the
scaled offsets folded into the ADDs' LSL #1).  Not calibrated for int16: no measurement.
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, b, bcc, bic, cmp, it, ldr_sp, ldrd_sp, ldrsb, ldrsh,
                        ldrsh_sp, mla, mov, mul, pop_pc, push, rsb, sdiv, str_sp, strb, strd_sp, strh, sub, udiv)
from armsim.kernels.minmax import max_lt, min_ge

NAME = "tflite::reference_integer_ops::AveragePool"
NAME_S16 = "tflite::reference_integer_ops::AveragePool<int16>"


@kernel
def AveragePool(m, stride_height, stride_width, filter_height, filter_width, pad_height,
                pad_width, activation_min, activation_max, batches, input_height, input_width,
                depth, input_data, output_height, output_width, output_data, esize):
    push(m, 9)
    mov(m, 0)
    sub(m, 0, 196)
    mov(m, 0)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    add(m, 0, 140)
    strd_sp(m)                                   # the input shape's dims, copied
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    add(m, 0, 168)
    strd_sp(m)                                   # the output shape's dims, copied
    ldr_sp(m)
    mov(m, 4)
    cmp(m, batches, batches)                     # MatchingDim(input, 0, output, 0)
    str_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, batches)
    ldr_sp(m)
    str_sp(m)
    mov(m, batches)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    str_sp(m)
    ldrsh_sp(m)
    ldr_sp(m)
    str_sp(m)
    cmp(m, depth, depth)                         # MatchingDim(input, 3, output, 3)
    ldr_sp(m)
    ldrsh_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, depth)
    mov(m, 0)
    it(m, 0)                                     # std::min of two equal dims: MOVGE holds
    mov(m, depth)
    ldr_sp(m)
    str_sp(m)
    cmp(m, batches, 0)
    str_sp(m)
    bcc(m, batches <= 0)
    if batches > 0:
        plane = mul(m, input_width, depth)
        mul(m, input_height, plane)
        ldr_sp(m)
        mul(m, output_width, depth)
        mov(m, 0)
        str_sp(m)
        mul(m, depth, stride_width)
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        mov(m, 0)
        batch = 0
        returned = False
        while True:                              # for (batch ...)
            cmp(m, output_height, 0)
            bcc(m, output_height <= 0)
            if output_height > 0:
                in_y_origin = rsb(m, pad_height, 0)     # out_y * stride_height - pad_height
                strd_sp(m)
                strd_sp(m)
                out_y = mov(m, 0)
                strd_sp(m)
                str_sp(m)
                mov(m, 0)
                str_sp(m)
                while True:                      # for (out_y ...)
                    ldr_sp(m)
                    cmp(m, output_width, 0)
                    bcc(m, output_width <= 0)
                    if output_width > 0:
                        ldr_sp(m)
                        ldr_sp(m)
                        ldr_sp(m)
                        str_sp(m)
                        filter_y_start = bic(m, -in_y_origin, -in_y_origin >> 31)   # max(0, -in_y_origin)
                        add(m, 0, 0)
                        ldr_sp(m)
                        add(m, 0, 0)
                        mul(m, 0, 0)
                        y_end = add(m, input_height, -in_y_origin)
                        cmp(m, filter_height, y_end)
                        strd_sp(m)
                        it(m, filter_height < y_end)   # the MOV fails unless y_end clips
                        filter_y_end = filter_height
                        if filter_height >= y_end:
                            filter_y_end = mov(m, y_end)   # min(filter_height, input_height - in_y_origin)
                        out_x = mov(m, 0)
                        strd_sp(m)
                        str_sp(m)
                        in_x_origin = rsb(m, pad_width, 0)
                        mov(m, 0)
                        mov(m, 0)
                        while True:              # for (out_x ...)
                            ldr_sp(m)
                            cmp(m, depth, 0)
                            bcc(m, depth <= 0)
                            if depth > 0:
                                ldr_sp(m)
                                ldr_sp(m)
                                str_sp(m)
                                x_end = add(m, input_width, -in_x_origin)
                                ldr_sp(m)
                                str_sp(m)
                                cmp(m, x_end, filter_width)
                                it(m, x_end < filter_width)   # the MOV fails unless filter_width is the min
                                filter_x_end = x_end
                                if x_end >= filter_width:
                                    filter_x_end = mov(m, filter_width)
                                ldr_sp(m)
                                str_sp(m)
                                filter_x_start = bic(m, -in_x_origin, -in_x_origin >> 31)
                                add(m, 0, 0)
                                add(m, 0, 0)
                                ldr_sp(m)
                                add(m, 0, 0)
                                str_sp(m)
                                strd_sp(m)
                                ldr_sp(m)
                                channel = mov(m, 0)
                                x_count = sub(m, filter_x_end, filter_x_start)
                                mov(m, 0)
                                while True:      # for (channel ...)
                                    ldr_sp(m)
                                    cmp(m, filter_y_start, filter_y_end)
                                    bcc(m, filter_y_start >= filter_y_end)
                                    if filter_y_start >= filter_y_end:
                                        returned = True          # filter_count == 0: return false
                                        break
                                    acc = mov(m, 0)
                                    strd_sp(m)
                                    # Offset(input_shape, batch, in_y, in_x, channel) of the first
                                    # tap: the shape's dims are reloaded after every int8 store
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    index = mla(m, input_height, batch, in_y_origin + filter_y_start)
                                    index = mla(m, input_width, index, in_x_origin + filter_x_start)
                                    index = mla(m, depth, index, channel)
                                    row_ptr = add(m, input_data, index * esize)
                                    row_bytes = mul(m, input_width, depth) * esize  # the window's row step
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    filter_count = mov(m, acc)
                                    filter_y = mov(m, filter_y_start)
                                    while True:  # for (filter_y ...)
                                        cmp(m, filter_x_start, filter_x_end)
                                        bcc(m, filter_x_start >= filter_x_end)
                                        if filter_x_start < filter_x_end:
                                            p = mov(m, row_ptr)
                                            filter_x = mov(m, filter_x_start)
                                            while True:          # for (filter_x ...)
                                                v = ldrsb(m, p) if esize == 1 else ldrsh(m, p)
                                                filter_x = add(m, filter_x, 1)
                                                cmp(m, filter_x, filter_x_end)
                                                acc = add(m, acc, v)
                                                p = add(m, p, depth * esize)
                                                bcc(m, filter_x != filter_x_end)
                                                if filter_x == filter_x_end:
                                                    break
                                            filter_count = add(m, filter_count, x_count)
                                        row_ptr = add(m, row_ptr, row_bytes)
                                        filter_y = add(m, filter_y, 1)
                                        cmp(m, filter_y, filter_y_end)
                                        bcc(m, filter_y != filter_y_end)
                                        if filter_y == filter_y_end:
                                            break
                                    ldrd_sp(m)
                                    cmp(m, filter_count, 0)
                                    bcc(m, filter_count == 0)
                                    if filter_count == 0:
                                        returned = True
                                        break
                                    cmp(m, acc, 0)
                                    bcc(m, acc <= 0)
                                    if acc > 0:                  # (acc + filter_count / 2) / filter_count
                                        acc = add(m, acc, filter_count >> 1)
                                        acc = udiv(m, acc, filter_count)
                                    else:                        # (acc - filter_count / 2) / filter_count
                                        half = add(m, filter_count, (filter_count >> 31) & 1)     # add r3, r0, r0, LSR #31
                                        acc = sub(m, acc, half >> 1)                  # sub r5, r5, r3, ASR #1
                                        acc = sdiv(m, acc, filter_count)
                                        b(m)
                                    ldr_sp(m)
                                    acc = max_lt(m, acc, activation_min)
                                    ldr_sp(m)
                                    acc = min_ge(m, acc, activation_max)
                                    ldr_sp(m)                    # Offset(output_shape, batch, out_y, out_x, channel)
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    index = mla(m, output_height, batch, out_y)
                                    index = mla(m, output_width, index, out_x)
                                    index = mla(m, depth, index, channel)
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    ldr_sp(m)
                                    out_ptr = add(m, output_data, index * esize)
                                    if esize == 1:
                                        strb(m, out_ptr, acc)
                                    else:
                                        strh(m, out_ptr, acc)
                                    channel = add(m, channel, 1)
                                    cmp(m, channel, depth)
                                    bcc(m, channel != depth)
                                    if channel == depth:
                                        break
                                if returned:
                                    break
                                ldrd_sp(m)
                                ldr_sp(m)
                                ldr_sp(m)
                                ldr_sp(m)
                            ldr_sp(m)
                            ldr_sp(m)
                            add(m, 0, 0)
                            in_x_origin = add(m, in_x_origin, stride_width)
                            ldr_sp(m)
                            out_x = add(m, out_x, 1)
                            cmp(m, output_width, out_x)
                            add(m, 0, 0)
                            bcc(m, out_x != output_width)
                            if out_x == output_width:
                                break
                        if returned:
                            break
                        ldrd_sp(m)
                        ldrd_sp(m)
                        ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    add(m, 0, 0)
                    str_sp(m)
                    ldr_sp(m)
                    ldr_sp(m)
                    out_y = add(m, out_y, 1)
                    in_y_origin = add(m, in_y_origin, stride_height)
                    cmp(m, output_height, out_y)
                    str_sp(m)
                    sub(m, 0, 0)
                    str_sp(m)
                    bcc(m, out_y != output_height)
                    if out_y == output_height:
                        break
                if returned:
                    break
                ldrd_sp(m)
                ldrd_sp(m)
                ldr_sp(m)
            batch = add(m, batch, 1)
            cmp(m, batch, batches)
            add(m, 0, 0)
            add(m, 0, 0)
            bcc(m, batch != batches)
            if batch == batches:
                break
    add(m, 0, 196)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer, esize=1):
    p = case["pool_params"]
    i, o, f = case["input_dims"], case["output_dims"], case["filter_dims"]
    act = p["activation"]
    run(AveragePool, m, p["stride"]["h"], p["stride"]["w"], f["h"], f["w"], p["padding"]["h"],
        p["padding"]["w"], act["min"], act["max"], i["n"], i["h"], i["w"], i["c"],
        addr["input"], o["h"], o["w"], addr["output"], esize, tracer=tracer)
    return [NAME if esize == 1 else NAME_S16]


def run_reference_s16(m, case, addr, tracer):
    return run_reference(m, case, addr, tracer, esize=2)
