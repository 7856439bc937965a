"""tflite::reference_integer_ops::FullyConnected<int8_t, int8_t, int8_t, int32_t> (per-tensor
quantization) and FullyConnectedPerChannel (kernels/internal/reference/integer_ops/
fully_connected.h) as arm-none-eabi-gcc 12.2 -O2 -mcpu=cortex-m4 -DNDEBUG compiles them,
each calling tflite::MultiplyByQuantizedMultiplier per output.

The output shape is TFLM's 2-D [batches, output_depth]: FlatSizeSkipDim multiplies the dims
in a small loop (CMP, IT, LDRNE, ADD, IT, MULNE, CMP, BNE per dim; the predicated pair is
skipped for the last dim).  The accumulation loop is seven instructions per MAC per tensor
(LDRSB, LDRSB, ADD input_offset, ADD filter_offset, CMP, MLA, BNE), six per channel (no
filter offset there).
"""
from armsim.cpu.kernel import kernel, run
from armsim.cpu.ops import (add, bcc, bl, cbz, cmp, it, ldr, ldr_sp, ldrd_sp, ldrsb, mla, mov,
                        mul, pop_pc, push, str_sp, strb, strd_sp, sub)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::reference_integer_ops::FullyConnected<signed char, signed char, signed char, long>"
NAME_PER_CHANNEL = ("tflite::reference_integer_ops::FullyConnectedPerChannel"
                    "<signed char, signed char, signed char, long>")
OUTPUT_DIMS = 2            # TFLM's FULLY_CONNECTED output tensor: [batches, output_depth]


@kernel(inline=True)
def _flat_size_skip_last(m, batches):
    """FlatSizeSkipDim(output_shape, dims - 1) over a [batches, depth] shape."""
    size = mov(m, 1)
    dim = 1
    i = mov(m, 0)
    add(m, 0, 4)
    while True:
        cmp(m, OUTPUT_DIMS - 1, i)
        last = i == OUTPUT_DIMS - 1
        it(m, last)                             # the skipped dim: LDRNE fails
        if not last:
            ldr_sp(m)                           # ldrne r1, [r7, r3, lsl #2]
            dim = batches
        i = add(m, i, 1)
        it(m, last)                             # ... and MULNE
        if not last:
            size = mul(m, size, dim)            # mulne r2, r1
        cmp(m, OUTPUT_DIMS, i)
        bcc(m, i != OUTPUT_DIMS)
        if i == OUTPUT_DIMS:
            break
    return size


@kernel(inline=True)
def _accumulate(m, in_ptr, in_end, f_row, accum_depth, input_offset, filter_offset,
                per_tensor):
    """int32_t acc = 0; for (int d = 0; d < accum_depth; ++d)
    acc += (filter_val + filter_offset) * (input_val + input_offset);
    FullyConnectedPerChannel has no filter offset (per_tensor False: no ADD)."""
    cmp(m, accum_depth, 0)
    it(m, accum_depth > 0)                      # MOVLE fails on any real layer
    if accum_depth <= 0:
        acc = mov(m, 0)
    bcc(m, accum_depth <= 0)
    if accum_depth > 0:
        ldr_sp(m)
        ip = in_ptr
        f_ptr = add(m, f_row, -1)
        acc = mov(m, 0)
        while True:                             # for (d = 0; d < accum_depth; ++d)
            input_val = ldrsb(m, ip)            # ldrsb r2, [ip], #1
            ip += 1
            f_ptr += 1
            filter_val = ldrsb(m, f_ptr)        # ldrsb r3, [lr, #1]!
            input_val = add(m, input_val, input_offset)
            if per_tensor:
                filter_val = add(m, filter_val, filter_offset)
            cmp(m, ip, in_end)
            acc = mla(m, input_val, filter_val, acc)
            bcc(m, ip != in_end)
            if ip == in_end:
                break
    return acc


