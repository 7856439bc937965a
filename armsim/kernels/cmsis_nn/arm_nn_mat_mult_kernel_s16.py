"""arm_nn_mat_mult_kernel_s16 (Source/ConvolutionFunctions/arm_nn_mat_mult_kernel_s16.c),
non-MVE build.

    int16_t *arm_nn_mat_mult_kernel_s16(const int8_t *input_a, const int16_t *input_b,
        const int32_t output_ch, const int32_t *out_shift, const int32_t *out_mult,
        const int32_t activation_min, const int32_t activation_max, const int32_t num_col_a,
        const cmsis_nn_bias_data *const bias_data, int16_t *out_0)

Two output channels (rows of the int8 weights `input_a`) by two im2col columns (`input_b`,
int16) per pass: four int32 accumulators.  ARM_MATH_DSP: `uint16_t` count of four-column
steps (read_and_pad widens four weights, two q15x2 reads per column, eight SMLAD), then
`num_col_a_fast & 3` single columns (MLA); plain C: one column per step (four MLA).  With
an int32 bias every column is done that way and arm_nn_requantize scales; with an int64
bias only the first `num_col_a_fast = MIN(num_col_a, MAX_COL_COUNT)` columns are, the rest
(a `uint16_t` count on the DSP build) go into 64-bit accumulators (SMLALBB / SMLAL) and
arm_nn_requantize_s64 scales with REDUCE_MULTIPLIER per channel.  An odd last channel alone;
as in the C, its DSP tail counts `num_col_a & 3` columns (not `num_col_a_fast & 3`).

Transcribed from gcc 12.2 -O2's disassembly, -mcpu=cortex-m4 (`_m4_*`) and -mcpu=cortex-m3
(`_m3_*`); the addresses in the comments are the objects' offsets.  gcc requantizes a
channel's two columns together: one BIC for LEFT_SHIFT, and for shift > 0 it threads the
first value's rounding (a no-op: its remainder is 0) into the second's, which then runs
with remainder and threshold 0 when the first result is negative; for shift <= 0 the two
roundings interleave (ITE PL for the first threshold, IT PL / IT MI on the Cortex-M3 at
one site).  The int64 path's REDUCE_MULTIPLIER loads 0x7ffeffff from the literal pool
(`ldr_lit`); its 64-bit shift is LSR / LSL / SUBS / ORR with IT PL ASRPL, ORRPL.  Struct
field loads (the caller's cmsis_nn_bias_data, not placed in simulated memory) are issued
as stack-slot loads (`ldr_sp`, `ldrb_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bic, carry_of_add, cbnz, cbz, cmp, it,
                            ldr, ldr_lit, ldr_sp, ldrb_sp, ldrd, ldrd_sp, ldrh, ldrsb, ldrsh,
                            lsl, lsr, mla, mov, mul, orr, pkhbt, pkhtb, pop_pc, push, rsb,
                            smlabb, smlad, smlal, smlalbb, str_sp, strd_sp, strh, sub, sxtb16,
                            sxth, ubfx, umull, uxtah, uxth)
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_vec_mat_mult_t_s16 import MAX_COL_COUNT

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


# --- straight-line blocks (no branch inside), one per build --------------------------------

@kernel(inline=True)
def _m4_start(m):
    """num_col_a_slow, out_1, row_count = output_ch / 2 (ASRS: then BEQ) (0x2a-0x3e)."""
    ldr_sp(m)                             # 2a: ldr r2, [sp, #204]
    add(m, 0, 0)                          # 2c: add r3, r1, r1, lsr #31
    sub(m, 0, 0)                          # 30: sub r6, r2, #512
    lsl(m, 0, 0)                          # 34: lsls r2, r1, #1
    str_sp(m)                             # 36: str r2, [sp, #120]
    asr(m, 0, 0)                          # 38: asrs r0, r3, #1
    add(m, 0, 0)                          # 3a: add r2, r8, r1, lsl #1
    str_sp(m)                             # 3e: str r2, [sp, #116]


@kernel(inline=True)
def _m4_rows_setup_head(m):
    """The row loop's invariants (0x44-0x54)."""
    ldr_sp(m)                             # 44: ldr r2, [sp, #204]
    ldr_sp(m)                             # 46: ldr r3, [sp, #72]
    ldr_sp(m)                             # 48: ldr r5, [sp, #192]
    str_sp(m)                             # 4a: str r0, [sp, #56]
    add(m, 0, 0)                          # 4c: add r3, r3, r2, lsl #1
    cmp(m, 0, 0)                          # 50: cmp r4, #0
    str_sp(m)                             # 52: str r3, [sp, #84]
    mov(m, 0)                             # 54: mov r3, r4


@kernel(inline=True)
def _m4_rows_setup(m):
    """The row loop's invariants: the column loops' counts and ends, spilled (0x5a-0xb8)."""
    ubfx(m, 0, 0, 0)                      # 5a: ubfx r3, r3, #2, #16
    add(m, 0, 0)                          # 5e: adds r5, #8
    str_sp(m)                             # 60: str r3, [sp, #80]
    str_sp(m)                             # 62: str r5, [sp, #28]
    sub(m, 0, 0)                          # 64: subs r3, #1
    add(m, 0, 0)                          # 66: add r5, r8, #4
    uxth(m, 0, 0)                         # 6a: uxth r3, r3
    str_sp(m)                             # 6c: str r5, [sp, #52]
    add(m, 0, 0)                          # 6e: add r5, r8, r1, lsl #1
    add(m, 0, 0)                          # 72: adds r3, #1
    add(m, 0, 0)                          # 74: adds r5, #4
    str_sp(m)                             # 76: str r5, [sp, #48]
    lsl(m, 0, 0)                          # 78: lsls r5, r3, #2
    str_sp(m)                             # 7a: str r5, [sp, #60]
    ldr_sp(m)                             # 7c: ldr r5, [sp, #72]
    str_sp(m)                             # 7e: str r9, [sp, #148]
    add(m, 0, 0)                          # 82: add r5, r5, r3, lsl #3
    and_(m, 0, 0)                         # 86: and r2, r4, #3
    str_sp(m)                             # 8a: str r2, [sp, #96]
    str_sp(m)                             # 8c: str r5, [sp, #108]
    sub(m, 0, 0)                          # 8e: subs r2, #1
    ldr_sp(m)                             # 90: ldr r5, [sp, #84]
    str_sp(m)                             # 92: str r8, [sp, #212]
    uxth(m, 0, 0)                         # 96: uxth r2, r2
    add(m, 0, 0)                          # 98: adds r2, #1
    add(m, 0, 0)                          # 9a: add r3, r5, r3, lsl #3
    str_sp(m)                             # 9e: str r3, [sp, #104]
    lsl(m, 0, 0)                          # a0: lsls r3, r2, #1
    str_sp(m)                             # a2: str r3, [sp, #112]
    ldr_sp(m)                             # a4: ldr r3, [sp, #92]
    str_sp(m)                             # a6: str r3, [sp, #100]
    uxth(m, 0, 0)                         # a8: uxth r3, r6
    strd_sp(m)                            # aa: strd r3, r3, [sp, #124]
    strd_sp(m)                            # ae: strd r4, r6, [sp, #132]
    strd_sp(m)                            # b2: strd r0, r1, [sp, #140]
    str_sp(m)                             # b6: str r2, [sp, #76]
    add(m, 0, 0)                          # b8: add sl, r9, #8


@kernel(inline=True)
def _m4_pair_start(m):
    """A channel pair: ip_a1, the quad count tested (0xbc-0xc4)."""
    ldr_sp(m)                             # bc: ldr r3, [sp, #204]
    add(m, 0, 0)                          # be: add r1, fp, r3
    ldr_sp(m)                             # c2: ldr r3, [sp, #80]
    cmp(m, 0, 0)                          # c4: cmp r3, #0


@kernel(inline=True)
def _m4_no_quads(m):
    """No quad: the accumulators zeroed, B back (0x6d2-0x6e2)."""
    ldr_sp(m)                             # 6d2: ldr r3, [sp, #80]
    ldr_sp(m)                             # 6d4: ldr r5, [sp, #84]
    ldr_sp(m)                             # 6d6: ldr r0, [sp, #72]
    str_sp(m)                             # 6d8: str fp, [sp, #24]
    mov(m, 0)                             # 6dc: mov r8, r3
    mov(m, 0)                             # 6de: mov r9, r3
    mov(m, 0)                             # 6e0: mov r2, r3
    b(m)                                  # 6e2: b 154 <arm_nn_mat_mult_kernel_s16+0x154>


@kernel(inline=True)
def _m4_quads_start(m):
    """The quad loop's pointers, the accumulators zeroed (0xca-0xe2)."""
    ldr_sp(m)                             # ca: ldr r3, [sp, #60]
    ldr_sp(m)                             # cc: ldr r5, [sp, #84]
    ldr_sp(m)                             # ce: ldr r4, [sp, #72]
    str_sp(m)                             # d0: str r1, [sp, #4]
    strd_sp(m)                            # d2: strd r1, sl, [sp, #64]
    mov(m, 0)                             # d6: mov r8, #0
    add(m, 0, 0)                          # da: add r3, fp
    str_sp(m)                             # dc: str r3, [sp, #24]
    mov(m, 0)                             # de: mov r9, r8
    mov(m, 0)                             # e0: mov r2, r8
    mov(m, 0)                             # e2: mov r3, r8


@kernel(inline=True)
def _m4_quads_end(m):
    """The pointers after the quads (0x148-0x150)."""
    ldrd_sp(m)                            # 148: ldrd r1, sl, [sp, #64]
    ldr_sp(m)                             # 14c: ldr r0, [sp, #60]
    add(m, 0, 0)                          # 14e: add r1, r0
    ldrd_sp(m)                            # 150: ldrd r5, r0, [sp, #104]


@kernel(inline=True)
def _m4_tail_start(m):
    """The left-over columns' pointers (0x15c-0x16e)."""
    ldr_sp(m)                             # 15c: ldr r4, [sp, #24]
    ldr_sp(m)                             # 15e: ldr r6, [sp, #76]
    str_sp(m)                             # 160: str r1, [sp, #4]
    add(m, 0, 0)                          # 162: add lr, r4, r6
    mov(m, 0)                             # 166: mov ip, r5
    mov(m, 0)                             # 168: mov r6, r1
    mov(m, 0)                             # 16a: mov r7, r0
    mov(m, 0)                             # 16c: mov r1, r4
    str_sp(m)                             # 16e: str r0, [sp, #24]


@kernel(inline=True)
def _m4_tail_end(m):
    """The pointers after the left-over columns (0x194-0x1a0)."""
    ldr_sp(m)                             # 194: ldr r4, [sp, #76]
    ldr_sp(m)                             # 196: ldr r1, [sp, #4]
    ldr_sp(m)                             # 198: ldr r0, [sp, #24]
    add(m, 0, 0)                          # 19a: add r1, r4
    ldr_sp(m)                             # 19c: ldr r4, [sp, #112]
    add(m, 0, 0)                          # 19e: add r0, r4
    add(m, 0, 0)                          # 1a0: add r5, r4


@kernel(inline=True)
def _m4_row_end(m):
    """ip_a0 += num_col_a, out_0, out_1, out_mult, out_shift stepped, row_count-- (then BNE) (0x296-0x2b6)."""
    ldr_sp(m)                             # 296: ldr r3, [sp, #204]
    add(m, 0, 0)                          # 298: add fp, lr, r3
    ldr_sp(m)                             # 29c: ldr r3, [sp, #28]
    add(m, 0, 0)                          # 29e: adds r3, #8
    str_sp(m)                             # 2a0: str r3, [sp, #28]
    mov(m, 0)                             # 2a2: mov r3, r1
    add(m, 0, 0)                          # 2a4: adds r3, #4
    str_sp(m)                             # 2a6: str r3, [sp, #52]
    mov(m, 0)                             # 2a8: mov r3, r2
    add(m, 0, 0)                          # 2aa: adds r3, #4
    str_sp(m)                             # 2ac: str r3, [sp, #48]
    ldr_sp(m)                             # 2ae: ldr r3, [sp, #56]
    sub(m, 0, 0)                          # 2b0: subs r3, #1
    add(m, 0, 0)                          # 2b2: add sl, sl, #8
    str_sp(m)                             # 2b6: str r3, [sp, #56]


