"""arm_maximum_s8 (Source/BasicMathFunctions/arm_maximum_s8.c), non-MVE code; its twin
arm_minimum_s8 (arm_minimum_s8.py) is the same C with MIN for MAX, so both run
`max_min_body` here.

    arm_cmsis_nn_status arm_maximum_s8(const cmsis_nn_context *ctx,
        const int8_t *input_1_data, const cmsis_nn_dims *input_1_dims,
        const int8_t *input_2_data, const cmsis_nn_dims *input_2_dims,
        int8_t *output_data, const cmsis_nn_dims *output_dims)

Equal shapes: one arm_max_no_broadcast_s8 over the flat size.  Otherwise a single-element
operand goes to arm_max_scalar_s8; else per output batch: equal h/w/c -> one
no-broadcast call, a single-element batch slice -> scalar; else per output row: equal
w/c -> no-broadcast, single element -> scalar; else per output pixel by channel count.
The pointer rewinds (width_*_diff, height_*_diff, batch_*_diff) are the C's.  The static
helpers are inlined by gcc -O2 (the measured call graph has no calls).  Per element:
two LDRSB, CMP, IT, the conditional MOV (MOVLT for max: it executes when in1 < in2; MOVGE
for min: when in1 >= in2 -- the measured failed-IT counts confirm both), STRB, CMP, BNE.
No ARM_MATH_DSP code: both builds run this C.

The C has a bug the port keeps: in the per-row loop, the scalar branches step the
one-element operand's pointer and then add height_*_diff, which is width_*_diff = c = 1
when the other row is wider, so that pointer advances two elements per row and the later
rows read past it ([1, H, 1, 1] against [1, H, W, C], W > 1; `families.maximum.
row_scalar_overrun`).  TFLM's CMSIS-NN build computes those outputs from whatever follows
the operand; TFLM's reference kernel (and its interpreter) does not.

Calibration (../shared/reference, gcc -O2): max_s8_1x8x8x32 (no broadcast) and
min_s8_2x4x6x16_bcast_1x1x6x16 (batch and height broadcast, per-row no-broadcast calls).
The element loop is the compiled one; the set-up and the per-batch / per-row bookkeeping
(loads of the spilled dims, pointer arithmetic, the diffs' compare-and-branch selects) are
FITTED to those two cases' mnemonic histograms, not read off a disassembly.  The scalar
and per-pixel paths have no measured case and are written by analogy.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, cmp, fitted_add, fitted_ldr_sp, fitted_ldrd_sp, fitted_mov,
                            fitted_str_sp, fitted_strd_sp, it, ldrsb, mov, mul, pop_pc, push, rsb,
                            strb, sub)


@kernel(inline=True)
def _select(m, in1, in2, is_max):
    """max: in1 >= in2 ? in1 : in2 (CMP; IT LT; MOVLT in1, in2);
    min: in1 >= in2 ? in2 : in1 (CMP; IT GE; MOVGE in1, in2)."""
    cmp(m, in1, in2)
    take = in1 < in2 if is_max else in1 >= in2
    it(m, not take)                                        # the MOV fails unless it takes in2
    if take:
        in1 = mov(m, in2)
    return in1


@kernel(inline=True)
def no_broadcast(m, input_1, input_2, output, flat_size, is_max):
    """arm_max_no_broadcast_s8 / arm_min_no_broadcast_s8 (inlined)."""
    cmp(m, flat_size, 0)                                   # while (flat_size > 0)
    bcc(m, flat_size <= 0)
    k = 0
    while k < flat_size:
        in1 = ldrsb(m, input_1 + k)                        # int8_t in1 = *input_1++;
        in2 = ldrsb(m, input_2 + k)                        # int8_t in2 = *input_2++;
        strb(m, output + k, _select(m, in1, in2, is_max))  # *output++ = ...;
        k += 1
        cmp(m, k, flat_size)                               # --flat_size (on an end pointer)
        bcc(m, k < flat_size)


@kernel(inline=True)
def scalar(m, input_1, input_2, output, flat_size, is_max):
    """arm_max_scalar_s8 / arm_min_scalar_s8 (inlined): input_1 is the single value."""
    in1 = ldrsb(m, input_1)                                # int8_t in1 = *input_1;
    cmp(m, flat_size, 0)
    bcc(m, flat_size <= 0)
    k = 0
    while k < flat_size:
        in2 = ldrsb(m, input_2 + k)                        # int8_t in2 = *input_2++;
        strb(m, output + k, _select(m, in1, in2, is_max))
        k += 1
        cmp(m, k, flat_size)
        bcc(m, k < flat_size)


@kernel(inline=True)
def _diff(m, a, b_, then, other):
    """x = a >= b ? then : other, as a compare and a branch (no IT block: measured)."""
    cmp(m, a, b_)
    bcc(m, a >= b_)
    return then if a >= b_ else other


@kernel
def max_min_body(m, is_max, input_1_data, n1, h1, w1, c1, input_2_data, n2, h2, w2, c2,
                 output_data, output_batch, output_height, output_width):
    push(m, 9)                                             # push {r4-r11, lr}
    sub(m, 0, 0)                                           # sub sp, sp, #frame
    for _ in range(4):                                     # the dims structs (fitted)
        fitted_ldrd_sp(m)
    fitted_ldr_sp(m)
    fitted_ldr_sp(m)
    flat_size_1 = mul(m, mul(m, mul(m, n1, h1), w1), c1)   # flat_size_1 = n * h * w * c;
    flat_size_2 = mul(m, mul(m, mul(m, n2, h2), w2), c2)
    for _ in range(3):
        fitted_str_sp(m)
        fitted_mov(m)
    broadcast = False                                      # arm_check_broadcast_required
    for a, b_ in ((n1, n2), (h1, h2), (w1, w2), (c1, c2)):
        if not broadcast:
            cmp(m, a, b_)
            bcc(m, a != b_)
            broadcast = a != b_
    if not broadcast:
        if m.dsp:                                          # (fitted; the M3 build loads
            fitted_ldrd_sp(m)                              #  these as single words)
            fitted_ldrd_sp(m)
            fitted_ldr_sp(m)
        else:
            for _ in range(4):
                fitted_ldr_sp(m)
        fitted_str_sp(m)
        fitted_str_sp(m)
        fitted_str_sp(m)
        fitted_ldr_sp(m)
        fitted_add(m)
        it(m, 1)                                           # (fitted: one IT whose MOV fails)
        b(m)
        no_broadcast(m, input_1_data, input_2_data, output_data, flat_size_1, is_max)
        mov(m, 0)                                          # return ARM_CMSIS_NN_SUCCESS;
        fitted_add(m)
        pop_pc(m, 9)
        return 0
    cmp(m, flat_size_1, 1)                                 # if (flat_size_1 == 1)
    bcc(m, flat_size_1 != 1)
    if flat_size_1 == 1:
        scalar(m, input_1_data, input_2_data, output_data, flat_size_2, is_max)
        pop_pc(m, 9)
        return 0
    cmp(m, flat_size_2, 1)                                 # else if (flat_size_2 == 1)
    bcc(m, flat_size_2 != 1)
    if flat_size_2 == 1:
        scalar(m, input_2_data, input_1_data, output_data, flat_size_1, is_max)
        pop_pc(m, 9)
        return 0
    width_1_diff = _diff(m, w1, w2, 0, c1)                 # input_1_width >= input_2_width ? 0 : c1
    width_2_diff = _diff(m, w2, w1, 0, c2)
    hd1 = mul(m, w1, rsb(m, width_1_diff, c1))
    height_1_diff = _diff(m, h1, h2, width_1_diff, -hd1)   # ... : -w1 * (c1 - width_1_diff)
    hd2 = mul(m, w2, rsb(m, width_2_diff, c2))
    height_2_diff = _diff(m, h2, h1, width_2_diff, -hd2)
    bd1 = mul(m, c1 * w1, h1)                              # (c1 * w1 shared with the above)
    batch_1_diff = _diff(m, n1, n2, bd1, 0)                # ... ? c1 * w1 * h1 : 0
    bd2 = mul(m, c2, w2)
    bd2 = mul(m, bd2, h2)
    batch_2_diff = _diff(m, n2, n1, bd2, 0)
    for _ in range(4):                                     # spills (fitted)
        fitted_strd_sp(m)
    fitted_ldrd_sp(m)
    fitted_str_sp(m)
    fitted_mov(m)
    b(m)
    cmp(m, output_batch, 0)                                # for (i_out_batch ...)
    bcc(m, output_batch <= 0)
    for i_out_batch in range(output_batch):
        for _ in range(9):                                 # spilled dims and pointers (fitted)
            fitted_ldr_sp(m)
        for _ in range(3):
            fitted_ldrd_sp(m)
        for _ in range(3):
            fitted_str_sp(m)
        for _ in range(5):
            fitted_add(m)
        fitted_mov(m)
        fitted_mov(m)
        input_1_ptr = mov(m, input_1_data)
        input_2_ptr = mov(m, input_2_data)
        fs1 = mul(m, h1, w1 * c1)                          # flat_size_1 = h * w * c;  (w * c hoisted)
        fs2 = mul(m, h2, w2 * c2)
        same = True                                        # h, w and c equal?
        for a, b_ in ((h1, h2), (w1, w2), (c1, c2)):
            if same:
                cmp(m, a, b_)
                bcc(m, a != b_)
                same = a == b_
        if same:
            no_broadcast(m, input_1_ptr, input_2_ptr, output_data, fs1, is_max)
            output_data = add(m, output_data, fs1)
        else:
            cmp(m, fs1, 1)
            bcc(m, fs1 != 1)
            if fs1 == 1:
                scalar(m, input_1_ptr, input_2_ptr, output_data, fs2, is_max)
                output_data = add(m, output_data, fs2)
            else:
                cmp(m, fs2, 1)
                bcc(m, fs2 != 1)
                if fs2 == 1:
                    scalar(m, input_2_ptr, input_1_ptr, output_data, fs1, is_max)
                    output_data = add(m, output_data, fs1)
                else:
                    fs1 = w1 * c1                          # flat_size_1 = w * c;  (hoisted)
                    fs2 = w2 * c2
                    for _ in range(2):
                        fitted_str_sp(m)
                        fitted_mov(m)
                    cmp(m, output_height, 0)
                    bcc(m, output_height <= 0)
                    for i_out_height in range(output_height):
                        for _ in range(5):                 # spilled state (fitted)
                            fitted_ldr_sp(m)
                        fitted_ldrd_sp(m)
                        fitted_str_sp(m)
                        for _ in range(3):
                            fitted_mov(m)
                        cmp(m, w1, w2)                     # if (w1 == w2 && c1 == c2)
                        bcc(m, w1 != w2)
                        row_same = w1 == w2
                        if row_same:
                            cmp(m, c1, c2)
                            bcc(m, c1 != c2)
                            row_same = c1 == c2
                        if row_same:
                            no_broadcast(m, input_1_ptr, input_2_ptr, output_data, fs1, is_max)
                            output_data = add(m, output_data, fs1)
                            input_1_ptr = add(m, input_1_ptr, fs1)
                            input_2_ptr = add(m, input_2_ptr, fs1)
                        elif fs1 == 1:
                            cmp(m, fs1, 1)
                            bcc(m, False)
                            scalar(m, input_1_ptr, input_2_ptr, output_data, fs2, is_max)
                            output_data = add(m, output_data, fs2)
                            input_1_ptr = add(m, input_1_ptr, 1)
                            input_2_ptr = add(m, input_2_ptr, fs2)
                        elif fs2 == 1:
                            cmp(m, fs1, 1)
                            bcc(m, True)
                            cmp(m, fs2, 1)
                            bcc(m, False)
                            scalar(m, input_2_ptr, input_1_ptr, output_data, fs1, is_max)
                            output_data = add(m, output_data, fs1)
                            input_2_ptr = add(m, input_2_ptr, 1)
                            input_1_ptr = add(m, input_1_ptr, fs1)
                        else:
                            cmp(m, fs1, 1)
                            bcc(m, True)
                            cmp(m, fs2, 1)
                            bcc(m, True)
                            cmp(m, output_width, 0)
                            bcc(m, output_width <= 0)
                            for i_out_width in range(output_width):
                                fitted_ldr_sp(m)
                                fitted_ldr_sp(m)
                                cmp(m, c1, c2)             # if (c1 == c2)
                                bcc(m, c1 != c2)
                                if c1 == c2:
                                    no_broadcast(m, input_1_ptr, input_2_ptr, output_data, c1,
                                                 is_max)
                                    output_data = add(m, output_data, c1)
                                    input_1_ptr = add(m, input_1_ptr, c1)
                                    input_2_ptr = add(m, input_2_ptr, c1)
                                else:
                                    cmp(m, c1, 1)          # else if (c1 == 1)
                                    bcc(m, c1 != 1)
                                    if c1 == 1:
                                        scalar(m, input_1_ptr, input_2_ptr, output_data, c2,
                                               is_max)
                                        output_data = add(m, output_data, c2)
                                        input_1_ptr = add(m, input_1_ptr, 1)
                                        input_2_ptr = add(m, input_2_ptr, c2)
                                    else:
                                        cmp(m, c2, 1)      # else if (c2 == 1)
                                        bcc(m, c2 != 1)
                                        if c2 == 1:
                                            scalar(m, input_2_ptr, input_1_ptr, output_data,
                                                   c1, is_max)
                                            output_data = add(m, output_data, c1)
                                            input_1_ptr = add(m, input_1_ptr, c1)
                                            input_2_ptr = add(m, input_2_ptr, 1)
                                input_1_ptr = sub(m, input_1_ptr, width_1_diff)
                                input_2_ptr = sub(m, input_2_ptr, width_2_diff)
                                cmp(m, i_out_width + 1, output_width)
                                bcc(m, i_out_width + 1 < output_width)
                        input_1_ptr = add(m, input_1_ptr, height_1_diff)
                        input_2_ptr = add(m, input_2_ptr, height_2_diff)
                        b(m)
                        cmp(m, i_out_height + 1, output_height)
                        bcc(m, i_out_height + 1 < output_height)
        input_1_data = add(m, input_1_data, batch_1_diff)  # input_1_data += batch_1_diff;
        input_2_data = add(m, input_2_data, batch_2_diff)
        b(m)
        sub(m, output_batch - i_out_batch, 1)              # (the batch loop counts down: SUBS)
        bcc(m, i_out_batch + 1 < output_batch)
    mov(m, 0)                                              # return ARM_CMSIS_NN_SUCCESS;
    fitted_add(m)
    pop_pc(m, 9)
    return 0


@kernel
def arm_maximum_s8(m, input_1_data, n1, h1, w1, c1, input_2_data, n2, h2, w2, c2,
                   output_data, output_batch, output_height, output_width):
    return max_min_body(m, True, input_1_data, n1, h1, w1, c1, input_2_data, n2, h2, w2, c2,
                        output_data, output_batch, output_height, output_width)