@kernel(inline=True)
def _offset_clamp_store(m, acc, output_offset, output_activation_min, output_activation_max,
                        out_ptr):
    """acc += output_offset; acc = std::max(acc, output_activation_min);
    acc = std::min(acc, output_activation_max); output_data[...] = acc;
    (the offset and both bounds reloaded from the stack)."""
    ldr_sp(m)
    acc = add(m, acc, output_offset)
    ldr_sp(m)
    acc = max_lt(m, acc, output_activation_min)
    ldr_sp(m)
    acc = min_ge(m, acc, output_activation_max)
    strb(m, out_ptr, acc)                       # strb r0, [r7], #1


@kernel
def FullyConnected(m, input_offset, filter_offset, output_offset, output_multiplier,
                   output_shift, output_activation_min, output_activation_max, input_data,
                   filter_data, bias_data, batches, accum_depth, output_depth, output_data):
    push(m, 9)
    sub(m, 0, 44)
    ldr_sp(m)
    str_sp(m)
    ldrd_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    cmp(m, OUTPUT_DIMS, 0)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    mov(m, 0)
    add(m, OUTPUT_DIMS, -1)
    bcc(m, False)
    batches = _flat_size_skip_last(m, batches)
    add(m, 0, 0)
    cmp(m, batches, 0)
    ldr_sp(m)                                   # accum_depth = filter dims[last]
    ldr_sp(m)                                   # output_depth = output dims[last]
    bcc(m, batches <= 0)
    if batches > 0:
        ldr_sp(m)
        str_sp(m)
        mov(m, 0)
        in_ptr = add(m, input_data, 0)
        in_end = add(m, input_data, accum_depth)
        batch = mov(m, 0)
        while True:                             # for (b = 0; b < batches; ++b)
            cmp(m, output_depth, 0)
            it(m, output_depth > 0)             # ADDLE fails on any real layer
            if output_depth <= 0:
                add(m, output_data, output_depth)
            bcc(m, output_depth <= 0)
            if output_depth > 0:
                strd_sp(m)
                ldr_sp(m)
                ldr_sp(m)
                str_sp(m)
                out_ptr = mov(m, output_data + batch * output_depth)
                out_end = add(m, out_ptr, output_depth)
                bias_ptr = bias_data
                f_row = filter_data
                while True:                     # for (out_c ...)
                    acc = _accumulate(m, in_ptr, in_end, f_row, accum_depth, input_offset,
                                      filter_offset, True)
                    ldr_sp(m)
                    cbz(m, bias_data == 0)      # if (bias_data)
                    if bias_data != 0:
                        acc = add(m, acc, ldr(m, bias_ptr))
                    ldrd_sp(m)                  # output_multiplier, output_shift
                    bl(m)
                    acc = MultiplyByQuantizedMultiplier(m, acc, output_multiplier, output_shift)
                    _offset_clamp_store(m, acc, output_offset, output_activation_min,
                                        output_activation_max, out_ptr)
                    out_ptr += 1
                    cmp(m, out_ptr, out_end)
                    bias_ptr = add(m, bias_ptr, 4)
                    f_row = add(m, f_row, accum_depth)
                    bcc(m, out_ptr != out_end)
                    if out_ptr == out_end:
                        break
                ldrd_sp(m)
                ldr_sp(m)
            ldr_sp(m)
            batch = add(m, batch, 1)
            cmp(m, batches, batch)
            in_ptr = add(m, in_ptr, accum_depth)
            in_end = add(m, in_end, accum_depth)
            bcc(m, batches > batch)
            if batch >= batches:
                break
    add(m, 0, 44)
    pop_pc(m, 9)