@kernel(inline=True)
def _m4_rows_end(m):
    """The pointers after the row loop (0x2bc-0x2e2)."""
    ldrd_sp(m)                            # 2bc: ldrd r0, r1, [sp, #140]
    ldr_sp(m)                             # 2c0: ldr r3, [sp, #192]
    ldr_sp(m)                             # 2c2: ldr r9, [sp, #148]
    ldr_sp(m)                             # 2c6: ldr r8, [sp, #212]
    add(m, 0, 0)                          # 2ca: add r3, r3, r0, lsl #3
    str_sp(m)                             # 2ce: str r3, [sp, #192]
    ldr_sp(m)                             # 2d0: ldr r3, [sp, #116]
    ldrd_sp(m)                            # 2d2: ldrd r4, r6, [sp, #132]
    add(m, 0, 0)                          # 2d6: add r3, r3, r0, lsl #2
    add(m, 0, 0)                          # 2da: add r9, r9, r0, lsl #3
    add(m, 0, 0)                          # 2de: add r8, r8, r0, lsl #2
    str_sp(m)                             # 2e2: str r3, [sp, #116]


@kernel(inline=True)
def _m4_int64_start(m):
    """The four sums widened to int64 and spilled, num_col_a against MAX_COL_COUNT (then BGT) (0x40a-0x42a)."""
    str_sp(m)                             # 40a: str r3, [sp, #32]
    asr(m, 0, 0)                          # 40c: asrs r3, r3, #31
    strd_sp(m)                            # 40e: strd r3, r2, [sp, #36]
    asr(m, 0, 0)                          # 412: asrs r3, r2, #31
    str_sp(m)                             # 414: str r3, [sp, #44]
    asr(m, 0, 0)                          # 416: mov r3, r9, asr #31
    strd_sp(m)                            # 41a: strd r3, r8, [sp, #12]
    asr(m, 0, 0)                          # 41e: mov r3, r8, asr #31
    str_sp(m)                             # 422: str r3, [sp, #20]
    ldr_sp(m)                             # 424: ldr r3, [sp, #204]
    str_sp(m)                             # 426: str r9, [sp, #8]
    cmp(m, 0, 0)                          # 42a: cmp r3, #512


@kernel(inline=True)
def _m4_slow_start(m):
    """The int64 column loop's pointers and accumulators (0x65c-0x670)."""
    ldr_sp(m)                             # 65c: ldr r3, [sp, #128]
    str_sp(m)                             # 65e: str sl, [sp, #4]
    ldrd_sp(m)                            # 662: ldrd r8, r9, [sp, #40]
    ldrd_sp(m)                            # 666: ldrd sl, fp, [sp, #32]
    add(m, 0, 0)                          # 66a: add r6, lr, r3
    mov(m, 0)                             # 66e: mov r7, r1
    mov(m, 0)                             # 670: mov ip, r0


@kernel(inline=True)
def _m4_slow_end(m):
    """The int64 accumulators spilled, B back (0x6a6-0x6b2)."""
    strd_sp(m)                            # 6a6: strd sl, fp, [sp, #32]
    strd_sp(m)                            # 6aa: strd r8, r9, [sp, #40]
    ldr_sp(m)                             # 6ae: ldr sl, [sp, #4]
    b(m)                                  # 6b2: b 432 <arm_nn_mat_mult_kernel_s16+0x432>


@kernel(inline=True)
def _m4_odd_start(m):
    """The odd channel: ip_b1, the quad count (then BEQ) (0x2ea-0x2f8)."""
    ldr_sp(m)                             # 2ea: ldr r3, [sp, #72]
    ldr_sp(m)                             # 2ec: ldr r1, [sp, #204]
    ubfx(m, 0, 0, 0)                      # 2ee: ubfx r2, r4, #2, #16
    add(m, 0, 0)                          # 2f2: add lr, r3, r1, lsl #1
    asr(m, 0, 0)                          # 2f6: asrs r4, r4, #2
    cmp(m, 0, 0)                          # 2f8: cmp r2, #0


@kernel(inline=True)
def _m4_odd_quads_start(m):
    """The odd channel's quad loop: its end, the accumulators zeroed (0x2fe-0x30c)."""
    uxth(m, 0, 0)                         # 2fe: uxth r7, r4
    mov(m, 0)                             # 300: movs r2, #0
    add(m, 0, 0)                          # 302: add ip, fp, r7, lsl #2
    mov(m, 0)                             # 306: mov r5, lr
    mov(m, 0)                             # 308: mov r4, r3
    mov(m, 0)                             # 30a: mov r1, r2
    str_sp(m)                             # 30c: str r6, [sp, #4]


@kernel(inline=True)
def _m4_odd_quads_end(m):
    """The pointers after the quads (0x344-0x34e)."""
    ldr_sp(m)                             # 344: ldr r3, [sp, #72]
    ldr_sp(m)                             # 346: ldr r6, [sp, #4]
    add(m, 0, 0)                          # 348: add r3, r3, r7, lsl #3
    str_sp(m)                             # 34c: str r3, [sp, #72]
    add(m, 0, 0)                          # 34e: add lr, lr, r7, lsl #3


@kernel(inline=True)
def _m4_odd_tail_start(m):
    """The odd channel's left-over columns: the loop's end (0x35c-0x362)."""
    ldr_sp(m)                             # 35c: ldr r4, [sp, #72]
    add(m, 0, 0)                          # 35e: add r3, ip, r0
    mov(m, 0)                             # 362: mov r5, lr


@kernel(inline=True)
def _m4_odd_tail_end(m):
    """The pointers after the left-over columns (0x37c-0x384)."""
    ldr_sp(m)                             # 37c: ldr r4, [sp, #72]
    add(m, 0, 0)                          # 37e: add r4, r4, r0, lsl #1
    str_sp(m)                             # 382: str r4, [sp, #72]
    add(m, 0, 0)                          # 384: add lr, lr, r0, lsl #1


@kernel(inline=True)
def _m3_start(m):
    """The row loop's invariants: the column loop's end, out_1, the pointers' spills (0x42-0x98)."""
    ldr_sp(m)                             # 42: ldr r1, [sp, #40]
    add(m, 0, 0)                          # 44: add r6, ip, #4
    ldr_sp(m)                             # 48: ldr r5, [sp, #28]
    add(m, 0, 0)                          # 4a: add r7, r6, r3, lsl #2
    str_sp(m)                             # 4e: str r1, [sp, #56]
    ldr_sp(m)                             # 50: ldr r1, [sp, #148]
    str_sp(m)                             # 52: str r7, [sp, #44]
    ldr_sp(m)                             # 54: ldr r7, [sp, #20]
    add(m, 0, 0)                          # 56: add r4, r5, r1, lsl #1
    str_sp(m)                             # 5a: str r4, [sp, #48]
    add(m, 0, 0)                          # 5c: add r4, r4, r7, lsl #1
    str_sp(m)                             # 60: str r4, [sp, #60]
    ldr_sp(m)                             # 62: ldr r4, [sp, #148]
    add(m, 0, 0)                          # 64: add r1, r8, #8
    sub(m, 0, 0)                          # 68: sub r4, r4, #512
    strd_sp(m)                            # 6c: strd r4, fp, [sp, #68]
    mov(m, 0)                             # 70: mov fp, r6
    str_sp(m)                             # 72: str r1, [sp, #8]
    add(m, 0, 0)                          # 74: add r1, sl, #8
    str_sp(m)                             # 78: str r1, [sp, #4]
    add(m, 0, 0)                          # 7a: add r1, r9, #4
    str_sp(m)                             # 7e: str r1, [sp, #16]
    lsl(m, 0, 0)                          # 80: lsls r1, r3, #2
    strd_sp(m)                            # 82: strd r9, r1, [sp, #76]
    strd_sp(m)                            # 86: strd r2, r8, [sp, #84]
    add(m, 0, 0)                          # 8a: add r5, r5, r7, lsl #1
    str_sp(m)                             # 8e: str r5, [sp, #52]
    str_sp(m)                             # 90: str sl, [sp, #136]
    str_sp(m)                             # 94: str ip, [sp, #156]
    str_sp(m)                             # 98: str r3, [sp, #92]


@kernel(inline=True)
def _m3_pair_start(m):
    """A channel pair: ip_a1, num_col_a_fast tested (0x9a-0xa0)."""
    ldr_sp(m)                             # 9a: ldr r3, [sp, #148]
    add(m, 0, 0)                          # 9c: adds r5, r0, r3
    ldr_sp(m)                             # 9e: ldr r3, [sp, #20]
    cmp(m, 0, 0)                          # a0: cmp r3, #0


@kernel(inline=True)
def _m3_no_cols(m):
    """No column: the accumulators zeroed, B on (0x5a8-0x5ba)."""
    ldr_sp(m)                             # 5a8: ldr r2, [sp, #20]
    mov(m, 0)                             # 5aa: mov r4, r0
    ldr_sp(m)                             # 5ac: ldr r0, [sp, #48]
    mov(m, 0)                             # 5ae: mov r7, r2
    mov(m, 0)                             # 5b0: mov r3, r2
    mov(m, 0)                             # 5b2: mov r1, r2
    mov(m, 0)                             # 5b4: mov ip, r0
    ldr_sp(m)                             # 5b6: ldr r9, [sp, #28]
    b(m)                                  # 5ba: b ea <arm_nn_mat_mult_kernel_s16+0xea>


@kernel(inline=True)
def _m3_cols_start(m):
    """The column loop's end and pointers, the accumulators zeroed (0xa6-0xb6)."""
    mov(m, 0)                             # a6: movs r7, #0
    add(m, 0, 0)                          # a8: adds r4, r0, r3
    mov(m, 0)                             # aa: mov sl, r5
    mov(m, 0)                             # ac: mov r3, r7
    mov(m, 0)                             # ae: mov r1, r7
    mov(m, 0)                             # b0: mov r2, r7
    ldr_sp(m)                             # b2: ldr r9, [sp, #48]
    ldr_sp(m)                             # b6: ldr r8, [sp, #28]


@kernel(inline=True)
def _m3_cols_end(m):
    """The pointers after the columns (0xde-0xe8)."""
    ldr_sp(m)                             # de: ldr r0, [sp, #20]
    ldr_sp(m)                             # e0: ldr r9, [sp, #52]
    add(m, 0, 0)                          # e4: add r5, r0
    ldr_sp(m)                             # e6: ldr r0, [sp, #60]
    mov(m, 0)                             # e8: mov ip, r0


@kernel(inline=True)
def _m3_row_end(m):
    """ip_a0 += num_col_a, out_0, out_1, out_mult, out_shift stepped (then BNE) (0x1e8-0x202)."""
    add(m, 0, 0)                          # 1e8: adds r0, r4, r3
    ldr_sp(m)                             # 1ea: ldr r3, [sp, #8]
    add(m, 0, 0)                          # 1ec: add fp, fp, #4
    add(m, 0, 0)                          # 1f0: adds r3, #8
    str_sp(m)                             # 1f2: str r3, [sp, #8]
    ldr_sp(m)                             # 1f4: ldr r3, [sp, #4]
    add(m, 0, 0)                          # 1f6: adds r3, #8
    str_sp(m)                             # 1f8: str r3, [sp, #4]
    mov(m, 0)                             # 1fa: mov r3, r2
    add(m, 0, 0)                          # 1fc: adds r3, #4
    str_sp(m)                             # 1fe: str r3, [sp, #16]
    ldr_sp(m)                             # 200: ldr r3, [sp, #44]
    cmp(m, 0, 0)                          # 202: cmp r3, fp


