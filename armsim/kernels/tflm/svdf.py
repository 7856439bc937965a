"""tflite::EvalIntegerSvdfReference<T> (micro/kernels/svdf_common.cc), the int8 SVDF of TFLM's
reference kernel: T is the state / time-weights type (int8_t: EvalInt8SvdfReference,
int16_t: EvalInt16SvdfReference), with the two int32 scratch buffers its Prepare requests
(batch * filters and batch * units words).

    shift the state left by one element (an element loop, not memmove);
    state[b, r, memory - 1] = state_zp + clamp_T(MBQM(sum_c w_f[r, c] * (in - input_zp)))
    scratch[b, r] = sum_j w_t[r, j] * (state[b, r, j] - state_zp)
    out = clamp_int8(MBQM(bias + sum over rank, scale_2) + output_zp)

The loop nest and per-element work are the C's (MultiplyByQuantizedMultiplier is the
called function, `common`); the stack traffic per loop level is estimated: there is no
measured count of this kernel in ../shared and it was not read off a disassembly.
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
    ldrsh,
    mla,
    mov,
    pop_pc,
    push,
    sdiv,
    str_,
    str_sp,
    strb,
    strh,
    sub,
)
from armsim.kernels.minmax import max_lt, min_ge
from armsim.kernels.tflm.common import MBQM, MultiplyByQuantizedMultiplier

NAME = "tflite::EvalIntegerSvdfReference"


@kernel(inline=True)
def _load_t(m, addr, t_bytes):
    if t_bytes == 2:
        return ldrsh(m, addr)
    return ldrsb(m, addr)


@kernel(inline=True)
def _store_t(m, addr, value, t_bytes):
    if t_bytes == 2:
        strh(m, addr, value)
    else:
        strb(m, addr, value)


@kernel
def EvalIntegerSvdfReference(m, t_bytes, n_rank, n_batch, n_input, n_filter, n_memory,
                             input_zero_point, state_zero_point, scale_1_a, scale_1_b,
                             scale_2_a, scale_2_b, output_zero_point, input_data, state_ptr,
                             weights_feature, weights_time, bias_data, scratch_tensor,
                             scratch_output_tensor, output_data):
    push(m, 9)                                        # stmdb sp!, {r4-r11, lr}
    sub(m, 0, 0)
    for _ in range(14):
        ldr_sp(m)                                     # the tensors' dims and data, OpData
    n_unit = sdiv(m, n_filter, n_rank)                # n_filter / n_rank
    for _ in range(6):
        str_sp(m)
    # Left shift the activation_state.
    total = n_batch * n_filter * n_memory
    old_end = state_ptr + t_bytes * total
    old = add(m, state_ptr, t_bytes)                  # old_state_start = state_ptr + 1
    new = state_ptr
    cmp(m, old, old_end)
    bcc(m, old == old_end)
    while old != old_end:                             # *new_state_start++ = *old_state_start++;
        _store_t(m, new, _load_t(m, old, t_bytes), t_bytes)
        old += t_bytes
        new += t_bytes
        cmp(m, old, old_end)
        bcc(m, old != old_end)
    # Feature matmul.
    output_max = 32767 if t_bytes == 2 else 127
    output_min = -32768 if t_bytes == 2 else -128
    result = add(m, state_ptr, t_bytes * (n_memory - 1))   # state + (n_memory - 1)
    for b in range(n_batch):
        matrix_ptr = weights_feature
        ldr_sp(m)
        for _ in range(n_filter):
            dot_prod = mov(m, 0)
            vec = input_data + b * n_input
            add(m, vec, 0)
            cmp(m, n_input, 0)
            bcc(m, n_input <= 0)
            for _ in range(n_input):                  # dot_prod += *matrix_ptr++ * (*vector_in_batch++ - input_zp)
                w = ldrsb(m, matrix_ptr)
                x = sub(m, ldrsb(m, vec), input_zero_point)
                dot_prod = mla(m, w, x, dot_prod)
                matrix_ptr += 1
                vec += 1
                cmp(m, 0, 0)
                bcc(m, True)
            ldr_sp(m)
            ldr_sp(m)
            bl(m)
            dot_prod = MultiplyByQuantizedMultiplier(m, dot_prod, scale_1_a, scale_1_b)
            dot_prod = max_lt(m, dot_prod, output_min)   # std::max(output_min, dot_prod)
            dot_prod = min_ge(m, dot_prod, output_max)   # std::min(.., output_max)
            ldr_sp(m)
            _store_t(m, result, add(m, dot_prod, state_zero_point), t_bytes)
            result = add(m, result, t_bytes * n_memory)  # result_in_batch += n_memory;
            cmp(m, 0, 0)
            bcc(m, True)
    # Time.
    for b in range(n_batch):
        scratch = scratch_tensor + 4 * b * n_filter
        v1 = weights_time
        v2 = state_ptr + t_bytes * b * n_memory * n_filter
        ldr_sp(m)
        for _ in range(n_filter):
            acc = mov(m, 0)                           # *scratch_ptr_batch = 0;
            str_(m, scratch, acc)
            cmp(m, n_memory, 0)
            bcc(m, n_memory <= 0)
            for _ in range(n_memory):                 # += *vector1_ptr++ * (*vector2_ptr++ - zp)
                w = _load_t(m, v1, t_bytes)
                s = sub(m, _load_t(m, v2, t_bytes), state_zero_point)
                acc = mla(m, w, s, acc)
                str_(m, scratch, acc)                 # (the accumulation goes through memory)
                v1 += t_bytes
                v2 += t_bytes
                cmp(m, 0, 0)
                bcc(m, True)
            scratch += 4
            cmp(m, 0, 0)
            bcc(m, True)
    # Add bias.
    cbz(m, bias_data == 0)
    for i in range(n_batch):
        for j in range(n_unit):
            out_ptr = scratch_output_tensor + 4 * (i * n_unit + j)
            value = ldr(m, bias_data + 4 * j) if bias_data != 0 else mov(m, 0)
            str_(m, out_ptr, value)
            cmp(m, 0, 0)
            bcc(m, True)
    # Reduce.
    for b in range(n_batch):
        scratch = scratch_tensor + 4 * b * n_filter
        ldr_sp(m)
        for i in range(n_unit):
            out_ptr = scratch_output_tensor + 4 * (b * n_unit + i)
            acc = ldr(m, out_ptr)
            for _ in range(n_rank):                   # output_temp_ptr[i] += *scratch_ptr_batch++;
                acc = add(m, acc, ldr(m, scratch))
                str_(m, out_ptr, acc)
                scratch += 4
                cmp(m, 0, 0)
                bcc(m, True)
            cmp(m, 0, 0)
            bcc(m, True)
    # Rescale.
    for i in range(n_batch * n_unit):
        x1 = ldr(m, scratch_output_tensor + 4 * i)
        ldr_sp(m)
        ldr_sp(m)
        bl(m)
        x2 = MultiplyByQuantizedMultiplier(m, x1, scale_2_a, scale_2_b)
        x3 = add(m, x2, output_zero_point)
        x4 = max_lt(m, x3, -128)                      # std::max(output_min, x3)
        x4 = min_ge(m, x4, 127)                       # std::min(.., output_max)
        ldr_sp(m)
        strb(m, output_data + i, x4)
        cmp(m, 0, 0)
        bcc(m, True)
    add(m, 0, 0)
    pop_pc(m, 9)


def reference_buffer_sizes(case):
    """TFLM's reference Prepare requests batch * filters, then batch * units int32 words."""
    n = case["input_dims"]["n"]
    features = case["weights_feature_dims"]["n"]
    return 4 * n * features, 4 * n * (features // case["svdf_params"]["rank"])


def reference_buffer_size(case):
    """Both buffers in one block (the harness's scratch), in request order."""
    return sum(reference_buffer_sizes(case))


def run_reference(m, case, addr, tracer):
    """Every input block of the case (num_steps), the state carried over in memory."""
    p = case["svdf_params"]
    n, n_input = case["input_dims"]["n"], case["input_dims"]["h"]
    features = case["weights_feature_dims"]["n"]
    t_bytes = 2 if case["family"] == "svdf_state_s16" else 1
    scratch_a = addr["scratch"]
    scratch_b = scratch_a + 4 * n * features
    for step in range(case.get("num_steps", 1)):
        run(EvalIntegerSvdfReference, m, t_bytes, p["rank"], n, n_input, features,
            case["weights_time_dims"]["h"], p["input_offset"], p.get("state_offset", 0),
            case["input_quant_params"]["multiplier"], case["input_quant_params"]["shift"],
            case["output_quant_params"]["multiplier"], case["output_quant_params"]["shift"],
            p["output_offset"], addr["input"] + step * n * n_input, addr["state"],
            addr["weights_feature"], addr["weights_time"], addr["bias"], scratch_a,
            scratch_b, addr["output"], tracer=tracer)
    return [NAME, MBQM]