@kernel
def FullyConnectedPerChannel(m, input_offset, output_offset, output_multiplier, output_shift,
                             output_activation_min, output_activation_max, input_data,
                             filter_data, bias_data, batches, accum_depth, output_depth,
                             output_data):
    push(m, 9)
    sub(m, 0, 44)
    strd_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    ldr_sp(m)
    str_sp(m)
    cmp(m, OUTPUT_DIMS, 0)
    ldr_sp(m)
    ldr_sp(m)
    ldr_sp(m)
    str_sp(m)
    mov(m, 0)
    add(m, OUTPUT_DIMS, -1)
    ldr_sp(m)
    bcc(m, False)
    batches = _flat_size_skip_last(m, batches)
    add(m, 0, 0)
    cmp(m, batches, 0)
    ldr_sp(m)
    ldr_sp(m)
    bcc(m, batches <= 0)
    if batches > 0:
        ldr_sp(m)
        str_sp(m)
        in_ptr = add(m, input_data, 0)
        in_end = add(m, input_data, accum_depth)
        batch = mov(m, 0)
        str_sp(m)
        while True:                             # for (b = 0; b < batches; ++b)
            cmp(m, output_depth, 0)
            bcc(m, output_depth <= 0)
            if output_depth > 0:
                ldr_sp(m)
                ldr_sp(m)
                mult_ptr = sub(m, output_multiplier, 4)
                ldr_sp(m)
                strd_sp(m)
                shift_ptr = sub(m, output_shift, 4)
                out_end = add(m, output_data + batch * output_depth, output_depth)
                out_ptr = mov(m, output_data + batch * output_depth)
                bias_off = mov(m, 0)
                str_sp(m)
                f_row = filter_data
                while True:                     # for (out_c ...)
                    acc = _accumulate(m, in_ptr, in_end, f_row, accum_depth, input_offset, 0,
                                      False)
                    cbz(m, bias_data == 0)
                    if bias_data != 0:
                        acc = add(m, acc, ldr(m, bias_data + bias_off))
                    mult_ptr += 4
                    multiplier = ldr(m, mult_ptr)      # ldr r2, [sl, #4]!
                    shift_ptr += 4
                    shift = ldr(m, shift_ptr)          # ldr r1, [fp, #4]!
                    str_sp(m)
                    bl(m)
                    acc = MultiplyByQuantizedMultiplier(m, acc, multiplier, shift)
                    _offset_clamp_store(m, acc, output_offset, output_activation_min,
                                        output_activation_max, out_ptr)
                    out_ptr += 1
                    ldr_sp(m)
                    cmp(m, out_ptr, out_end)
                    bias_off = add(m, bias_off, 4)
                    ldr_sp(m)
                    f_row = add(m, f_row, accum_depth)
                    bcc(m, out_ptr != out_end)
                    if out_ptr == out_end:
                        break
                ldrd_sp(m)
                ldr_sp(m)
            ldr_sp(m)
            batch = add(m, batch, 1)
            cmp(m, batches, batch)
            in_ptr = add(m, in_ptr, accum_depth)
            in_end = add(m, in_end, accum_depth)
            bcc(m, batches > batch)
            if batch >= batches:
                break
    add(m, 0, 44)
    pop_pc(m, 9)


def run_reference(m, case, addr, tracer):
    p = case["fc_params"]
    act = p["activation"]
    batches = case["output_dims"]["n"]
    depth = case["filter_dims"]["n"]
    out_c = case["output_dims"]["c"]
    if case["quant_params"]["per_channel"]:
        run(FullyConnectedPerChannel, m, p["input_offset"], p["output_offset"],
            addr["output_mult"], addr["output_shift"], act["min"], act["max"], addr["input"],
            addr["weights"], addr["bias"], batches, depth, out_c, addr["output"], tracer=tracer)
        return [NAME_PER_CHANNEL, MBQM]
    q = case["quant_params"]
    run(FullyConnected, m, p["input_offset"], p["filter_offset"], p["output_offset"],
        q["multiplier"], q["shift"], act["min"], act["max"], addr["input"], addr["weights"],
        addr["bias"], batches, depth, out_c, addr["output"], tracer=tracer)
    return [NAME, MBQM]