@kernel(inline=True)
def _m3_rows_end(m):
    """The pointers after the row loop (0x208-0x228)."""
    ldrd_sp(m)                            # 208: ldrd r1, r2, [sp, #80]
    ldrd_sp(m)                            # 20c: ldrd fp, r9, [sp, #72]
    ldr_sp(m)                             # 210: ldr r3, [sp, #92]
    ldr_sp(m)                             # 212: ldr r8, [sp, #88]
    ldr_sp(m)                             # 216: ldr sl, [sp, #136]
    ldr_sp(m)                             # 21a: ldr ip, [sp, #156]
    add(m, 0, 0)                          # 21e: add r8, r8, r3, lsl #3
    add(m, 0, 0)                          # 222: add sl, sl, r3, lsl #3
    add(m, 0, 0)                          # 226: add ip, r1
    add(m, 0, 0)                          # 228: add r9, r1


@kernel(inline=True)
def _m3_slow_start(m):
    """The int64 column loop's end and pointers (0x530-0x53c)."""
    str_sp(m)                             # 530: str fp, [sp, #64]
    mov(m, 0)                             # 534: mov fp, r2
    ldr_sp(m)                             # 536: ldr r6, [sp, #68]
    str_sp(m)                             # 538: str r5, [sp, #24]
    add(m, 0, 0)                          # 53a: adds r6, r4, r6
    str_sp(m)                             # 53c: str r6, [sp, #32]


@kernel(inline=True)
def _m3_odd_start(m):
    """The odd channel: ip_b1, num_col_a_fast tested (then BEQ) (0x22e-0x238)."""
    ldr_sp(m)                             # 22e: ldr r1, [sp, #28]
    ldr_sp(m)                             # 230: ldr r3, [sp, #148]
    ldr_sp(m)                             # 232: ldr r7, [sp, #20]
    add(m, 0, 0)                          # 234: add r2, r1, r3, lsl #1
    cmp(m, 0, 0)                          # 238: cmp r7, #0


@kernel(inline=True)
def _m3_odd_cols_start(m):
    """The odd channel's column loop: its end, the accumulators zeroed (0x23e-0x248)."""
    mov(m, 0)                             # 23e: mov lr, #0
    mov(m, 0)                             # 242: mov r4, r2
    mov(m, 0)                             # 244: mov r3, lr
    add(m, 0, 0)                          # 246: adds r6, r0, r7
    str_sp(m)                             # 248: str fp, [sp, #4]


@kernel(inline=True)
def _m3_odd_cols_end(m):
    """The pointers after the columns, ch_0_out_0 spilled (0x264-0x274)."""
    ldr_sp(m)                             # 264: ldr r1, [sp, #28]
    ldr_sp(m)                             # 266: ldr fp, [sp, #4]
    add(m, 0, 0)                          # 26a: add r1, r1, r7, lsl #1
    str_sp(m)                             # 26e: str lr, [sp, #20]
    str_sp(m)                             # 272: str r1, [sp, #28]
    add(m, 0, 0)                          # 274: add r2, r2, r7, lsl #1


# --- shared pieces of the inlined requantizations -------------------------------------------

@kernel(inline=True)
def _round_tail(m, result, remainder, threshold):
    """A rounding's end as gcc merges the paths: CMP result, #0; IT LT / ADDLT threshold;
    CMP; IT GT / ADDGT result (IT LT where gcc swapped the compare's operands); B."""
    cmp(m, result, 0)
    negative = result < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)                  # if (result < 0) threshold++;
    cmp(m, remainder, threshold)
    up = remainder > threshold
    it(m, not up)
    if up:
        result = add(m, result, 1)                        # if (remainder > threshold) result++;
    b(m)
    return result


@kernel(inline=True)
def _threshold_ite(m, result, threshold):
    """ITE PL / MOVPL threshold / ADDMI threshold + 1 (one of the two fails)."""
    it(m, 1)
    if result < 0:
        return add(m, threshold, 1)
    return mov(m, threshold)


@kernel(inline=True)
def _round_up(m, result, remainder, threshold):
    """CMP remainder, threshold; IT GT / ADDGT result, #1."""
    cmp(m, remainder, threshold)
    up = remainder > threshold
    it(m, not up)
    if up:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _shift64(m, p_lo, p_hi, n, n_left, paired_it):
    """(int32_t)(new_val >> n) of the product p_hi:p_lo: LSR, LSL, SUBS #32, ORR, then ITT PL
    (ASRPL, ORRPL) or two IT PL blocks: the high word's bits for n >= 32."""
    result = lsr(m, p_lo, n)
    high = lsl(m, p_hi, n_left)
    over = sub(m, n, 32)
    result = orr(m, result, high)
    if paired_it:
        it(m, 0 if over >= 0 else 2)
        if over >= 0:
            result = orr(m, result, asr(m, p_hi, over))
    else:
        it(m, 0 if over >= 0 else 1)
        top = 0
        if over >= 0:
            top = asr(m, p_hi, over)
        it(m, 0 if over >= 0 else 1)
        if over >= 0:
            result = orr(m, result, top)
    return result


@kernel(inline=True)
def _product64(m, lo, hi, reduced, sign):
    """val * reduced_multiplier, low 64 bits: MUL, MLA, UMULL, ADD."""
    cross = mul(m, lo, sign)
    cross = mla(m, reduced, hi, cross)
    p_lo, p_hi = umull(m, lo, reduced)
    return p_lo, add(m, p_hi, cross)


@kernel(inline=True)
def _reduce(m, mult, saturate_falls_through):
    """REDUCE_MULTIPLIER(mult) after the literal's LDR: CMP, then BGT to MOVW #0x7fff /
    MOVS #0 / B back, else ADD #0x8000, ASRS #16, ASRS #31 (with `saturate_falls_through`
    BLE to those three and B back, the saturation inline).  (reduced, its sign word)"""
    cmp(m, mult, 0x7FFEFFFF)
    big = mult > 0x7FFEFFFF
    bcc(m, big != saturate_falls_through)
    if big:
        reduced = mov(m, 0x7FFF)
        sign = mov(m, 0)
        if not saturate_falls_through:
            b(m)
        return reduced, sign
    rounded = add(m, mult, 1 << 15)
    reduced = asr(m, rounded, 16)
    sign = asr(m, rounded, 31)
    if saturate_falls_through:
        b(m)
    return reduced, sign


@kernel(inline=True)
def _add64(m, lo, hi, b_lo, b_hi):
    """int64 += int64: ADDS / ADC."""
    carry = carry_of_add(lo, b_lo)
    return add(m, lo, b_lo), adc(m, hi, b_hi, carry)


# --- Cortex-M4 (ARM_MATH_DSP) --------------------------------------------------------------

@kernel(inline=True)
def _m4_pair_requantize(m, v0, v1, mult_ptr, shift, second):
    """arm_nn_requantize of one channel's two columns (0x1c4 / 0x22e): LEFT_SHIFT by BIC,
    the first product, CMP shift / BLE.  shift > 0: the second product and, when the first
    result is negative, the second's rounding with remainder and threshold 0 (gcc threads
    the first's rounding, a no-op, into it); shift <= 0: both roundings interleaved."""
    left = bic(m, shift, shift >> 31)                     # LEFT_SHIFT(shift)
    mult = ldr(m, mult_ptr)                               # the channel's multiplier
    r0 = lsl(m, v0, left)
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, r0, mult)
    lo = lsr(m, lo, 31)
    cmp(m, shift, 0)
    r0 = orr(m, lo, hi << 1)
    bcc(m, shift <= 0)                                    # ble.w
    if shift > 0:
        if not second:
            cmp(m, r0, 0)
            bcc(m, r0 < 0)                                # blt.w
        r1 = lsl(m, v1, left)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, mult, r1)
        lo = lsr(m, lo, 31)
        if second:
            cmp(m, r0, 0)
        r1 = orr(m, lo, hi << 1)
        if second:
            bcc(m, r0 < 0)                                # blt.w
        if r0 < 0:
            mov(m, 0)                                     # remainder 0
            mov(m, 0)                                     # threshold 0
            b(m)
            r1 = _round_tail(m, r1, 0, 0)
        return r0, r1
    exponent = rsb(m, shift, 0)
    mask = sub(m, lsl(m, mov(m, 1), exponent), 1)         # (1 << exponent) - 1
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    lo, hi = smlal(m, lo, hi, mult, v1)
    remainder = and_(m, r0, mask)
    threshold = asr(m, mask, 1)
    r0 = asr(m, r0, exponent)
    lo = lsr(m, lo, 31)
    threshold_0 = _threshold_ite(m, r0, threshold)
    r1 = orr(m, lo, hi << 1)
    cmp(m, remainder, threshold_0)
    remainder_1 = and_(m, mask, r1)
    r1 = asr(m, r1, exponent)
    up = remainder > threshold_0
    it(m, not up)
    if up:
        r0 = add(m, r0, 1)
    r1 = _round_tail(m, r1, remainder_1, threshold)
    return r0, r1


@kernel(inline=True)
def _m4_min_store_second(m, r0, r1, act_max, out_0, out_1):
    """0x278: MIN of the second channel's two values, SXTH, the stores out_0[-1], out_1[-1]."""
    ldr_sp(m)                                             # 278: ldr r1, [sp, #200]
    r0 = min_ge(m, r0, act_max)
    r1 = min_ge(m, r1, act_max)
    ldr_sp(m)                                             # 286: ldr r1, [sp, #52]
    strh(m, out_0 + 2, sxth(m, r0, 0))                    # *out_0++ = (int16_t)ch_1_out_0;
    ldr_sp(m)                                             # 28e: ldr r2, [sp, #48]
    strh(m, out_1 + 2, sxth(m, r1, 0))                    # *out_1++ = (int16_t)ch_1_out_1;


@kernel(inline=True)
def _m4_requant_s64_pair(m, acc, mult_ptr, shift_ptr, act_min, act_max, out_0, out_1):
    """The int64 path's four arm_nn_requantize_s64 (0x480-0x5b2), two REDUCE_MULTIPLIERs,
    the MAX clamps of all four, the first channel's MIN and stores; the second channel's
    MIN and stores are the int32 path's (B 0x278)."""
    l00, h00, l01, h01, l10, h10, l11, h11 = acc
    ldr_sp(m)                                             # 480: ldr r3, [sp, #28]
    mult = ldr(m, mult_ptr)
    ldr_lit(m)
    reduced, sign = _reduce(m, mult, False)
    ldrd_sp(m)                                            # 496: ldrd r7, r8, [sp, #32]
    shift = ldr(m, shift_ptr)
    cross = mul(m, l00, sign)
    cross = mla(m, reduced, h00, cross)
    p_lo, p_hi = umull(m, l00, reduced)
    n = rsb(m, shift, 14)
    p_hi = add(m, p_hi, cross)
    n_left = add(m, shift, 18)
    over = sub(m, n, 32)
    high = lsl(m, p_hi, n_left)
    r00 = lsr(m, p_lo, n)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    r00 = orr(m, r00, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r00 = orr(m, r00, top)
    ldrd_sp(m)                                            # 4cc: ldrd r6, r7, [sp, #40]
    p_lo, p_hi = _product64(m, l01, h01, reduced, sign)
    r01 = lsr(m, p_lo, n)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    high = lsl(m, p_hi, n_left)
    ldr_sp(m)                                             # 4ec: ldr r3, [sp, #28]
    r01 = orr(m, r01, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r01 = orr(m, r01, top)
    mult = ldr(m, mult_ptr + 4)
    ldr_lit(m)
    r00 = add(m, r00, 1)
    r01 = add(m, r01, 1)
    r00 = asr(m, r00, 1)                                  # (the CMP of REDUCE_MULTIPLIER
    r01 = asr(m, r01, 1)                                  #  comes before these two)
    reduced, sign = _reduce(m, mult, False)
    ldrd_sp(m)                                            # 514: ldrd r8, r9, [sp, #8]
    shift = ldr(m, shift_ptr + 4)
    cross = mul(m, l10, sign)
    cross = mla(m, reduced, h10, cross)
    p_lo, p_hi = umull(m, l10, reduced)
    n = rsb(m, shift, 14)
    p_hi = add(m, p_hi, cross)
    n_left = add(m, shift, 18)
    high = lsl(m, p_hi, n_left)
    r10 = lsr(m, p_lo, n)
    r10 = orr(m, r10, high)
    ldrd_sp(m)                                            # 53a: ldrd r8, r9, [sp, #16]
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    mov(m, 0)                                             # 548: mov r7, r8
    p_lo, p_hi11 = _product64(m, l11, h11, reduced, sign)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r10 = orr(m, r10, top)
    ldr_sp(m)                                             # 55e: ldr r4, [sp, #196]
    r11 = _shift64(m, p_lo, p_hi11, n, n_left, True)
    r10 = add(m, r10, 1)
    r00 = max_lt(m, r00, act_min)
    r10 = asr(m, r10, 1)
    cmp(m, r01, act_min)                                  # MAX(ch_0_out_1, ...) with the
    r11 = add(m, r11, 1)                                  # ADD of the last rounding between
    clamp = r01 < act_min
    it(m, not clamp)
    if clamp:
        r01 = mov(m, act_min)
    r11 = asr(m, r11, 1)
    r10 = max_lt(m, r10, act_min)
    r11 = max_lt(m, r11, act_min)
    ldr_sp(m)                                             # 596: ldr r4, [sp, #200]
    r00 = min_ge(m, r00, act_max)
    ldr_sp(m)                                             # 59e: ldr r4, [sp, #52]
    strh(m, out_0, r00)                                   # *out_0++ = (int16_t)ch_0_out_0;
    ldr_sp(m)                                             # 5a4: ldr r0, [sp, #200]
    r01 = min_ge(m, r01, act_max)
    ldr_sp(m)                                             # 5ac: ldr r0, [sp, #48]
    strh(m, out_1, r01)                                   # *out_1++ = (int16_t)ch_0_out_1;
    b(m)                                                  # 5b2: b.n 278
    _m4_min_store_second(m, r10, r11, act_max, out_0, out_1)


@kernel(inline=True)
def _m4_channel_pair(m, ip_a0, input_b, num_col_a, quads, tail, is_int32_bias, bias,
                     out_mult, out_shift, act_min, act_max, out_0, out_1):
    """One pass of `while (row_count)` (0xbc-0x2b8).  Returns (ip_a0 past the pass's
    columns, bias)."""
    ip_b0 = input_b                                       # const int16_t *ip_b0 = input_b;
    ip_b1 = input_b + 2 * num_col_a                       # ip_b1 = ip_b0 + num_col_a;
    ip_a1 = ip_a0 + num_col_a                             # ip_a1 = ip_a0 + num_col_a;
    _m4_pair_start(m)
    bcc(m, quads == 0)                                    # beq.w 6d2
    c00 = 0
    c01 = 0
    c10 = 0
    c11 = 0
    if quads == 0:
        _m4_no_quads(m)
    else:
        _m4_quads_start(m)
        count = quads
        while count:
            b0 = ldr(m, ip_b0)                            # arm_nn_read_q15x2_ia(&ip_b0)
            b1 = ldr(m, ip_b1)                            # arm_nn_read_q15x2_ia(&ip_b1)
            in_a0 = ldr(m, ip_a0)                         # read_and_pad(ip_a0, &a01, &a02)
            ip_a0 += 4
            buf1 = sxtb16(m, in_a0, 8)
            ldr_sp(m)                                     # f4: ldr r7, [sp, #4]  ip_a1
            buf2 = sxtb16(m, in_a0, 0)
            in_a1 = ldr(m, ip_a1)                         # read_and_pad(ip_a1, &a11, &a12)
            ip_a1 += 4
            str_sp(m)                                     # fe: str r7, [sp, #4]
            a02 = pkhtb(m, buf1, buf2, 16)
            a01 = pkhbt(m, buf2, buf1, 16)
            buf1 = sxtb16(m, in_a1, 8)
            buf2 = sxtb16(m, in_a1, 0)
            a12 = pkhtb(m, buf1, buf2, 16)
            a11 = pkhbt(m, buf2, buf1, 16)
            c00 = smlad(m, a01, b0, c00)
            c01 = smlad(m, a01, b1, c01)
            c10 = smlad(m, a11, b0, c10)
            c11 = smlad(m, a11, b1, c11)
            b0 = ldr(m, ip_b0 + 4)
            b1 = ldr(m, ip_b1 + 4)
            ip_b0 = add(m, ip_b0, 8)
            ip_b1 = add(m, ip_b1, 8)
            c00 = smlad(m, a02, b0, c00)
            c01 = smlad(m, a02, b1, c01)
            c10 = smlad(m, a12, b0, c10)
            c11 = smlad(m, a12, b1, c11)
            ldr_sp(m)                                     # 142: ldr r1, [sp, #24]
            count -= 1                                    # col_count--: a pointer compare
            cmp(m, count, 0)
            bcc(m, count != 0)                            # bne
        _m4_quads_end(m)
    ldr_sp(m)                                             # 154: ldr r4, [sp, #96]
    cmp(m, tail, 0)                                       # col_count = num_col_a_fast & 0x3;
    bcc(m, tail == 0)                                     # beq.w 5b4
    if tail == 0:
        ldr_sp(m)                                         # 5b4: ldr.w lr, [sp, #24]
        b(m)
    else:
        _m4_tail_start(m)
        count = tail
        while count:
            a0 = ldrsb(m, ip_a0)                          # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrsh(m, ip_b0)                          # int16_t b0 = *ip_b0++;
            ip_b0 += 2
            a1 = ldrsb(m, ip_a1)                          # int8_t a1 = *ip_a1++;
            ip_a1 += 1
            c00 = mla(m, b0, a0, c00)                     # ch_0_out_0 += a0 * b0;
            c10 = mla(m, b0, a1, c10)                     # ch_1_out_0 += a1 * b0;
            b1 = ldrsh(m, ip_b1)                          # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            count -= 1                                    # col_count--: a pointer compare
            cmp(m, count, 0)
            c01 = mla(m, b1, a0, c01)                     # ch_0_out_1 += a0 * b1;
            c11 = mla(m, b1, a1, c11)                     # ch_1_out_1 += a1 * b1;
            bcc(m, count != 0)
        _m4_tail_end(m)
    ldr_sp(m)                                             # 1a2: ldr r4, [sp, #88]
    cmp(m, is_int32_bias, 0)                              # if (is_int32_bias)
    bcc(m, not is_int32_bias)                             # beq.w 40a
    if is_int32_bias:
        ldr_sp(m)                                         # 1aa: ldr r0, [sp, #100]  bias_s32
        cbz(m, bias == 0)                                 # if (bias_s32)
        if bias != 0:
            b_0 = ldr(m, bias)
            c00 = add(m, c00, b_0)                        # ch_0_out_0 += *bias_s32;
            c01 = add(m, c01, b_0)                        # ch_0_out_1 += *bias_s32++;
            b_1 = ldr(m, bias + 4)
            bias = add(m, bias, 8)
            str_sp(m)                                     # 1b8: str r0, [sp, #100]
            c10 = add(m, c10, b_1)
            c11 = add(m, c11, b_1)
        shift = ldr(m, out_shift)                         # 1be: ldr.w r5, [sl, #-8]
        ldr_sp(m)                                         # 1c2: ldr r1, [sp, #28]
        r00, r01 = _m4_pair_requantize(m, c00, c01, out_mult, shift, False)
        ldr_sp(m)                                         # 1fe: ldr r2, [sp, #196]
        r00 = max_lt(m, r00, act_min)                     # MAX(ch_0_out_0, activation_min)
        r01 = max_lt(m, r01, act_min)
        ldr_sp(m)                                         # 20c: ldr r2, [sp, #200]
        r00 = min_ge(m, r00, act_max)                     # MIN(ch_0_out_0, activation_max)
        ldr_sp(m)                                         # 214: ldr r2, [sp, #52]
        strh(m, out_0, r00)                               # *out_0++ = (int16_t)ch_0_out_0;
        ldr_sp(m)                                         # 21a: ldr r2, [sp, #200]
        r01 = min_ge(m, r01, act_max)
        ldr_sp(m)                                         # 222: ldr r2, [sp, #48]
        strh(m, out_1, r01)                               # *out_1++ = (int16_t)ch_0_out_1;
        shift = ldr(m, out_shift + 4)                     # 228: ldr.w r3, [sl, #-4]
        ldr_sp(m)                                         # 22c: ldr r2, [sp, #28]
        r10, r11 = _m4_pair_requantize(m, c10, c11, out_mult + 4, shift, True)
        ldr_sp(m)                                         # 26a: ldr r1, [sp, #196]
        r10 = max_lt(m, r10, act_min)
        r11 = max_lt(m, r11, act_min)
        _m4_min_store_second(m, r10, r11, act_max, out_0, out_1)
    else:
        _m4_int64_start(m)
        bcc(m, num_col_a > MAX_COL_COUNT)                 # bgt.w 654
        l00 = c00
        h00 = c00 >> 31
        l01 = c01
        h01 = c01 >> 31
        l10 = c10
        h10 = c10 >> 31
        l11 = c11
        h11 = c11 >> 31
        if num_col_a > MAX_COL_COUNT:                     # if (num_col_a > MAX_COL_COUNT)
            ldr_sp(m)                                     # 654: ldr r3, [sp, #124]
            count = (num_col_a - MAX_COL_COUNT) & 0xFFFF  # uint16_t col_count = num_col_a_slow
            cmp(m, count, 0)
            bcc(m, count == 0)                            # beq.w 432
            if count:
                _m4_slow_start(m)
                while count:
                    ldrd_sp(m)                            # 672: ldrd r0, r1, [sp, #8]
                    b0 = ldrsh(m, ip_b0)
                    ip_b0 += 2
                    a1 = ldrsb(m, ip_a1)
                    ip_a1 += 1
                    a0 = ldrsb(m, ip_a0)
                    ip_a0 += 1
                    l10, h10 = smlalbb(m, l10, h10, b0, a1)   # ch_1_out_0_s64 += a1 * b0;
                    strd_sp(m)
                    ldrd_sp(m)
                    l00, h00 = smlalbb(m, l00, h00, b0, a0)   # ch_0_out_0_s64 += a0 * b0;
                    b1 = ldrsh(m, ip_b1)
                    ip_b1 += 2
                    count -= 1                            # a pointer compare
                    cmp(m, count, 0)
                    l11, h11 = smlalbb(m, l11, h11, b1, a1)   # ch_1_out_1_s64 += a1 * b1;
                    strd_sp(m)
                    l01, h01 = smlalbb(m, l01, h01, b1, a0)   # ch_0_out_1_s64 += a0 * b1;
                    bcc(m, count != 0)
                _m4_slow_end(m)
        ldr_sp(m)                                         # 432: ldr r3, [sp, #92]  bias_s64
        cbz(m, bias == 0)                                 # if (bias_s64)
        if bias != 0:
            ldrd_sp(m)                                    # 436: ldrd r5, r6, [sp, #32]
            b_lo = ldr(m, bias)
            mov(m, 0)                                     # 43c: mov ip, r3
            b_hi, b1_lo = ldrd(m, bias + 4)
            l00, h00 = _add64(m, l00, h00, b_lo, b_hi)    # ch_0_out_0_s64 += *bias_s64;
            ldrd_sp(m)                                    # 448: ldrd r6, r7, [sp, #40]
            strd_sp(m)
            carry = carry_of_add(l01, b_lo)
            l01 = add(m, l01, b_lo)                       # ch_0_out_1_s64 += *bias_s64++;
            ldrd_sp(m)                                    # 452: ldrd r4, r5, [sp, #8]
            h01 = adc(m, h01, b_hi, carry)
            strd_sp(m)
            b1_hi = ldr(m, bias + 12)
            carry = carry_of_add(l10, b1_lo)
            l10 = add(m, l10, b1_lo)                      # ch_1_out_0_s64 += *bias_s64;
            bias = add(m, bias, 16)
            str_sp(m)                                     # 468: str r1, [sp, #92]
            h10 = adc(m, h10, b1_hi, carry)
            ldrd_sp(m)                                    # 46e: ldrd r5, r6, [sp, #16]
            l11, h11 = _add64(m, l11, h11, b1_lo, b1_hi)  # ch_1_out_1_s64 += *bias_s64++;
            strd_sp(m)
            strd_sp(m)
        _m4_requant_s64_pair(m, (l00, h00, l01, h01, l10, h10, l11, h11), out_mult,
                             out_shift, act_min, act_max, out_0, out_1)
    ip_a0 += num_col_a                                    # ip_a0 += num_col_a;  (skip row)
    _m4_row_end(m)
    return ip_a0, bias


@kernel(inline=True)
def _m4_odd_requantize(m, v0, v1, mult, shift):
    """The odd channel's two arm_nn_requantize (0x39a-0x3d6 and the branches it takes): the
    first product's MOV #1 << 30 and MOVS #0 kept for the second."""
    left = bic(m, shift, shift >> 31)
    lo = mov(m, 1 << 30)
    r0 = lsl(m, v0, left)
    hi = mov(m, 0)                                        # 3b0: mov r7, r4
    lo = mov(m, lo)                                       # 3b2: mov r1, r3
    lo, hi = smlal(m, lo, hi, r0, mult)
    lo = lsr(m, lo, 31)
    cmp(m, shift, 0)
    r0 = orr(m, lo, hi << 1)
    bcc(m, shift <= 0)                                    # ble.w 7f6
    if shift > 0:
        cmp(m, r0, 0)
        bcc(m, r0 < 0)                                    # blt.w 84a
        r1 = lsl(m, v1, left)
        if r0 < 0:
            lo = mov(m, 1 << 30)                          # 84c: mov r0, r3
            hi = mov(m, 0)                                # 84e: mov r3, r4
        lo, hi = smlal(m, 1 << 30, 0, mult, r1)
        lo = lsr(m, lo, 31)
        r1 = orr(m, lo, hi << 1)
        if r0 < 0:
            mov(m, 0)                                     # 85a: mov r6, r4  threshold 0
            mov(m, 0)                                     # 85c: mov r2, r4  remainder 0
            b(m)
            r1 = _round_tail(m, r1, 0, 0)
        return r0, r1
    exponent = rsb(m, shift, 0)
    one = mov(m, 1)
    one = lsl(m, one, exponent)
    lo, hi = smlal(m, 1 << 30, 0, mult, v1)
    mask = add(m, one, -1)                                # (1 << exponent) - 1
    lo = lsr(m, lo, 31)
    remainder = and_(m, r0, mask)
    threshold = asr(m, mask, 1)
    r0 = asr(m, r0, exponent)
    r1 = orr(m, lo, hi << 1)
    remainder_1 = and_(m, mask, r1)
    r1 = asr(m, r1, exponent)
    threshold_0 = _threshold_ite(m, r0, threshold)
    r0 = _round_up(m, r0, remainder, threshold_0)
    r1 = _round_tail(m, r1, remainder_1, threshold)
    return r0, r1


@kernel(inline=True)
def _m4_odd_channel(m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias,
                    out_mult, out_shift, act_min, act_max, out_0, out_1):
    """`if (output_ch & 0x1)` (0x2ea-0x3fe, 0x6e8-0x7e8).  Returns out_0 + 1 (the caller
    adds output_ch); the int64 path returns from the function itself (the second element:
    True)."""
    ip_b0 = input_b
    ip_b1 = input_b + 2 * num_col_a                       # ip_b1 = ip_b0 + num_col_a;
    quads = (num_col_a_fast >> 2) & 0xFFFF                # uint16_t col_count = fast >> 2;
    _m4_odd_start(m)
    bcc(m, quads == 0)                                    # beq.w 83a
    c00 = 0
    c01 = 0
    if quads == 0:
        mov(m, 0)                                         # 83a: mov ip, fp
        mov(m, 0)                                         # 83c: mov r1, r2
        b(m)
    else:
        _m4_odd_quads_start(m)
        count = quads
        while count:
            in_a = ldr(m, ip_a0)                          # read_and_pad(ip_a0, &a01, &a02)
            ip_a0 += 4
            buf1 = sxtb16(m, in_a, 8)
            buf2 = sxtb16(m, in_a, 0)
            b0 = ldr(m, ip_b0)                            # arm_nn_read_q15x2_ia(&ip_b0)
            a02 = pkhtb(m, buf1, buf2, 16)
            a01 = pkhbt(m, buf2, buf1, 16)
            c00 = smlad(m, a01, b0, c00)
            b1 = ldr(m, ip_b1)
            c01 = smlad(m, a01, b1, c01)
            b0 = ldr(m, ip_b0 + 4)
            b1 = ldr(m, ip_b1 + 4)
            ip_b0 = add(m, ip_b0, 8)
            ip_b1 = add(m, ip_b1, 8)
            c00 = smlad(m, a02, b0, c00)
            c01 = smlad(m, a02, b1, c01)
            count -= 1                                    # a pointer compare
            cmp(m, count, 0)
            bcc(m, count != 0)
        _m4_odd_quads_end(m)
    ldr_sp(m)                                             # 352: ldr r3, [sp, #204]
    rest = and_(m, num_col_a, 3)                          # col_count = num_col_a & 0x3;
    bcc(m, rest == 0)                                     # beq.w 840
    if rest == 0:
        mov(m, 0)                                         # 840: mov r3, ip
        b(m)
    else:
        _m4_odd_tail_start(m)
        while rest:
            a0 = ldrsb(m, ip_a0)                          # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrh(m, ip_b0)                           # int16_t b0 = *ip_b0++;
            ip_b0 += 2
            c00 = smlabb(m, b0, a0, c00)                  # ch_0_out_0 += a0 * b0;
            b1 = ldrh(m, ip_b1)                           # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            rest -= 1                                     # a pointer compare
            cmp(m, rest, 0)
            c01 = smlabb(m, b1, a0, c01)                  # ch_0_out_1 += a0 * b1;
            bcc(m, rest != 0)
        _m4_odd_tail_end(m)
    ldr_sp(m)                                             # 388: ldr r0, [sp, #88]
    cmp(m, is_int32_bias, 0)                              # if (is_int32_bias)
    bcc(m, not is_int32_bias)                             # beq.w 6e8
    if is_int32_bias:
        ldr_sp(m)                                         # 390: ldr r3, [sp, #100]
        cbz(m, bias == 0)                                 # if (bias_s32)
        if bias != 0:
            b_0 = ldr(m, bias)
            c00 = add(m, c00, b_0)
            c01 = add(m, c01, b_0)
        shift = ldr(m, out_shift)                         # 39a: ldr.w r0, [r9]
        ldr_sp(m)                                         # 39e: ldr r3, [sp, #192]
        mov(m, 0)                                         # 3a0: movs r4, #0
        mult = ldr(m, out_mult)                           # 3a2: ldr r5, [r3]
        r0, r1 = _m4_odd_requantize(m, c00, c01, mult, shift)
        ldr_sp(m)                                         # 3d8: ldr r0, [sp, #196]
        r0 = max_lt(m, r0, act_min)
        r1 = max_lt(m, r1, act_min)
        ldr_sp(m)                                         # 3e6: ldr r0, [sp, #200]
        mov(m, 0)                                         # 3e8: mov r2, r8
        r0 = min_ge(m, r0, act_max)
        strh(m, out_0, r0)                                # *out_0++ = (int16_t)ch_0_out_0;
        cmp(m, r1, act_max)                               # MIN(ch_0_out_1, ...) with a
        ldr_sp(m)                                         # reload between the CMP and IT
        clamp = r1 >= act_max
        it(m, not clamp)
        if clamp:
            r1 = mov(m, act_max)
        strh(m, out_1, r1)                                # *out_1++ = (int16_t)ch_0_out_1;
        mov(m, 0)                                         # 3fe: mov r8, r2
        return False
    mov(m, 0)                                             # 6e8: mov sl, r2
    h00 = asr(m, c00, 31)                                 # int64_t ch_0_out_0_s64 = ...;
    l00 = c00
    ldr_sp(m)                                             # 6ee: ldr r2, [sp, #204]
    cmp(m, num_col_a, MAX_COL_COUNT)                      # if (num_col_a > MAX_COL_COUNT)
    mov(m, 0)                                             # 6f4: mov r4, r1
    h01 = asr(m, c01, 31)
    l01 = c01
    bcc(m, num_col_a <= MAX_COL_COUNT)                    # ble.n 726
    if num_col_a > MAX_COL_COUNT:
        count = uxth(m, num_col_a - MAX_COL_COUNT, 0)     # uint16_t col_count = num_col_a_slow
        cbz(m, count == 0)
        if count:
            uxtah(m, ip_a0, num_col_a - MAX_COL_COUNT, 0)  # 700: the loop's end
            ldr_sp(m)                                     # 704: ldr r6, [sp, #72]
            mov(m, 0)                                     # 706: mov r0, sl
            mov(m, 0)                                     # 708: mov r1, fp
            while count:
                a0 = ldrsb(m, ip_a0)
                ip_a0 += 1
                b0 = ldrh(m, ip_b0)
                ip_b0 += 2
                l00, h00 = smlalbb(m, l00, h00, b0, a0)   # ch_0_out_0_s64 += a0 * b0;
                b1 = ldrh(m, ip_b1)
                ip_b1 += 2
                count -= 1                                # a pointer compare
                cmp(m, count, 0)
                l01, h01 = smlalbb(m, l01, h01, b1, a0)   # ch_0_out_1_s64 += a0 * b1;
                bcc(m, count != 0)
            mov(m, 0)                                     # 722: mov sl, r0
            mov(m, 0)                                     # 724: mov fp, r1
    ldr_sp(m)                                             # 726: ldr r2, [sp, #92]
    cbz(m, bias == 0)                                     # if (bias_s64)
    if bias != 0:
        b_lo = ldr(m, bias)
        b_hi = ldr(m, bias + 4)
        l00, h00 = _add64(m, l00, h00, b_lo, b_hi)        # ch_0_out_0_s64 += *bias_s64;
        l01, h01 = _add64(m, l01, h01, b_lo, b_hi)        # ch_0_out_1_s64 += *bias_s64++;
        for _ in range(4):
            mov(m, 0)                                     # 73c-742: the sums back in place
    ldr_sp(m)                                             # 744: ldr r3, [sp, #192]
    ldr_lit(m)
    mult = ldr(m, out_mult)                               # REDUCE_MULTIPLIER(*out_mult)
    reduced, sign = _reduce(m, mult, True)
    shift = ldr(m, out_shift)                             # 754: ldr.w r2, [r9]
    ldr_sp(m)                                             # 758: ldr r0, [sp, #196]
    p_lo, p_hi = _product64(m, l00, h00, reduced, sign)
    n_left = add(m, shift, 18)
    n = rsb(m, shift, 14)
    r0 = lsr(m, p_lo, n)
    high = lsl(m, p_hi, n_left)
    r0 = orr(m, r0, high)
    cross = mul(m, l01, sign)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    cross = mla(m, reduced, h01, cross)
    q_lo, q_hi = umull(m, l01, reduced)
    q_hi = add(m, q_hi, cross)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r0 = orr(m, r0, top)
    high = lsl(m, q_hi, n_left)
    r1 = lsr(m, q_lo, n)
    r0 = add(m, r0, 1)                                    # (result + 1) >> 1
    over = sub(m, n, 32)
    r0 = asr(m, r0, 1)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, q_hi, over)
    r1 = orr(m, r1, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r1 = orr(m, r1, top)
    r0 = max_lt(m, r0, act_min)                           # MAX(ch_0_out_0, activation_min)
    ldr_sp(m)                                             # 7bc: ldr r0, [sp, #200]
    mov(m, 0)                                             # 7be: mov r1, r8
    r0 = min_ge(m, r0, act_max)
    strh(m, out_0, r0)                                    # *out_0++ = (int16_t)ch_0_out_0;
    r1 = add(m, r1, 1)
    ldr_sp(m)                                             # 7cc: ldr r2, [sp, #196]
    r1 = asr(m, r1, 1)
    r1 = max_lt(m, r1, act_min)
    r1 = min_ge(m, r1, act_max)
    ldr_sp(m)                                             # 7dc: ldr r0, [sp, #120]
    ldr_sp(m)                                             # 7de: ldr r2, [sp, #116]
    mov(m, 0)                                             # 7e0: mov r8, r1
    add(m, 0, 0)                                          # 7e2: add r0, r8  (the return)
    strh(m, out_1, r1)                                    # *out_1++ = (int16_t)ch_0_out_1;
    add(m, 0, 0)                                          # add sp, #frame
    pop_pc(m, 9)
    return True


# --- Cortex-M3 (plain C) -------------------------------------------------------------------

@kernel(inline=True)
def _m3_first_requantize(m, c00, c01, mult_ptr, shift_ptr):
    """The first channel's two arm_nn_requantize (0x108-0x14c and the branches it takes)."""
    ldr_sp(m)                                             # 108: ldr r0, [sp, #8]
    hi = mov(m, 0)
    shift = ldr(m, shift_ptr)
    ldr_sp(m)                                             # 112: ldr r0, [sp, #4]
    left = bic(m, shift, shift >> 31)                     # LEFT_SHIFT(shift)
    mult = ldr(m, mult_ptr)
    lo = mov(m, 1 << 30)
    r0 = lsl(m, c00, left)
    lo, hi = smlal(m, lo, hi, r0, mult)
    cmp(m, shift, 0)
    lo = lsr(m, lo, 31)
    r0 = orr(m, lo, hi << 1)
    bcc(m, shift <= 0)                                    # ble.w 4de
    if shift > 0:
        cmp(m, r0, 0)
        bcc(m, r0 < 0)                                    # blt.w 58a
        r1 = lsl(m, c01, left)
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, mult, r1)
        lo = lsr(m, lo, 31)
        r1 = orr(m, lo, hi << 1)
        if r0 < 0:
            mov(m, 0)                                     # 5a0: mov.w ip, #0  remainder
            mov(m, 0)                                     # 5a4: mov lr, ip    threshold
            b(m)
            r1 = _round_tail(m, r1, 0, 0)
        return r0, r1, mult
    one = mov(m, 1)
    exponent = rsb(m, shift, 0)
    mask = add(m, lsl(m, one, exponent), -1)              # (1 << exponent) - 1
    threshold = asr(m, mask, one)
    hi = mov(m, 0)
    lo = mov(m, 1 << 30)
    remainder = and_(m, r0, mask)
    r0 = asr(m, r0, exponent)
    lo, hi = smlal(m, lo, hi, mult, c01)
    negative = r0 < 0
    it(m, negative)                                       # it pl
    threshold_0 = threshold
    if not negative:
        threshold_0 = mov(m, threshold)
    lo = lsr(m, lo, 31)
    it(m, not negative)                                   # it mi
    if negative:
        threshold_0 = add(m, threshold, 1)
    r1 = orr(m, lo, hi << 1)
    r0 = _round_up_cmp(m, r0, remainder, threshold_0)
    remainder_1 = and_(m, mask, r1)
    r1 = asr(m, r1, exponent)
    r0 = _round_up_it(m, r0, remainder, threshold_0)
    r1 = _round_tail(m, r1, remainder_1, threshold)
    return r0, r1, mult


@kernel(inline=True)
def _round_up_cmp(m, result, remainder, threshold):
    cmp(m, remainder, threshold)
    return result


@kernel(inline=True)
def _round_up_it(m, result, remainder, threshold):
    up = remainder > threshold
    it(m, not up)
    if up:
        result = add(m, result, 1)
    return result


@kernel(inline=True)
def _m3_second_requantize(m, c10, c11, mult, shift):
    """The second channel's two arm_nn_requantize after its first product (0x19e-0x1b8 and
    the branches it takes).  `c10` is its first product's result."""
    bcc(m, shift <= 0)                                    # ble.w 49a
    if shift > 0:
        left = shift
        cmp(m, c10, 0)
        r1 = lsl(m, c11, left)
        bcc(m, c10 < 0)                                   # blt.w 574
        lo = mov(m, 1 << 30)
        hi = mov(m, 0)
        lo, hi = smlal(m, lo, hi, mult, r1)
        r1 = lsr(m, lo, 31)
        if c10 < 0:
            mov(m, 0)                                     # 580: movs r2, #0  remainder
        r1 = orr(m, r1, hi << 1)
        if c10 < 0:
            mov(m, 0)                                     # 586: mov r0, r2  threshold
            b(m)
            r1 = _round_tail(m, r1, 0, 0)
        return c10, r1
    lo = mov(m, 1 << 30)
    hi = mov(m, 0)
    one = mov(m, 1)
    lo, hi = smlal(m, lo, hi, mult, c11)
    exponent = rsb(m, shift, 0)
    mask = sub(m, lsl(m, one, exponent), 1)
    lo = lsr(m, lo, 31)
    r1 = orr(m, lo, hi << 1)
    remainder = and_(m, c10, mask)
    threshold = asr(m, mask, 1)
    r0 = asr(m, c10, exponent)
    remainder_1 = and_(m, mask, r1)
    r1 = asr(m, r1, exponent)
    threshold_0 = _threshold_ite(m, r0, threshold)
    r0 = _round_up(m, r0, remainder, threshold_0)
    r1 = _round_tail(m, r1, remainder_1, threshold)
    return r0, r1


@kernel(inline=True)
def _m3_int32_pair(m, c00, c01, c10, c11, out_mult, out_shift, act_min, act_max, out_0,
                   out_1):
    """Both channels' arm_nn_requantize, clamps and the first channel's stores (0x108-0x1da;
    the second channel's stores are at 0x1dc, shared with the int64 path).  Returns the
    second channel's two values."""
    r00, r01, mult = _m3_first_requantize(m, c00, c01, out_mult, out_shift)
    ldr_sp(m)                                             # 150: ldr r0, [sp, #4]
    hi = mov(m, 0)
    mult = ldr(m, out_mult + 4)
    lo = mov(m, 1 << 30)
    ldr_sp(m)                                             # 15e: ldr r1, [sp, #140]
    r00 = max_lt(m, r00, act_min)                         # MAX(ch_0_out_0, activation_min)
    r01 = max_lt(m, r01, act_min)
    ldr_sp(m)                                             # 16c: ldr r1, [sp, #8]
    shift = ldr(m, out_shift + 4)
    left = bic(m, shift, shift >> 31)
    r10 = lsl(m, c10, left)
    lo, hi = smlal(m, lo, hi, r10, mult)
    lo = lsr(m, lo, 31)
    ldr_sp(m)                                             # 180: ldr r0, [sp, #144]
    r10 = orr(m, lo, hi << 1)
    r00 = min_ge(m, r00, act_max)                         # MIN(ch_0_out_0, activation_max)
    r01 = min_ge(m, r01, act_max)
    strh(m, out_0, r00)                                   # *out_0++ = (int16_t)ch_0_out_0;
    ldr_sp(m)                                             # 196: ldr r2, [sp, #16]
    cmp(m, shift, 0)
    strh(m, out_1, r01)                                   # *out_1++ = (int16_t)ch_0_out_1;
    r10, r11 = _m3_second_requantize(m, r10, c11, mult, shift)
    ldr_sp(m)                                             # 1bc: ldr r2, [sp, #140]
    r10 = max_lt(m, r10, act_min)
    r11 = max_lt(m, r11, act_min)
    ldr_sp(m)                                             # 1ca: ldr r2, [sp, #144]
    r10 = min_ge(m, r10, act_max)
    r11 = min_ge(m, r11, act_max)
    return sxth(m, r10, 0), sxth(m, r11, 0)


@kernel(inline=True)
def _m3_int64_pair(m, acc, out_mult, out_shift, act_min, act_max, out_0, out_1):
    """The int64 path's four arm_nn_requantize_s64 (0x354-0x488), clamps and the first
    channel's stores.  Returns the second channel's two values."""
    l00, h00, l01, h01, l10, h10, l11, h11 = acc
    ldr_sp(m)                                             # 354: ldr r5, [sp, #4]
    mult = ldr(m, out_mult)
    ldr_lit(m)
    reduced, sign = _reduce(m, mult, False)
    cross0 = mul(m, l00, sign)
    cross0 = mla(m, reduced, h00, cross0)
    p_lo, p_hi = umull(m, l00, reduced)
    cross1 = mul(m, l01, sign)
    p_hi = add(m, p_hi, cross0)
    ldr_sp(m)                                             # 37c: ldr r7, [sp, #8]
    cross1 = mla(m, reduced, h01, cross1)
    shift = ldr(m, out_shift)
    q_lo, q_hi = umull(m, l01, reduced)
    n = rsb(m, shift, 14)
    n_left = add(m, shift, 18)
    high = lsl(m, p_hi, n_left)
    r00 = lsr(m, p_lo, n)
    r00 = orr(m, r00, high)
    over = sub(m, n, 32)
    q_hi = add(m, q_hi, cross1)
    it(m, 0 if over >= 0 else 2)                          # itt pl
    if over >= 0:
        r00 = orr(m, r00, asr(m, p_hi, over))
    r01 = lsr(m, q_lo, n)
    high = lsl(m, q_hi, n_left)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, q_hi, over)
    r01 = orr(m, r01, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r01 = orr(m, r01, top)
    r01 = add(m, r01, 1)
    r01 = asr(m, r01, 1)
    ldr_sp(m)                                             # 3c6: ldr r5, [sp, #4]
    r00 = add(m, r00, 1)
    mult = ldr(m, out_mult + 4)
    ldr_lit(m)
    r00 = asr(m, r00, 1)
    reduced, sign = _reduce(m, mult, False)
    cross0 = mul(m, l10, sign)
    ldr_sp(m)                                             # 3e2: ldr r7, [sp, #12]
    cross1 = mul(m, l11, sign)
    cross0 = mla(m, reduced, h10, cross0)
    p_lo, p_hi = umull(m, l10, reduced)
    p_hi = add(m, p_hi, cross0)
    ldr_sp(m)                                             # 3f2: ldr r7, [sp, #8]
    cross1 = mla(m, reduced, h11, cross1)
    shift = ldr(m, out_shift + 4)
    q_lo, q_hi = umull(m, l11, reduced)
    n = rsb(m, shift, 14)
    n_left = add(m, shift, 18)
    high = lsl(m, p_hi, n_left)
    r10 = lsr(m, p_lo, n)
    r10 = orr(m, r10, high)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    q_hi = add(m, q_hi, cross1)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r10 = orr(m, r10, top)
    r11 = lsr(m, q_lo, n)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, q_hi, over)
    high = lsl(m, q_hi, n_left)
    ldr_sp(m)                                             # 432: ldr r5, [sp, #140]
    r11 = orr(m, r11, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r11 = orr(m, r11, top)
    r10 = add(m, r10, 1)
    r00 = max_lt(m, r00, act_min)
    r10 = asr(m, r10, 1)
    cmp(m, r01, act_min)                                  # MAX(ch_0_out_1, ...) with the
    r11 = add(m, r11, 1)                                  # last rounding between
    r11 = asr(m, r11, 1)
    clamp = r01 < act_min
    it(m, not clamp)
    if clamp:
        r01 = mov(m, act_min)
    r10 = max_lt(m, r10, act_min)
    r11 = max_lt(m, r11, act_min)
    ldr_sp(m)                                             # 460: ldr r5, [sp, #144]
    r00 = min_ge(m, r00, act_max)
    r01 = min_ge(m, r01, act_max)
    r10 = min_ge(m, r10, act_max)
    r11 = min_ge(m, r11, act_max)
    strh(m, out_0, r00)                                   # *out_0++ = (int16_t)ch_0_out_0;
    ldr_sp(m)                                             # 47e: ldr r2, [sp, #16]
    r10 = sxth(m, r10, 0)
    strh(m, out_1, r01)                                   # *out_1++ = (int16_t)ch_0_out_1;
    r11 = sxth(m, r11, 0)
    b(m)                                                  # 488: b.n 1dc
    return r10, r11


@kernel(inline=True)
def _m3_channel_pair(m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias,
                     out_mult, out_shift, act_min, act_max, out_0, out_1):
    """One pass of `while (row_count)` (0x9a-0x204).  Returns (ip_a0 past the pass's
    columns, bias)."""
    ip_b0 = input_b
    ip_b1 = input_b + 2 * num_col_a                       # ip_b1 = ip_b0 + num_col_a;
    ip_a1 = ip_a0 + num_col_a                             # ip_a1 = ip_a0 + num_col_a;
    _m3_pair_start(m)
    bcc(m, num_col_a_fast == 0)                           # beq.w 5a8
    c00 = 0
    c01 = 0
    c10 = 0
    c11 = 0
    if num_col_a_fast == 0:
        _m3_no_cols(m)
    else:
        _m3_cols_start(m)
        count = num_col_a_fast                            # int32_t col_count = num_col_a_fast;
        while count:
            a0 = ldrsb(m, ip_a0)                          # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrsh(m, ip_b0)                          # int16_t b0 = *ip_b0++;
            ip_b0 += 2
            b1 = ldrsh(m, ip_b1)                          # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            c00 = mla(m, b0, a0, c00)                     # ch_0_out_0 += a0 * b0;
            c01 = mla(m, b1, a0, c01)                     # ch_0_out_1 += a0 * b1;
            a1 = ldrsb(m, ip_a1)                          # int8_t a1 = *ip_a1++;
            ip_a1 += 1
            count -= 1                                    # col_count--: a pointer compare
            cmp(m, count, 0)
            c10 = mla(m, a1, b0, c10)                     # ch_1_out_0 += a1 * b0;
            c11 = mla(m, a1, b1, c11)                     # ch_1_out_1 += a1 * b1;
            bcc(m, count != 0)
        _m3_cols_end(m)
    ldr_sp(m)                                             # ea: ldr r0, [sp, #36]
    cmp(m, is_int32_bias, 0)                              # if (is_int32_bias)
    bcc(m, not is_int32_bias)                             # beq.w 304
    if is_int32_bias:
        ldr_sp(m)                                         # f2: ldr r5, [sp, #56]  bias_s32
        cbz(m, bias == 0)                                 # if (bias_s32)
        if bias != 0:
            b_0 = ldr(m, bias)
            bias = add(m, bias, 8)
            c00 = add(m, c00, b_0)                        # ch_0_out_0 += *bias_s32;
            c01 = add(m, c01, b_0)                        # ch_0_out_1 += *bias_s32++;
            b_1 = ldr(m, bias - 4)
            str_sp(m)                                     # 102: str r5, [sp, #56]
            c10 = add(m, c10, b_1)
            c11 = add(m, c11, b_1)
        r10, r11 = _m3_int32_pair(m, c00, c01, c10, c11, out_mult, out_shift, act_min,
                                  act_max, out_0, out_1)
    else:
        h10 = asr(m, c10, 31)                             # the int64 sums
        ldr_sp(m)                                         # 304: ldr r6, [sp, #148] (block
        cmp(m, num_col_a, MAX_COL_COUNT)                  #  0x304-0x318 inline: its values)
        str_sp(m)
        h00 = asr(m, c00, 31)
        mov(m, 0)                                         # 312: mov r0, r7
        h01 = asr(m, c01, 31)
        h11 = asr(m, c11, 31)
        l00 = c00
        l01 = c01
        l10 = c10
        l11 = c11
        bcc(m, num_col_a > MAX_COL_COUNT)                 # bgt.w 530
        if num_col_a > MAX_COL_COUNT:                     # if (num_col_a > MAX_COL_COUNT)
            _m3_slow_start(m)
            count = num_col_a - MAX_COL_COUNT             # col_count = num_col_a_slow;
            while count:
                ldr_sp(m)                                 # 53e: ldr r5, [sp, #24]
                a0 = ldrsb(m, ip_a0)
                ip_a0 += 1
                a1 = ldrsb(m, ip_a1)
                ip_a1 += 1
                b0 = ldrsh(m, ip_b0)
                ip_b0 += 2
                str_sp(m)
                ldr_sp(m)
                l00, h00 = smlal(m, l00, h00, b0, a0)     # ch_0_out_0_s64 += a0 * b0;
                l10, h10 = smlal(m, l10, h10, b0, a1)     # ch_1_out_0_s64 += a1 * b0;
                b1 = ldrsh(m, ip_b1)
                ip_b1 += 2
                str_sp(m)
                l11, h11 = smlal(m, l11, h11, b1, a1)     # ch_1_out_1_s64 += a1 * b1;
                ldr_sp(m)                                 # 562: ldr r2, [sp, #32]
                l01, h01 = smlal(m, l01, h01, b1, a0)     # ch_0_out_1_s64 += a0 * b1;
                count -= 1                                # a pointer compare
                cmp(m, count, 0)
                bcc(m, count != 0)
            mov(m, 0)                                     # 56c: mov r2, fp
            ldr_sp(m)                                     # 56e: ldr.w fp, [sp, #64]
            b(m)
        ldr_sp(m)                                         # 320: ldr r7, [sp, #40]  bias_s64
        cbz(m, bias == 0)                                 # if (bias_s64)
        if bias != 0:
            b_lo = ldr(m, bias)
            b_hi = ldr(m, bias + 4)
            l00, h00 = _add64(m, l00, h00, b_lo, b_hi)    # ch_0_out_0_s64 += *bias_s64;
            carry = carry_of_add(l01, b_lo)
            l01 = add(m, l01, b_lo)                       # ch_0_out_1_s64 += *bias_s64++;
            h01 = adc(m, h01, b_hi, carry)
            bias = add(m, bias, 16)
            mov(m, 0)                                     # 336: mov r1, r5
            b_lo = ldr(m, bias - 8)
            b_hi = ldr(m, bias - 4)
            str_sp(m)                                     # 340: str r7, [sp, #40]
            ldr_sp(m)                                     # 342: ldr r7, [sp, #12]
            l10, h10 = _add64(m, l10, h10, b_lo, b_hi)    # ch_1_out_0_s64 += *bias_s64;
            carry = carry_of_add(l11, b_lo)
            l11 = add(m, l11, b_lo)                       # ch_1_out_1_s64 += *bias_s64++;
            mov(m, 0)                                     # 34c: mov r0, r5
            str_sp(m)                                     # 34e: str r7, [sp, #12]
            h11 = adc(m, h11, b_hi, carry)
        r10, r11 = _m3_int64_pair(m, (l00, h00, l01, h01, l10, h10, l11, h11), out_mult,
                                  out_shift, act_min, act_max, out_0, out_1)
    strh(m, out_0 + 2, r10)                               # *out_0++ = (int16_t)ch_1_out_0;
    ldr_sp(m)                                             # 1e0: ldr r2, [sp, #16]
    ldr_sp(m)                                             # 1e2: ldr r3, [sp, #148]
    strh(m, out_1 + 2, r11)                               # *out_1++ = (int16_t)ch_1_out_1;
    ip_a0 += num_col_a                                    # ip_a0 += num_col_a;  (skip row)
    _m3_row_end(m)
    return ip_a0, bias


@kernel(inline=True)
def _m3_odd_channel(m, ip_a0, input_b, num_col_a, num_col_a_fast, is_int32_bias, bias,
                    out_mult, out_shift, act_min, act_max, out_0, out_1):
    """`if (output_ch & 0x1)` (0x22e-0x2f8, 0x5c0-0x6b6).  Returns True when the int64 path
    returned from the function itself."""
    ip_b0 = input_b
    ip_b1 = input_b + 2 * num_col_a                       # ip_b1 = ip_b0 + num_col_a;
    _m3_odd_start(m)
    bcc(m, num_col_a_fast == 0)                           # beq.w 70c
    c00 = 0
    c01 = 0
    if num_col_a_fast == 0:
        mov(m, 0)                                         # 70c: mov r6, r0
        ldr_sp(m)                                         # 70e: ldr r3, [sp, #20]
        b(m)
    else:
        _m3_odd_cols_start(m)
        count = num_col_a_fast
        while count:
            a0 = ldrsb(m, ip_a0)                          # int8_t a0 = *ip_a0++;
            ip_a0 += 1
            b0 = ldrsh(m, ip_b0)                          # int16_t b0 = *ip_b0++;
            ip_b0 += 2
            count -= 1                                    # a pointer compare
            cmp(m, count, 0)
            c00 = mla(m, a0, b0, c00)                     # ch_0_out_0 += a0 * b0;
            b1 = ldrsh(m, ip_b1)                          # int16_t b1 = *ip_b1++;
            ip_b1 += 2
            c01 = mla(m, a0, b1, c01)                     # ch_0_out_1 += a0 * b1;
            bcc(m, count != 0)
        _m3_odd_cols_end(m)
    ldr_sp(m)                                             # 278: ldr r1, [sp, #36]
    cmp(m, is_int32_bias, 0)                              # if (is_int32_bias)
    bcc(m, not is_int32_bias)                             # beq.w 5c0
    if is_int32_bias:
        ldr_sp(m)                                         # 280: ldr r2, [sp, #56]
        cbz(m, bias == 0)                                 # if (bias_s32)
        if bias != 0:
            b_0 = ldr(m, bias)
            ldr_sp(m)                                     # 286: ldr r1, [sp, #20]
            c01 = add(m, c01, b_0)
            c00 = add(m, c00, b_0)
            str_sp(m)
        hi = mov(m, 0)                                    # 28e: movs r4, #0
        lo = mov(m, 1 << 30)
        shift = ldr(m, out_shift)
        ldr_sp(m)                                         # 298: ldr r1, [sp, #20]
        left = bic(m, shift, shift >> 31)
        r0 = lsl(m, c00, left)
        mov(m, 0)                                         # 2a2: mov r7, r4
        mov(m, 0)                                         # 2a4: mov r1, r5
        mult = ldr(m, out_mult)
        cmp(m, shift, 0)
        lo, hi = smlal(m, lo, hi, r0, mult)
        lo = lsr(m, lo, 31)
        r0 = orr(m, lo, hi << 1)
        bcc(m, shift <= 0)                                # ble.w 6c8
        if shift > 0:
            cmp(m, r0, 0)
            bcc(m, r0 < 0)                                # blt.w 718
            if r0 < 0:
                mov(m, 0)                                 # 718: mov r2, r4
            r1 = lsl(m, c01, left)
            if r0 >= 0:
                mov(m, 0)                                 # 2c6: mov r3, r5
            lo, hi = smlal(m, 1 << 30, 0, mult, r1)
            lo = lsr(m, lo, 31)
            if r0 < 0:
                mov(m, 0)                                 # 722: mov r0, r4  remainder
                mov(m, 0)                                 # 724: mov r6, r4  threshold
            r1 = orr(m, lo, hi << 1)
            if r0 < 0:
                b(m)
                r1 = _round_tail(m, r1, 0, 0)
        else:
            one = mov(m, 1)
            lo, hi = smlal(m, 1 << 30, 0, mult, c01)
            exponent = rsb(m, shift, 0)
            mask = add(m, lsl(m, one, exponent), -1)
            lo = lsr(m, lo, 31)
            remainder = and_(m, r0, mask)
            threshold = asr(m, mask, 1)
            r0 = asr(m, r0, exponent)
            r1 = orr(m, lo, hi << 1)
            remainder_1 = and_(m, mask, r1)
            r1 = asr(m, r1, exponent)
            threshold_0 = _threshold_ite(m, r0, threshold)
            r0 = _round_up(m, r0, remainder, threshold_0)
            r1 = _round_tail(m, r1, remainder_1, threshold)
        ldr_sp(m)                                         # 2d2: ldr r2, [sp, #140]
        ldr_sp(m)                                         # 2d4: ldr r0, [sp, #144]
        r0 = max_lt(m, r0, act_min)
        r1 = max_lt(m, r1, act_min)
        mov(m, 0)                                         # 2e4: mov r2, ip
        r0 = min_ge(m, r0, act_max)
        strh(m, out_0, r0)                                # *out_0++ = (int16_t)ch_0_out_0;
        r1 = min_ge(m, r1, act_max)
        mov(m, 0)                                         # 2f4: mov ip, r2
        strh(m, out_1, r1)                                # *out_1++ = (int16_t)ch_0_out_1;
        return False
    ldr_sp(m)                                             # 5c0: ldr r1, [sp, #148]
    ldr_sp(m)                                             # 5c2: ldr r0, [sp, #20]
    cmp(m, num_col_a, MAX_COL_COUNT)                      # if (num_col_a > MAX_COL_COUNT)
    l00 = c00
    h00 = asr(m, c00, 31)
    l01 = c01
    h01 = asr(m, c01, 31)
    bcc(m, num_col_a <= MAX_COL_COUNT)                    # ble.n 5fc
    if num_col_a > MAX_COL_COUNT:
        sub(m, 0, 0)                                      # 5d2: sub.w r1, r1, #512
        str_sp(m)                                         # 5d6: str.w fp, [sp, #4]
        ldr_sp(m)                                         # 5da: ldr.w fp, [sp, #28]
        add(m, 0, 0)                                      # 5de: add r1, r6
        count = num_col_a - MAX_COL_COUNT                 # col_count = num_col_a_slow;
        while count:
            a0 = ldrsb(m, ip_a0)
            ip_a0 += 1
            b0 = ldrsh(m, ip_b0)
            ip_b0 += 2
            count -= 1                                    # a pointer compare
            cmp(m, count, 0)
            l00, h00 = smlal(m, l00, h00, b0, a0)         # ch_0_out_0_s64 += a0 * b0;
            b1 = ldrsh(m, ip_b1)
            ip_b1 += 2
            l01, h01 = smlal(m, l01, h01, b1, a0)         # ch_0_out_1_s64 += a0 * b1;
            bcc(m, count != 0)
        ldr_sp(m)                                         # 5f8: ldr.w fp, [sp, #4]
    ldr_sp(m)                                             # 5fc: ldr r1, [sp, #40]
    cbz(m, bias == 0)                                     # if (bias_s64)
    if bias != 0:
        b_lo = ldr(m, bias)
        b_hi = ldr(m, bias + 4)
        l00, h00 = _add64(m, l00, h00, b_lo, b_hi)        # ch_0_out_0_s64 += *bias_s64;
        carry = carry_of_add(l01, b_lo)
        l01 = add(m, l01, b_lo)                           # ch_0_out_1_s64 += *bias_s64++;
        mov(m, 0)                                         # 60c: mov r3, r2
        h01 = adc(m, h01, b_hi, carry)
    mult = ldr(m, out_mult)                               # 612: ldr.w r2, [sl]
    ldr_lit(m)
    reduced, sign = _reduce(m, mult, True)
    cross0 = mul(m, l00, sign)
    p_lo, p_hi = umull(m, l00, reduced)
    cross0 = mla(m, reduced, h00, cross0)
    cross1 = mul(m, l01, sign)
    shift = ldr(m, out_shift)
    p_hi = add(m, p_hi, cross0)
    cross1 = mla(m, reduced, h01, cross1)
    n = rsb(m, shift, 14)
    q_lo, q_hi = umull(m, l01, reduced)
    n_left = add(m, shift, 18)
    r0 = lsr(m, p_lo, n)
    high = lsl(m, p_hi, n_left)
    r0 = orr(m, r0, high)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, p_hi, over)
    q_hi = add(m, q_hi, cross1)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r0 = orr(m, r0, top)
    r1 = lsr(m, q_lo, n)
    over = sub(m, n, 32)
    it(m, 0 if over >= 0 else 1)
    top = 0
    if over >= 0:
        top = asr(m, q_hi, over)
    high = lsl(m, q_hi, n_left)
    r0 = add(m, r0, 1)
    ldr_sp(m)                                             # 678: ldr r1, [sp, #140]
    r0 = asr(m, r0, 1)
    r1 = orr(m, r1, high)
    it(m, 0 if over >= 0 else 1)
    if over >= 0:
        r1 = orr(m, r1, top)
    r0 = max_lt(m, r0, act_min)
    r1 = add(m, r1, 1)
    ldr_sp(m)                                             # 68e: ldr r0, [sp, #144]
    r1 = asr(m, r1, 1)
    r1 = max_lt(m, r1, act_min)
    r0 = min_ge(m, r0, act_max)
    mov(m, 0)                                             # 69e: mov r1, ip
    strh(m, out_0, r0)                                    # *out_0++ = (int16_t)ch_0_out_0;
    r1 = min_ge(m, r1, act_max)
    mov(m, 0)                                             # 6a6: mov ip, r1
    add(m, 0, 0)                                          # 6ac: add.w r0, ip, fp
    strh(m, out_1, r1)                                    # *out_1++ = (int16_t)ch_0_out_1;
    add(m, 0, 0)                                          # add sp, #frame
    pop_pc(m, 9)
    return True


# --- the C ---------------------------------------------------------------------------------

@kernel
def arm_nn_mat_mult_kernel_s16(m, input_a, input_b, output_ch, out_shift, out_mult,
                               activation_min, activation_max, num_col_a, bias_data, out_0):
    """The C's arguments (`bias_data` a `BiasData`).  Returns out_0 + output_ch past the
    written outputs, as the C does."""
    bias = bias_data.data
    is_int32_bias = bias_data.is_int32_bias
    push(m, 9)                                            # push {r4-r11, lr}
    sub(m, 0, 0)                                          # sub sp, #frame
    if m.dsp:
        mov(m, 0)                                         # 6: mov r9, r3
        ldr_sp(m)                                         # 8: ldr r3, [sp, #208]  bias_data
        str_sp(m)                                         # a: str r1, [sp, #72]
        mov(m, 0)                                         # c: mov r1, r2
        ldrb_sp(m)                                        # e: ldrb r2, [r3, #4]  ->is_int32_bias
        ldr_sp(m)                                         # 10: ldr r3, [r3]  ->data
        ldr_sp(m)                                         # 12: ldr.w r8, [sp, #212]  out_0
        ldr_sp(m)                                         # 16: ldr r4, [sp, #204]  num_col_a
        str_sp(m)
        mov(m, 0)                                         # 1a: mov fp, r0
        str_sp(m)
        cbnz(m, is_int32_bias != 0)                       # is_int32_bias ? num_col_a : ...
    else:
        ldr_sp(m)                                         # 6: ldr r4, [sp, #152]  bias_data
        mov(m, 0)                                         # 8: mov r8, r3
        ldrb_sp(m)                                        # a: ldrb r5, [r4, #4]
        ldr_sp(m)                                         # c: ldr r4, [r4]
        ldr_sp(m)                                         # e: ldr.w sl, [sp, #136]  out_mult
        ldr_sp(m)                                         # 12: ldr.w ip, [sp, #156]  out_0
        ldr_sp(m)                                         # 16: ldr r3, [sp, #148]  num_col_a
        str_sp(m)
        str_sp(m)
        str_sp(m)
        cmp(m, is_int32_bias, 0)
        bcc(m, is_int32_bias != 0)                        # bne.w 5bc
    num_col_a_fast = num_col_a
    if is_int32_bias:
        if not m.dsp:
            str_sp(m)                                     # 5bc: str r3, [sp, #20]
            b(m)
    else:                                                 # MIN(num_col_a, MAX_COL_COUNT)
        cmp(m, num_col_a, MAX_COL_COUNT)
        clamp = num_col_a >= MAX_COL_COUNT
        it(m, not clamp)
        if clamp:
            num_col_a_fast = mov(m, MAX_COL_COUNT)
        if not m.dsp:
            str_sp(m)                                     # 2e: str r3, [sp, #20]
    row_count = output_ch // 2                            # int32_t row_count = output_ch / 2;
    if m.dsp:
        _m4_start(m)
    else:
        add(m, 0, 0)                                      # 30: add.w r3, r2, r2, lsr #31
        asr(m, 0, 1)                                      # 34: asrs r3, r3, #1
        lsl(m, 0, 1)                                      # 36: mov.w fp, r2, lsl #1
        add(m, 0, 0)                                      # 3a: add.w r9, ip, r2, lsl #1
    bcc(m, row_count == 0)                                # beq.w: while (row_count)
    out_1 = out_0 + 2 * output_ch                         # int16_t *out_1 = out_0 + output_ch;
    ip_a0 = input_a
    if row_count == 0:
        ldr_sp(m)                                         # the bias pointer's copy
        str_sp(m)
        b(m)
    else:
        if m.dsp:
            _m4_rows_setup_head(m)
            it(m, num_col_a_fast >= 0)                    # it lt: num_col_a_fast / 4
            if num_col_a_fast < 0:
                add(m, 0, 0)
            _m4_rows_setup(m)
        else:
            _m3_start(m)
        quads = (num_col_a_fast // 4) & 0xFFFF            # uint16_t col_count = fast / 4;
        tail = num_col_a_fast & 3                         # col_count = num_col_a_fast & 0x3;
        for _row in range(row_count):
            if m.dsp:
                ip_a0, bias = _m4_channel_pair(m, ip_a0, input_b, num_col_a, quads, tail,
                                               is_int32_bias, bias, out_mult, out_shift,
                                               activation_min, activation_max, out_0, out_1)
            else:
                ip_a0, bias = _m3_channel_pair(m, ip_a0, input_b, num_col_a, num_col_a_fast,
                                               is_int32_bias, bias, out_mult, out_shift,
                                               activation_min, activation_max, out_0, out_1)
            out_0 += 4
            out_1 += 4
            out_mult += 8
            out_shift += 8
            bcc(m, _row + 1 < row_count)                  # bne.w: row_count--
        if m.dsp:
            _m4_rows_end(m)
        else:
            _m3_rows_end(m)
    lsl(m, output_ch, 31)                                 # lsls r3, rN, #31: output_ch & 0x1
    odd = output_ch & 1
    bcc(m, odd == 0)                                      # bpl
    if odd:
        if m.dsp:
            returned = _m4_odd_channel(m, ip_a0, input_b, num_col_a, num_col_a_fast,
                                       is_int32_bias, bias, out_mult, out_shift,
                                       activation_min, activation_max, out_0, out_1)
        else:
            returned = _m3_odd_channel(m, ip_a0, input_b, num_col_a, num_col_a_fast,
                                       is_int32_bias, bias, out_mult, out_shift,
                                       activation_min, activation_max, out_0, out_1)
        out_0 += 2
        if returned:
            return out_0 + 2 * output_ch
    if m.dsp:
        ldr_sp(m)                                         # 400: ldr r0, [sp, #120]
    add(m, 0, 0)                                          # out_0 += output_ch;
    add(m, 0, 0)                                          # add sp, #frame
    pop_pc(m, 9)
    return out_0 + 2 * output_ch
