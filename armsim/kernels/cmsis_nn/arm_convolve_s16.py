"""arm_convolve_s16 and arm_convolve_wrapper_s16 (Source/ConvolutionFunctions/
arm_convolve_s16.c, arm_convolve_wrapper_s16.c), non-MVE build.

    arm_cmsis_nn_status arm_convolve_s16(const cmsis_nn_context *ctx,
        const cmsis_nn_conv_params *conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int16_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const cmsis_nn_bias_data *bias_data,
        const cmsis_nn_dims *output_dims, int16_t *output_data)

The wrapper only calls arm_convolve_s16 (a tail call, one B).  im2col: per output pixel and
filter tap one libc call into ctx->buf (int16) -- `memset` to 0 of 2 * input_ch bytes for a
padding tap, `memcpy` of 2 * input_ch bytes otherwise (arm_memset_s8 / arm_memcpy_s8 are
the libc functions without MVE); every second column arm_nn_mat_mult_kernel_s16 multiplies
both with the weights.  An odd last column is done inline: per output channel a SMLAD loop
over `rhs_cols >> 2` steps and SMLABB per left-over value (DSP) or one MLA per column of
`uint16_t col_count = rhs_cols` (plain C), then the inlined arm_nn_requantize (int32 bias)
or REDUCE_MULTIPLIER + arm_nn_requantize_s64 (int64 bias, accumulated in 32 bits, as the
C does).  Scratch: 2 * input_ch * kernel_x * kernel_y int16 values.

Transcribed from gcc 12.2 -O2's disassembly, -mcpu=cortex-m4 (ARM_MATH_DSP) and
-mcpu=cortex-m3 (`_m4_*` / `_m3_*` blocks where the two differ; the addresses in the
comments are the objects' offsets): the struct fields read once and spilled, the loop
invariants of a batch computed up front, the tap loop's pointer stepping and its range tests
(k_y against input_y, the sign of k_x | k_y, k_x against input_x), the argument moves around
every libc call, the GEMM's six stacked arguments, the left-over column's loops, rounding
and clamps.  Struct field loads (LDR [rN, #imm] of the caller's structs, not placed in
simulated memory) are issued as stack-slot loads (`ldr_sp`, `ldrd_sp`, `ldrb_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (adc, add, and_, asr, b, bcc, bic, bl, carry_of_add, cbz, cmp, it,
                            ldr, ldr_lit, ldr_sp, ldrb_sp, ldrd_sp, ldrh, ldrsb, ldrsh, lsl, lsr,
                            mla, mov, mul, mvn, orr, pkhbt, pkhtb, pop_pc, push, rsb, smlabb,
                            smlad, smlal, str_sp, strd_sp, strh, sub, sxtb16, umull, uxth)
from armsim.kernels.libc import memcpy, memset
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_mat_mult_kernel_s16 import arm_nn_mat_mult_kernel_s16

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1
NO_IMPL_ERROR = -2


def arm_convolve_s16_get_buffer_size(input_dims, filter_dims):
    """arm_convolve_get_buffer_sizes_s16.c, non-MVE: two im2col columns of int16."""
    return 2 * input_dims["c"] * filter_dims["w"] * filter_dims["h"] * 2


# --- straight-line blocks (no branch inside), one per build --------------------------------

@kernel(inline=True)
def _m4_fields(m):
    """The dims' and params' fields read and spilled, rhs_cols (0x16-0x6e)."""
    ldr_sp(m)                             # 16: ldr r6, [r5, #4]
    ldr_sp(m)                             # 18: ldr r3, [r3, #12]
    ldr_sp(m)                             # 1a: ldr r7, [r5, #8]
    ldr_sp(m)                             # 1c: ldr ip, [r4]
    ldr_sp(m)                             # 20: ldr lr, [r0, #12]
    str_sp(m)                             # 24: str r6, [sp, #52]
    mul(m, 0, 0)                          # 26: mul r5, r6, r3
    mul(m, 0, 0)                          # 2a: mul r5, r7, r5
    str_sp(m)                             # 2e: str r5, [sp, #112]
    ldr_sp(m)                             # 30: ldr r5, [r4, #8]
    ldr_sp(m)                             # 32: ldr r4, [r4, #4]
    str_sp(m)                             # 34: str r4, [sp, #28]
    ldr_sp(m)                             # 36: ldr r4, [r0, #8]
    str_sp(m)                             # 38: str r4, [sp, #84]
    ldr_sp(m)                             # 3a: ldr r4, [r0, #4]
    str_sp(m)                             # 3c: str r7, [sp, #136]
    ldrd_sp(m)                            # 3e: ldrd sl, r0, [r1, #24]
    str_sp(m)                             # 42: str r0, [sp, #60]
    ldr_sp(m)                             # 44: ldr r0, [r1, #16]
    str_sp(m)                             # 46: str r0, [sp, #140]
    ldr_sp(m)                             # 48: ldr r0, [r1, #20]
    str_sp(m)                             # 4a: str r0, [sp, #144]
    ldr_sp(m)                             # 4c: ldr r0, [r1, #8]
    str_sp(m)                             # 4e: str r0, [sp, #88]
    ldr_sp(m)                             # 50: ldr r0, [r1, #12]
    str_sp(m)                             # 52: str r0, [sp, #148]
    ldr_sp(m)                             # 54: ldr r0, [r1, #32]
    ldr_sp(m)                             # 56: ldr r1, [r1, #36]
    str_sp(m)                             # 58: str ip, [sp, #160]
    str_sp(m)                             # 5c: str r5, [sp, #36]
    str_sp(m)                             # 5e: str r4, [sp, #108]
    str_sp(m)                             # 60: str r0, [sp, #116]
    str_sp(m)                             # 62: str r1, [sp, #120]
    ldr_sp(m)                             # 64: ldr r1, [r2, #0]
    ldr_sp(m)                             # 66: ldr r2, [r2, #4]
    str_sp(m)                             # 68: str r2, [sp, #128]
    mov(m, 0)                             # 6a: mov r2, ip
    cmp(m, 0, 0)                          # 6c: cmp r2, #0
    str_sp(m)                             # 6e: str r1, [sp, #124]


@kernel(inline=True)
def _m3_fields(m):
    """The dims' and params' fields read and spilled, rhs_cols (0x16-0x68)."""
    ldr_sp(m)                             # 16: ldr r1, [r5, #4]
    ldr_sp(m)                             # 18: ldr r7, [r3, #12]
    ldr_sp(m)                             # 1a: ldr r8, [r5, #8]
    mul(m, 0, 0)                          # 1e: mul r5, r1, r7
    str_sp(m)                             # 22: str r1, [sp, #48]
    mul(m, 0, 0)                          # 24: mul r1, r8, r5
    ldr_sp(m)                             # 28: ldr fp, [r3, #4]
    ldr_sp(m)                             # 2c: ldr r5, [r3, #8]
    str_sp(m)                             # 2e: str r1, [sp, #112]
    ldr_sp(m)                             # 30: ldr r1, [r3, #0]
    ldr_sp(m)                             # 32: ldr r3, [r4, #8]
    str_sp(m)                             # 34: str r1, [sp, #152]
    str_sp(m)                             # 36: str r3, [sp, #80]
    ldr_sp(m)                             # 38: ldr r3, [r4, #4]
    str_sp(m)                             # 3a: str r5, [sp, #32]
    str_sp(m)                             # 3c: str r3, [sp, #108]
    ldr_sp(m)                             # 3e: ldr r3, [r4, #12]
    cmp(m, 0, 0)                          # 40: cmp r1, #0
    str_sp(m)                             # 42: str r3, [sp, #104]
    ldrd_sp(m)                            # 44: ldrd sl, r3, [r0, #24]
    str_sp(m)                             # 48: str r3, [sp, #56]
    ldr_sp(m)                             # 4a: ldr r3, [r0, #16]
    str_sp(m)                             # 4c: str r3, [sp, #132]
    ldr_sp(m)                             # 4e: ldr r3, [r0, #20]
    str_sp(m)                             # 50: str r3, [sp, #136]
    ldr_sp(m)                             # 52: ldr r3, [r0, #8]
    str_sp(m)                             # 54: str r3, [sp, #84]
    ldr_sp(m)                             # 56: ldr r3, [r0, #12]
    str_sp(m)                             # 58: str r3, [sp, #140]
    ldr_sp(m)                             # 5a: ldr r3, [r0, #32]
    str_sp(m)                             # 5c: str r3, [sp, #116]
    ldr_sp(m)                             # 5e: ldr r3, [r0, #36]
    str_sp(m)                             # 60: str r3, [sp, #120]
    ldr_sp(m)                             # 62: ldr r3, [r2, #0]
    str_sp(m)                             # 64: str r3, [sp, #124]
    ldr_sp(m)                             # 66: ldr r3, [r2, #4]
    str_sp(m)                             # 68: str r3, [sp, #128]


@kernel(inline=True)
def _m4_batch_invariants(m):
    """The strides and products the loops step by, spilled (0x74-0xe6)."""
    ldr_sp(m)                             # 74: ldr r4, [sp, #36]
    ldr_sp(m)                             # 76: ldr r2, [sp, #144]
    ldr_sp(m)                             # 78: ldr r1, [sp, #140]
    ldr_sp(m)                             # 7a: ldr r0, [sp, #28]
    mul(m, 0, 0)                          # 7c: mul r2, r2, r4
    rsb(m, 0, 0)                          # 80: negs r2, r2
    sub(m, 0, 0)                          # 82: subs r1, r2, r1
    mul(m, 0, 0)                          # 84: mul r2, r4, r3
    mul(m, 0, 0)                          # 88: mul r2, r0, r2
    lsl(m, 0, 0)                          # 8c: lsls r2, r2, #1
    ldr_sp(m)                             # 8e: ldr r0, [sp, #84]
    str_sp(m)                             # 90: str r2, [sp, #152]
    ldr_sp(m)                             # 92: ldr r2, [sp, #108]
    mul(m, 0, 0)                          # 94: mul r2, r0, r2
    mul(m, 0, 0)                          # 98: mul r2, lr, r2
    lsl(m, 0, 0)                          # 9c: lsls r2, r2, #1
    str_sp(m)                             # 9e: str r2, [sp, #156]
    ldr_sp(m)                             # a0: ldr r2, [sp, #148]
    mul(m, 0, 0)                          # a2: mul r2, r2, r4
    mul(m, 0, 0)                          # a6: mul r2, r3, r2
    lsl(m, 0, 0)                          # aa: lsls r2, r2, #1
    str_sp(m)                             # ac: str r2, [sp, #164]
    ldr_sp(m)                             # ae: ldr r2, [sp, #60]
    mul(m, 0, 0)                          # b0: mul r2, r4, r2
    mul(m, 0, 0)                          # b4: mul r2, r3, r2
    lsl(m, 0, 0)                          # b8: mov fp, r3, lsl #1
    lsl(m, 0, 0)                          # bc: lsls r2, r2, #1
    str_sp(m)                             # be: str r2, [sp, #64]
    mul(m, 0, 0)                          # c0: mul r2, fp, r1
    str_sp(m)                             # c4: str r2, [sp, #168]
    ldr_sp(m)                             # c6: ldr r2, [sp, #88]
    mul(m, 0, 0)                          # c8: mul r2, r2, r3
    mul(m, 0, 0)                          # cc: mul r3, sl, r3
    lsl(m, 0, 0)                          # d0: lsls r3, r3, #1
    str_sp(m)                             # d2: str r3, [sp, #32]
    ldr_sp(m)                             # d4: ldr r3, [sp, #136]
    lsl(m, 0, 0)                          # d6: lsls r2, r2, #1
    mul(m, 0, 0)                          # d8: mul r3, fp, r3
    mov(m, 0)                             # dc: mov r8, #0
    str_sp(m)                             # e0: str r2, [sp, #96]
    str_sp(m)                             # e2: str r3, [sp, #68]
    mov(m, 0)                             # e4: mov r2, lr
    mov(m, 0)                             # e6: mov r3, r8


@kernel(inline=True)
def _m3_batch_invariants(m):
    """The strides and products the loops step by, spilled (0x6e-0xe0)."""
    ldr_sp(m)                             # 6e: ldr r1, [sp, #32]
    ldr_sp(m)                             # 70: ldr r2, [sp, #80]
    mul(m, 0, 0)                          # 72: mul r3, r1, r7
    mul(m, 0, 0)                          # 76: mul r3, fp, r3
    lsl(m, 0, 0)                          # 7a: lsls r3, r3, #1
    str_sp(m)                             # 7c: str r3, [sp, #144]
    ldr_sp(m)                             # 7e: ldr r3, [sp, #108]
    ldr_sp(m)                             # 80: ldr r4, [sp, #240]
    mul(m, 0, 0)                          # 82: mul r3, r2, r3
    ldr_sp(m)                             # 86: ldr r2, [sp, #104]
    mul(m, 0, 0)                          # 88: mul r3, r2, r3
    lsl(m, 0, 0)                          # 8c: lsls r3, r3, #1
    str_sp(m)                             # 8e: str r3, [sp, #148]
    ldr_sp(m)                             # 90: ldr r3, [sp, #140]
    ldr_sp(m)                             # 92: ldr r2, [sp, #132]
    mul(m, 0, 0)                          # 94: mul r3, r3, r1
    mul(m, 0, 0)                          # 98: mul r3, r7, r3
    lsl(m, 0, 0)                          # 9c: lsls r3, r3, #1
    str_sp(m)                             # 9e: str r3, [sp, #156]
    ldr_sp(m)                             # a0: ldr r3, [sp, #56]
    mul(m, 0, 0)                          # a2: mul r3, r1, r3
    mul(m, 0, 0)                          # a6: mul r3, r7, r3
    lsl(m, 0, 0)                          # aa: lsls r3, r3, #1
    str_sp(m)                             # ac: str r3, [sp, #60]
    ldr_sp(m)                             # ae: ldr r3, [sp, #136]
    mul(m, 0, 0)                          # b0: mul r3, r3, r1
    rsb(m, 0, 0)                          # b4: negs r3, r3
    sub(m, 0, 0)                          # b6: subs r3, r3, r2
    ldr_sp(m)                             # b8: ldr r2, [sp, #84]
    lsl(m, 0, 0)                          # ba: lsls r1, r7, #1
    mul(m, 0, 0)                          # bc: mul r2, r2, r7
    lsl(m, 0, 0)                          # c0: lsls r2, r2, #1
    str_sp(m)                             # c2: str r2, [sp, #92]
    mul(m, 0, 0)                          # c4: mul r2, sl, r7
    mov(m, 0)                             # c8: movs r7, #0
    mov(m, 0)                             # ca: mov r6, r1
    mov(m, 0)                             # cc: mov r9, r7
    mov(m, 0)                             # ce: mov r7, fp
    mov(m, 0)                             # d0: mov fp, sl
    mul(m, 0, 0)                          # d2: mul r3, r1, r3
    str_sp(m)                             # d6: str r3, [sp, #160]
    lsl(m, 0, 0)                          # d8: lsls r3, r2, #1
    str_sp(m)                             # da: str r3, [sp, #28]
    mul(m, 0, 0)                          # dc: mul r3, r1, r8
    str_sp(m)                             # e0: str r3, [sp, #64]


@kernel(inline=True)
def _m4_batch_start(m):
    """A batch: its input and output pointers, lhs_rows = 0 (0xee-0x10c)."""
    ldr_sp(m)                             # ee: ldr r0, [sp, #168]
    ldr_sp(m)                             # f0: ldr r1, [sp, #224]
    ldr_sp(m)                             # f2: ldr r7, [sp, #136]
    str_sp(m)                             # f4: str r2, [sp, #132]
    add(m, 0, 0)                          # f6: add r1, r0
    ldr_sp(m)                             # f8: ldr r0, [sp, #144]
    str_sp(m)                             # fa: str r3, [sp, #172]
    rsb(m, 0, 0)                          # fc: negs r0, r0
    str_sp(m)                             # fe: str r0, [sp, #92]
    ldr_sp(m)                             # 100: ldr r0, [sp, #248]
    str_sp(m)                             # 102: str r0, [sp, #100]
    mov(m, 0)                             # 104: movs r5, #0
    ldr_sp(m)                             # 106: ldr r0, [sp, #104]
    mov(m, 0)                             # 108: mov r4, r5
    mov(m, 0)                             # 10a: mov r3, r5
    mov(m, 0)                             # 10c: mov r2, r1


@kernel(inline=True)
def _m3_batch_start(m):
    """A batch: its input and output pointers, lhs_rows = 0 (0xe8-0x102)."""
    mov(m, 0)                             # e8: movs r3, #0
    mov(m, 0)                             # ea: mov r5, r3
    ldr_sp(m)                             # ec: ldr r1, [sp, #160]
    ldr_sp(m)                             # ee: ldr r2, [sp, #216]
    ldr_sp(m)                             # f0: ldr lr, [sp, #100]
    add(m, 0, 0)                          # f4: add r2, r1
    ldr_sp(m)                             # f6: ldr r1, [sp, #136]
    str_sp(m)                             # f8: str r4, [sp, #96]
    rsb(m, 0, 0)                          # fa: negs r1, r1
    str_sp(m)                             # fc: str r1, [sp, #88]
    str_sp(m)                             # fe: str r9, [sp, #164]
    str_sp(m)                             # 102: str r4, [sp, #240]


@kernel(inline=True)
def _m4_row_start(m):
    """An output row: base_idx_x's start, the column pointer (0x114-0x120)."""
    ldr_sp(m)                             # 114: ldr r1, [sp, #140]
    strd_sp(m)                            # 116: strd r3, r2, [sp, #176]
    rsb(m, 0, 0)                          # 11a: negs r1, r1
    str_sp(m)                             # 11c: str r1, [sp, #56]
    mov(m, 0)                             # 11e: mov r5, r2
    mov(m, 0)                             # 120: movs r6, #0


@kernel(inline=True)
def _m3_row_start(m):
    """An output row: base_idx_x's start, the column pointer (0x10a-0x11a)."""
    mov(m, 0)                             # 10a: mov r9, #0
    mov(m, 0)                             # 10e: mov r4, r2
    mov(m, 0)                             # 110: mov sl, r9
    ldr_sp(m)                             # 112: ldr r1, [sp, #132]
    str_sp(m)                             # 114: str r3, [sp, #168]
    rsb(m, 0, 0)                          # 116: negs r1, r1
    str_sp(m)                             # 118: str r1, [sp, #52]
    str_sp(m)                             # 11a: str r2, [sp, #172]


@kernel(inline=True)
def _m4_column_start(m):
    """An output column: the tap rows' pointers (0x128-0x134)."""
    strd_sp(m)                            # 128: strd r4, r6, [sp, #72]
    ldr_sp(m)                             # 12c: ldr r8, [sp, #92]
    str_sp(m)                             # 130: str r5, [sp, #80]
    mov(m, 0)                             # 132: mov lr, r5
    mov(m, 0)                             # 134: movs r1, #0


@kernel(inline=True)
def _m3_column_start(m):
    """An output column: the tap rows' pointers (0x122-0x12e)."""
    mov(m, 0)                             # 122: mov ip, r4
    mov(m, 0)                             # 124: movs r1, #0
    strd_sp(m)                            # 126: strd r5, sl, [sp, #68]
    ldr_sp(m)                             # 12a: ldr r9, [sp, #88]
    str_sp(m)                             # 12e: str r4, [sp, #76]


@kernel(inline=True)
def _m4_tap_row_start(m):
    """A tap row: k_x's start, the source pointer (0x13a-0x148)."""
    strd_sp(m)                            # 13a: strd r1, r0, [sp, #40]
    ldr_sp(m)                             # 13e: ldr r6, [sp, #56]
    str_sp(m)                             # 140: str lr, [sp, #48]
    mov(m, 0)                             # 144: mov r9, lr
    mov(m, 0)                             # 146: mov r4, r0
    mov(m, 0)                             # 148: movs r5, #0


@kernel(inline=True)
def _m3_tap_row_start(m):
    """A tap row: k_x's start, the source pointer (0x136-0x144)."""
    mov(m, 0)                             # 136: mov sl, r6
    mov(m, 0)                             # 138: mov r3, lr
    mov(m, 0)                             # 13a: movs r4, #0
    mov(m, 0)                             # 13c: mov r6, ip
    strd_sp(m)                            # 13e: strd r1, lr, [sp, #36]
    ldr_sp(m)                             # 142: ldr r5, [sp, #52]
    str_sp(m)                             # 144: str ip, [sp, #44]


@kernel(inline=True)
def _m4_tap_end(m):
    """A tap's pointers stepped (then BNE) (0x168-0x172)."""
    ldr_sp(m)                             # 168: ldr r3, [sp, #32]
    add(m, 0, 0)                          # 16a: adds r5, #1
    cmp(m, 0, 0)                          # 16c: cmp r7, r5
    add(m, 0, 0)                          # 16e: add r4, fp
    add(m, 0, 0)                          # 170: add r9, r3
    add(m, 0, 0)                          # 172: add r6, sl


@kernel(inline=True)
def _m3_tap_end(m):
    """A tap's pointers stepped (then BNE) (0x164-0x16e)."""
    ldr_sp(m)                             # 164: ldr r2, [sp, #28]
    add(m, 0, 0)                          # 166: adds r4, #1
    cmp(m, 0, 0)                          # 168: cmp r8, r4
    add(m, 0, 0)                          # 16a: add r3, sl
    add(m, 0, 0)                          # 16c: add r6, r2
    add(m, 0, 0)                          # 16e: add r5, fp


@kernel(inline=True)
def _m4_tap_row_end(m):
    """A tap row's registers restored, im2col advanced (0x176-0x180)."""
    ldrd_sp(m)                            # 176: ldrd r1, r0, [sp, #40]
    ldr_sp(m)                             # 17a: ldr r3, [sp, #68]
    ldr_sp(m)                             # 17c: ldr lr, [sp, #48]
    add(m, 0, 0)                          # 180: add r0, r3


@kernel(inline=True)
def _m3_tap_row_end(m):
    """A tap row's registers restored, im2col advanced (0x172-0x17e)."""
    ldrd_sp(m)                            # 172: ldrd r1, lr, [sp, #36]
    mov(m, 0)                             # 176: mov r6, sl
    ldr_sp(m)                             # 178: ldr r3, [sp, #64]
    ldr_sp(m)                             # 17a: ldr ip, [sp, #44]
    add(m, 0, 0)                          # 17e: add lr, r3


@kernel(inline=True)
def _m4_tap_rows_step(m):
    """k_y and the source row stepped (then BNE) (0x182-0x18e)."""
    ldr_sp(m)                             # 182: ldr r3, [sp, #60]
    add(m, 0, 0)                          # 184: add r8, r3
    ldr_sp(m)                             # 186: ldr r3, [sp, #64]
    add(m, 0, 0)                          # 188: add lr, r3
    ldr_sp(m)                             # 18a: ldr r3, [sp, #52]
    add(m, 0, 0)                          # 18c: adds r1, #1
    cmp(m, 0, 0)                          # 18e: cmp r3, r1


@kernel(inline=True)
def _m3_tap_rows_step(m):
    """k_y and the source row stepped (then BNE) (0x180-0x18c)."""
    ldr_sp(m)                             # 180: ldr r3, [sp, #56]
    add(m, 0, 0)                          # 182: adds r1, #1
    add(m, 0, 0)                          # 184: add r9, r3
    ldr_sp(m)                             # 186: ldr r3, [sp, #60]
    add(m, 0, 0)                          # 188: add ip, r3
    ldr_sp(m)                             # 18a: ldr r3, [sp, #48]
    cmp(m, 0, 0)                          # 18c: cmp r3, r1


@kernel(inline=True)
def _m4_column_restore(m):
    """The column's registers restored (0x192-0x196)."""
    ldrd_sp(m)                            # 192: ldrd r4, r6, [sp, #72]
    ldr_sp(m)                             # 196: ldr r5, [sp, #80]


@kernel(inline=True)
def _m3_column_restore(m):
    """The column's registers restored (0x190-0x194)."""
    ldrd_sp(m)                            # 190: ldrd r5, sl, [sp, #68]
    ldr_sp(m)                             # 194: ldr r4, [sp, #76]


@kernel(inline=True)
def _m4_column_end(m):
    """base_idx_x and the input pointer stepped (then BNE) (0x19e-0x1ae)."""
    ldr_sp(m)                             # 19e: ldr r3, [sp, #96]
    ldr_sp(m)                             # 1a0: ldr r2, [sp, #88]
    add(m, 0, 0)                          # 1a2: add r5, r3
    ldr_sp(m)                             # 1a4: ldr r3, [sp, #56]
    add(m, 0, 0)                          # 1a6: add r3, r2
    str_sp(m)                             # 1a8: str r3, [sp, #56]
    ldr_sp(m)                             # 1aa: ldr r3, [sp, #84]
    add(m, 0, 0)                          # 1ac: adds r6, #1
    cmp(m, 0, 0)                          # 1ae: cmp r3, r6


@kernel(inline=True)
def _m3_column_end(m):
    """base_idx_x and the input pointer stepped (then BNE) (0x19c-0x1ae)."""
    ldr_sp(m)                             # 19c: ldr r3, [sp, #92]
    ldr_sp(m)                             # 19e: ldr r2, [sp, #84]
    add(m, 0, 0)                          # 1a0: add r4, r3
    ldr_sp(m)                             # 1a2: ldr r3, [sp, #52]
    add(m, 0, 0)                          # 1a4: add sl, sl, #1
    add(m, 0, 0)                          # 1a8: add r3, r2
    str_sp(m)                             # 1aa: str r3, [sp, #52]
    ldr_sp(m)                             # 1ac: ldr r3, [sp, #80]
    cmp(m, 0, 0)                          # 1ae: cmp r3, sl


@kernel(inline=True)
def _m4_row_end(m):
    """base_idx_y and the input row stepped (then BNE) (0x1bc-0x1cc)."""
    ldr_sp(m)                             # 1bc: ldr r1, [sp, #164]
    ldr_sp(m)                             # 1be: ldr r5, [sp, #148]
    add(m, 0, 0)                          # 1c0: add r2, r1
    ldr_sp(m)                             # 1c2: ldr r1, [sp, #92]
    add(m, 0, 0)                          # 1c4: add r1, r5
    str_sp(m)                             # 1c6: str r1, [sp, #92]
    ldr_sp(m)                             # 1c8: ldr r1, [sp, #108]
    add(m, 0, 0)                          # 1ca: adds r3, #1
    cmp(m, 0, 0)                          # 1cc: cmp r1, r3


@kernel(inline=True)
def _m3_row_end(m):
    """base_idx_y and the input row stepped (then BNE) (0x1bc-0x1cc)."""
    ldr_sp(m)                             # 1bc: ldr r1, [sp, #156]
    ldr_sp(m)                             # 1be: ldr r0, [sp, #140]
    add(m, 0, 0)                          # 1c0: add r2, r1
    ldr_sp(m)                             # 1c2: ldr r1, [sp, #88]
    add(m, 0, 0)                          # 1c4: adds r3, #1
    add(m, 0, 0)                          # 1c6: add r1, r0
    str_sp(m)                             # 1c8: str r1, [sp, #88]
    ldr_sp(m)                             # 1ca: ldr r1, [sp, #108]
    cmp(m, 0, 0)                          # 1cc: cmp r1, r3


@kernel(inline=True)
def _m4_batch_end(m):
    """input_data and output_data advanced (then BNE) (0x1d8-0x1ec)."""
    ldr_sp(m)                             # 1d8: ldr r1, [sp, #224]
    ldr_sp(m)                             # 1da: ldr r0, [sp, #152]
    add(m, 0, 0)                          # 1dc: add r1, r0
    str_sp(m)                             # 1de: str r1, [sp, #224]
    ldr_sp(m)                             # 1e0: ldr r0, [sp, #156]
    ldr_sp(m)                             # 1e2: ldr r1, [sp, #248]
    add(m, 0, 0)                          # 1e4: add r1, r0
    str_sp(m)                             # 1e6: str r1, [sp, #248]
    ldr_sp(m)                             # 1e8: ldr r1, [sp, #160]
    add(m, 0, 0)                          # 1ea: adds r3, #1
    cmp(m, 0, 0)                          # 1ec: cmp r1, r3


@kernel(inline=True)
def _m3_batch_end(m):
    """input_data and output_data advanced (then BNE) (0x1da-0x1ec)."""
    ldr_sp(m)                             # 1da: ldr r3, [sp, #216]
    ldr_sp(m)                             # 1dc: ldr r2, [sp, #144]
    add(m, 0, 0)                          # 1de: add r9, r9, #1
    add(m, 0, 0)                          # 1e2: add r3, r2
    str_sp(m)                             # 1e4: str r3, [sp, #216]
    ldr_sp(m)                             # 1e6: ldr r3, [sp, #148]
    add(m, 0, 0)                          # 1e8: add r4, r3
    ldr_sp(m)                             # 1ea: ldr r3, [sp, #152]
    cmp(m, 0, 0)                          # 1ec: cmp r3, r9


@kernel(inline=True)
def _m4_gemm_arguments(m):
    """arm_nn_mat_mult_kernel_s16's ten arguments, six stacked (0x202-0x222)."""
    ldr_sp(m)                             # 202: ldr r3, [sp, #100]
    str_sp(m)                             # 204: str r3, [sp, #20]
    ldr_sp(m)                             # 206: ldr r3, [sp, #240]
    str_sp(m)                             # 208: str r3, [sp, #16]
    ldr_sp(m)                             # 20a: ldr r3, [sp, #112]
    str_sp(m)                             # 20c: str r3, [sp, #12]
    ldr_sp(m)                             # 20e: ldr r3, [sp, #120]
    ldr_sp(m)                             # 210: ldr r4, [sp, #104]
    str_sp(m)                             # 212: str r3, [sp, #8]
    ldr_sp(m)                             # 214: ldr r3, [sp, #116]
    str_sp(m)                             # 216: str r3, [sp, #4]
    ldr_sp(m)                             # 218: ldr r3, [sp, #124]
    str_sp(m)                             # 21a: str r3, [sp, #0]
    mov(m, 0)                             # 21c: mov r1, r4
    ldrd_sp(m)                            # 21e: ldrd r3, r2, [sp, #128]
    ldr_sp(m)                             # 222: ldr r0, [sp, #232]


@kernel(inline=True)
def _m3_gemm_arguments(m):
    """arm_nn_mat_mult_kernel_s16's ten arguments, six stacked (0x208-0x228)."""
    ldr_sp(m)                             # 208: ldr r3, [sp, #96]
    ldrd_sp(m)                            # 20a: ldrd r5, r2, [sp, #100]
    str_sp(m)                             # 20e: str r3, [sp, #20]
    ldr_sp(m)                             # 210: ldr r3, [sp, #232]
    mov(m, 0)                             # 212: mov r1, r5
    str_sp(m)                             # 214: str r3, [sp, #16]
    ldr_sp(m)                             # 216: ldr r3, [sp, #112]
    ldr_sp(m)                             # 218: ldr r0, [sp, #224]
    str_sp(m)                             # 21a: str r3, [sp, #12]
    ldr_sp(m)                             # 21c: ldr r3, [sp, #120]
    str_sp(m)                             # 21e: str r3, [sp, #8]
    ldr_sp(m)                             # 220: ldr r3, [sp, #116]
    str_sp(m)                             # 222: str r3, [sp, #4]
    ldr_sp(m)                             # 224: ldr r3, [sp, #124]
    str_sp(m)                             # 226: str r3, [sp, #0]
    ldr_sp(m)                             # 228: ldr r3, [sp, #128]


@kernel(inline=True)
def _m4_gemm_return(m):
    """out kept, lhs_rows = 0, B back (0x228-0x22e)."""
    str_sp(m)                             # 228: str r0, [sp, #100]
    mov(m, 0)                             # 22a: mov r0, r4
    mov(m, 0)                             # 22c: movs r4, #0
    b(m)                                  # 22e: b 19e <arm_convolve_s16+0x19e>


@kernel(inline=True)
def _m3_gemm_return(m):
    """out kept, lhs_rows = 0 (0x22e-0x234)."""
    mov(m, 0)                             # 22e: mov lr, r5
    str_sp(m)                             # 230: str r0, [sp, #96]
    mov(m, 0)                             # 232: movs r5, #0
    b(m)                                  # 234: b 19c <arm_convolve_s16+0x19c>


@kernel(inline=True)
def _m4_left_over_setup(m):
    """The left-over column's invariants: rhs_cols >> 2, rhs_cols & 3, the end of out (0x246-0x274)."""
    ldr_sp(m)                             # 246: ldr r1, [sp, #112]
    ldr_sp(m)                             # 248: ldr lr, [sp, #232]
    str_sp(m)                             # 24c: str r3, [sp, #92]
    asr(m, 0, 0)                          # 24e: mov ip, r1, asr #2
    and_(m, 0, 0)                         # 252: and r1, r1, #3
    str_sp(m)                             # 256: str r1, [sp, #44]
    ldr_sp(m)                             # 258: ldr r1, [sp, #100]
    add(m, 0, 0)                          # 25a: add r1, r1, r2, lsl #1
    str_sp(m)                             # 25e: str r1, [sp, #48]
    ldr_sp(m)                             # 260: ldr r1, [sp, #104]
    ldrd_sp(m)                            # 262: ldrd r4, r9, [sp, #124]
    add(m, 0, 0)                          # 266: add r1, r1, ip, lsl #3
    str_sp(m)                             # 26a: str r1, [sp, #76]
    lsl(m, 0, 0)                          # 26c: mov r1, ip, lsl #2
    mov(m, 0)                             # 270: movs r5, #0
    str_sp(m)                             # 272: str r1, [sp, #72]
    mov(m, 0)                             # 274: mov r7, r2


@kernel(inline=True)
def _m3_left_over_setup(m):
    """The left-over column's invariants: uint16_t rhs_cols, the end of out (0x250-0x272)."""
    ldrd_sp(m)                            # 250: ldrd r0, lr, [sp, #124]
    ldr_sp(m)                             # 254: ldr r2, [sp, #112]
    mov(m, 0)                             # 256: movs r5, #0
    uxth(m, 0, 0)                         # 258: uxth r1, r2
    str_sp(m)                             # 25a: str r1, [sp, #36]
    ldr_sp(m)                             # 25c: ldr r1, [sp, #96]
    ldr_sp(m)                             # 25e: ldr sl, [sp, #224]
    add(m, 0, 0)                          # 262: add r3, r1, r3, lsl #1
    str_sp(m)                             # 266: str r3, [sp, #40]
    uxth(m, 0, 0)                         # 268: uxth r3, r2
    mov(m, 0)                             # 26a: mov r2, ip
    mov(m, 0)                             # 26c: mov ip, r6
    str_sp(m)                             # 26e: str r3, [sp, #52]
    str_sp(m)                             # 270: str r7, [sp, #68]
    str_sp(m)                             # 272: str r4, [sp, #240]


# --- the C -------------------------------------------------------------------------------

@kernel(inline=True)
def _requantize_rounding(m, total, shift):
    """arm_nn_divide_by_power_of_two(total, -shift) behind `ble` (shift <= 0): MOVS #1, RSBS,
    LSL, SUBS (the mask), AND (the remainder), ASRS #1 (the threshold), ASRS (the quotient,
    whose N flag is the sign), IT MI / ADDMI, CMP, BLE past ADDS #1 and B."""
    one = mov(m, 1)
    exponent = rsb(m, shift, 0)                       # -shift
    mask = sub(m, lsl(m, one, exponent), 1)           # (1 << exponent) - 1
    remainder = and_(m, total, mask)
    threshold = asr(m, mask, 1)
    total = asr(m, total, exponent)
    negative = total < 0
    it(m, not negative)
    if negative:
        threshold = add(m, threshold, 1)              # if (result < 0) threshold++;
    cmp(m, remainder, threshold)
    bcc(m, remainder <= threshold)                    # ble
    if remainder > threshold:
        total = add(m, total, 1)                      # result++;
        b(m)
    return total


@kernel(inline=True)
def _requantize_s32(m, total, mult_ptr, shift_ptr):
    """arm_nn_requantize(sum, output_mult[i], output_shift[i]) as inlined in the left-over
    column (0x2e8 / 0x2ac)."""
    if m.dsp:
        shift = ldr(m, shift_ptr)                     # 2e8: ldr.w r0, [r9]
        mult = ldr(m, mult_ptr)                       # 2ec: ldr r3, [r4]
        left = bic(m, shift, shift >> 31)             # LEFT_SHIFT(shift)
        value = lsl(m, total, left)
        hi = mov(m, 0)
        lo = mov(m, 1 << 30)
    else:
        shift = ldr(m, shift_ptr)                     # 2ac: ldr.w r6, [lr]
        hi = mov(m, 0)
        left = bic(m, shift, shift >> 31)
        value = lsl(m, total, left)
        lo = mov(m, 1 << 30)
        mult = ldr(m, mult_ptr)                       # 2be: ldr r4, [r0]
    if not m.dsp:
        cmp(m, shift, 0)
    lo, hi = smlal(m, lo, hi, value, mult)            # mult.long_long += (int64_t)m1 * m2;
    lo = lsr(m, lo, 31)
    if m.dsp:
        cmp(m, shift, 0)
    total = orr(m, lo, hi << 1)                       # (int32_t)(mult.long_long >> 31)
    bcc(m, shift <= 0)                                # ble: a right shift to round
    if shift <= 0:
        total = _requantize_rounding(m, total, shift)
    return total


@kernel(inline=True)
def _reduce_multiplier(m, mult):
    """REDUCE_MULTIPLIER(mult): LDR of 0x7ffeffff from the literal pool, CMP, BGT to MOVW
    #0x7fff / MOVS #0 / B, else ADD #0x8000, ASRS #16, ASRS #31.  (reduced, its sign word)"""
    ldr_lit(m)
    cmp(m, mult, 0x7FFEFFFF)
    bcc(m, mult > 0x7FFEFFFF)                         # bgt
    if mult > 0x7FFEFFFF:
        reduced = mov(m, 0x7FFF)
        sign = mov(m, 0)
        b(m)
        return reduced, sign
    rounded = add(m, mult, 1 << 15)
    return asr(m, rounded, 16), asr(m, rounded, 31)


@kernel(inline=True)
def _requantize_s64(m, lo, hi, reduced, sign, shift_ptr):
    """arm_nn_requantize_s64(acc_64, reduced_multiplier, output_shift[i]) (0x368 / 0x324):
    MUL / MLA / UMULL / ADD (the product's low 64 bits), the shift loaded, RSB #14, ADD #18,
    LSRS, LSL, SUBS #32, ORR, ITT PL ASRPL / ORRPL (a shift of 32 or more), ADDS #1, ASRS #1."""
    cross = mul(m, lo, sign)                          # lo(val) * sign(mult)
    cross = mla(m, reduced, hi, cross)                # + hi(val) * mult
    if m.dsp:
        shift = ldr(m, shift_ptr)                     # 370: ldr.w r8, [r9]
        p_lo, p_hi = umull(m, lo, reduced)
    else:
        p_lo, p_hi = umull(m, lo, reduced)
        shift = ldr(m, shift_ptr)                     # 330: ldr.w r7, [lr]
    p_hi = add(m, p_hi, cross)                        # new_val = val * reduced_multiplier
    n = rsb(m, shift, 14)                             # 14 - shift
    n_left = add(m, shift, 18)                        # 32 - n
    result = lsr(m, p_lo, n)
    high = lsl(m, p_hi, n_left)
    over = sub(m, n, 32)
    result = orr(m, result, high)
    it(m, 0 if over >= 0 else 2)                      # ITT PL: both fail while n < 32
    if over >= 0:
        result = orr(m, result, asr(m, p_hi, over))
    result = add(m, result, 1)                        # (result + 1) >> 1
    result = asr(m, result, 1)
    b(m)
    return result


@kernel(inline=True)
def _left_over(m, out, buffer_a, filter_data, bias_data, output_mult, output_shift, rhs_cols,
               output_ch, act_min, act_max):
    """`if (lhs_rows != 0)`: the last odd column, channel by channel.  Returns out."""
    bias = bias_data.data
    is_int32_bias = bias_data.is_int32_bias
    if m.dsp:
        ldr_sp(m)                                     # 23a: ldr r1, [sp, #240]  bias_data
        cmp(m, output_ch, 0)
        ldr_sp(m)                                     # 23e: ldr r6, [r1]  ->data
        ldrb_sp(m)                                    # 240: ldrb r1, [r1, #4]  ->is_int32_bias
        str_sp(m)
    else:
        ldr_sp(m)                                     # 240: ldr r3, [sp, #232]  bias_data
        ldr_sp(m)                                     # 242: ldr.w ip, [r3]  ->data
        ldrb_sp(m)                                    # 246: ldrb r3, [r3, #4]  ->is_int32_bias
        str_sp(m)
        ldr_sp(m)
        cmp(m, output_ch, 0)
    bcc(m, output_ch <= 0)                            # ble: for (i = 0; i < output_ch; i++)
    if output_ch <= 0:
        return out
    if m.dsp:
        _m4_left_over_setup(m)
    else:
        _m3_left_over_setup(m)
    ker_a = filter_data
    col_quads = rhs_cols >> 2
    for i in range(output_ch):
        total = 0                                     # int32_t sum = 0;
        ip_as_col = buffer_a
        if m.dsp:
            cmp(m, col_quads, 0)                      # 276: while (col_count)
            bcc(m, col_quads == 0)                    # beq.w 3aa
            if col_quads == 0:
                ldr_sp(m)                             # 3aa: ldr r0, [sp, #104]
                mov(m, 0)                             # 3ac: mov r1, lr
                total = mov(m, 0)                     # 3ae: mov r2, ip
                b(m)                                  # 3b0: b.n 2c2
            else:
                ldr_sp(m)                             # 27e: ldr r0, [sp, #104]
                str_sp(m)                             # 280: str r4, [sp, #132]
                mov(m, 0)                             # 282: mov r8, lr
                total = mov(m, 0)                     # 284: movs r2, #0
                str_sp(m)                             # 286: str.w ip, [sp, #40]
                count = col_quads
                while count:
                    in_a = ldr(m, ker_a)              # ker_a = read_and_pad(ker_a, ...)
                    ker_a += 4
                    buf1 = sxtb16(m, in_a, 8)
                    ip_b1 = ldr(m, ip_as_col)         # ip_b1 = arm_nn_read_q15x2_ia(&ip_as_col)
                    str_sp(m)                         # 294: str r3, [sp, #80]
                    buf2 = sxtb16(m, in_a, 0)
                    ker_a2 = pkhtb(m, buf1, buf2, 16)
                    ker_a1 = pkhbt(m, buf2, buf1, 16)
                    ldr_sp(m)                         # 2a2: ldr r4, [sp, #80]
                    total = smlad(m, ker_a1, ip_b1, total)
                    ip_b2 = ldr(m, ip_as_col + 4)
                    ip_as_col = add(m, ip_as_col, 8)
                    total = smlad(m, ker_a2, ip_b2, total)
                    ldr_sp(m)                         # 2b0: ldr r3, [sp, #40]
                    count = sub(m, count, 1)          # col_count--;
                    str_sp(m)
                    bcc(m, count != 0)                # bne
                ldr_sp(m)                             # 2b8: ldr r3, [sp, #72]
                ldr_sp(m)                             # 2ba: ldr r4, [sp, #132]
                ldr_sp(m)                             # 2bc: ldr r0, [sp, #76]
                add(m, 0, 0)                          # 2be: add.w r1, lr, r3
            ldr_sp(m)                                 # 2c2: ldr r3, [sp, #44]
            rest = rhs_cols & 3                       # col_count = rhs_cols & 0x3;
            cmp(m, rest, 0)
            bcc(m, rest == 0)                         # beq 39c
            if rest == 0:
                mov(m, 0)                             # 39c: mov lr, r1
                b(m)                                  # 39e: b.n 2dc
            else:
                add(m, 0, 0)                          # 2c8: add.w lr, r1, r3
                while rest:
                    ker_a1 = ldrsb(m, ker_a)          # int8_t ker_a1 = *ker_a++;
                    ker_a += 1
                    ip_b1 = ldrh(m, ip_as_col)        # int16_t ip_b1 = *ip_as_col++;
                    ip_as_col += 2
                    rest -= 1
                    cmp(m, rest, 0)                   # a pointer compare
                    total = smlabb(m, ip_b1, ker_a1, total)   # sum += ker_a1 * ip_b1;
                    bcc(m, rest != 0)
            ldr_sp(m)                                 # 2dc: ldr r3, [sp, #56]  is_int32_bias
        else:
            ldr_sp(m)                                 # 274: ldr r3, [sp, #36]
            count = rhs_cols & 0xFFFF                 # uint16_t col_count = rhs_cols;
            cmp(m, count, 0)
            bcc(m, count == 0)                        # beq 37a
            if count == 0:
                ldr_sp(m)                             # 37a: ldr r3, [sp, #36]  (sum = 0)
                b(m)                                  # 37c: b.n 2a0
            else:
                total = mov(m, 0)                     # 27a: movs r3, #0
                mov(m, 0)                             # 27c: mov r7, ip
                ldr_sp(m)                             # 27e: ldr r6, [sp, #52]
                ldr_sp(m)                             # 280: ldr r1, [sp, #100]
                ldr_sp(m)                             # 282: ldr r4, [sp, #240]
                add(m, 0, 0)                          # 284: add r6, sl
                str_sp(m)                             # 286: str r2, [sp, #72]
                while count:
                    ker_a1 = ldrsb(m, ker_a)          # int8_t ker_a1 = *ker_a++;
                    ker_a += 1
                    mov(m, 0)                         # 28c: mov r2, ip
                    ip_b1 = ldrsh(m, ip_as_col)       # int16_t ip_b1 = *ip_as_col++;
                    ip_as_col += 2
                    count -= 1
                    cmp(m, count, 0)                  # a pointer compare
                    total = mla(m, ip_b1, ker_a1, total)   # sum += ker_a1 * ip_b1;
                    bcc(m, count != 0)
                mov(m, 0)                             # 29a: mov ip, r7
                ldr_sp(m)                             # 29c: ldr r2, [sp, #72]
                str_sp(m)                             # 29e: str r4, [sp, #240]
            ldr_sp(m)                                 # 2a0: ldr r1, [sp, #44]  is_int32_bias
        cbz(m, not is_int32_bias)                     # if (is_int32_bias)
        if is_int32_bias:
            cbz(m, bias == 0)                         # if (bias_s32)
            if bias != 0:
                total = add(m, total, ldr(m, bias + 4 * i))   # sum += bias_s32[i];
            total = _requantize_s32(m, total, output_mult + 4 * i, output_shift + 4 * i)
        else:
            hi = asr(m, total, 31)                    # int64_t acc_64 = sum;
            lo = total
            cbz(m, bias == 0)                         # if (bias_s64)
            if bias != 0:                             # acc_64 += bias_s64[i];
                if m.dsp:
                    add(m, 0, 0)                      # 33e: add.w r1, r6, r5, lsl #3
                    b_hi = ldr(m, bias + 8 * i + 4)
                    b_lo = ldr(m, bias + 8 * i)
                    carry = carry_of_add(lo, b_lo)
                    lo = add(m, lo, b_lo)
                    hi = adc(m, hi, b_hi, carry)
                    mov(m, 0)                         # 350: mov r2, r1
                else:
                    b_lo = ldr(m, bias + 8 * i)
                    carry = carry_of_add(lo, b_lo)
                    lo = add(m, lo, b_lo)
                    mov(m, 0)                         # 308: mov r3, r1
                    add(m, 0, 0)                      # 30a: add.w r1, r2, r5, lsl #3
                    b_hi = ldr(m, bias + 8 * i + 4)
                    hi = adc(m, hi, b_hi, carry)
            mult = ldr(m, output_mult + 4 * i)        # REDUCE_MULTIPLIER(output_mult[i])
            reduced, sign = _reduce_multiplier(m, mult)
            total = _requantize_s64(m, lo, hi, reduced, sign, output_shift + 4 * i)
        # sum = MAX(sum, out_activation_min); sum = MIN(sum, out_activation_max);
        if m.dsp:
            ldr_sp(m)                                 # 30a: ldr r3, [sp, #116]
            total = max_lt(m, total, act_min)
            ldr_sp(m)                                 # 312: ldr r3, [sp, #120]
            total = min_ge(m, total, act_max)
            ldr_sp(m)                                 # 31a: ldr r3, [sp, #100]  out
            strh(m, out, total)                       # *out++ = (int16_t)sum;
            out += 2
            ldr_sp(m)                                 # 320: ldr r2, [sp, #48]
            str_sp(m)                                 # 322: str r3, [sp, #100]
            cmp(m, i + 1, output_ch)
            add(m, 0, 0)                              # 326: add.w r5, r5, #1
            add(m, 0, 0)                              # 32a: add.w r9, r9, #4
            add(m, 0, 0)                              # 32e: add.w r4, r4, #4
        else:
            ldr_sp(m)                                 # 2d0: ldr r1, [sp, #116]
            add(m, 0, 0)                              # 2d2: adds r5, #1
            total = max_lt(m, total, act_min)
            ldr_sp(m)                                 # 2da: ldr r1, [sp, #120]
            add(m, 0, 0)                              # 2dc: add.w lr, lr, #4
            total = min_ge(m, total, act_max)
            ldr_sp(m)                                 # 2e6: ldr r1, [sp, #96]  out
            add(m, 0, 0)                              # 2e8: adds r0, #4
            strh(m, out, total)                       # *out++ = (int16_t)sum;
            out += 2
            ldr_sp(m)                                 # 2ee: ldr r3, [sp, #40]
            str_sp(m)                                 # 2f0: str r1, [sp, #96]
            cmp(m, i + 1, output_ch)
        bcc(m, i + 1 < output_ch)                     # bne
    if m.dsp:
        ldr_sp(m)                                     # 334: ldr r3, [sp, #92]
        mov(m, 0)                                     # 336: mov r2, r7
    else:
        mov(m, 0)                                     # 2f6: mov r6, ip
        ldr_sp(m)                                     # 2f8: ldr r7, [sp, #68]
        ldr_sp(m)                                     # 2fa: ldr r4, [sp, #240]
    b(m)                                              # b.n to the batch's end
    return out


@kernel(inline=True)
def _tap(m, im2col, input_data, input_x, input_y, k_x, k_y, col_bytes):
    """One filter tap: `if (k_y < 0 || k_y >= input_y || k_x < 0 || k_x >= input_x)`
    arm_memset_s8(im2col, 0, ...) else arm_memcpy_s8(im2col, input_data + ..., ...);
    im2col += input_ch.  Returns the advanced im2col."""
    if m.dsp:
        ldr_sp(m)                                     # 14a: ldr r3, [sp, #28]  input_y
        cmp(m, input_y, k_y)
        mov(m, col_bytes)                             # 14e: mov r2, fp
        mov(m, 0)                                     # 150: mov.w r1, #0
        mov(m, im2col)                                # 154: mov r0, r4
    else:
        cmp(m, input_y, k_y)                          # 148: cmp r7, r9
    outside = input_y <= k_y
    bcc(m, outside)                                   # ble: memset
    if not outside:
        orr(m, k_x, k_y)                              # orrs: either index negative
        outside = (k_x | k_y) < 0
        bcc(m, outside)                               # bmi: memset
    if not outside:
        ldr_sp(m)                                     # input_x
        cmp(m, input_x, k_x)
        outside = input_x <= k_x
        bcc(m, not outside)                           # blt / bgt: memcpy
    if outside:
        if not m.dsp:
            mov(m, im2col)                            # 158: mov r0, r3
            mov(m, col_bytes)                         # 15a: mov r2, sl
            mov(m, 0)                                 # 15c: movs r1, #0
        bl(m)
        memset(m, im2col, 0, col_bytes)
        if not m.dsp:
            mov(m, 0)                                 # 162: mov r3, r0
    else:
        src = input_data + (k_y * input_x + k_x) * col_bytes
        if m.dsp:
            mov(m, src)                               # 1fa: mov r1, r9
        else:
            mov(m, im2col)                            # 1fa: mov r0, r3
            mov(m, src)                               # 1fc: mov r1, r6
            mov(m, col_bytes)                         # 1fe: mov r2, sl
        bl(m)
        memcpy(m, im2col, src, col_bytes)
        if not m.dsp:
            mov(m, 0)                                 # 204: mov r3, r0
        b(m)                                          # b.n back to the tap's end
    return im2col + col_bytes


@kernel
def arm_convolve_s16(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                     filter_data, bias_data, output_dims, output_data):
    """The C's arguments as `arm_nn_types` structs (bias_dims, unread by the C, is left out;
    bias_data a `BiasData`).  Returns (status, GEMM calls)."""
    buf = ctx.buf
    push(m, 9)                                        # push {r4-r11, lr}
    ldr_sp(m)                                         # ctx->buf
    sub(m, 0, 0)                                      # sub sp, #frame
    mov(m, 0)
    ldr_sp(m)                                         # filter_dims, output_dims (stacked)
    ldr_sp(m)
    str_sp(m)
    cmp(m, buf, 0)                                    # if (ctx->buf == NULL)
    bcc(m, buf == 0)                                  # beq.w
    if buf == 0:
        mov(m, ARG_ERROR)                             # mov.w r0, #-1
        b(m)
        add(m, 0, 0)                                  # add sp, #frame
        pop_pc(m, 9)
        return ARG_ERROR, 0
    buffer_a = buf                                    # int16_t *buffer_a = (int16_t *)ctx->buf;
    input_batches = input_dims.n
    input_x = input_dims.w
    input_y = input_dims.h
    input_ch = input_dims.c
    kernel_x = filter_dims.w
    kernel_y = filter_dims.h
    output_x = output_dims.w
    output_y = output_dims.h
    output_ch = output_dims.c
    rhs_cols = input_ch * kernel_y * kernel_x
    dilation_x = conv_params.dilation.w
    dilation_y = conv_params.dilation.h
    pad_x = conv_params.padding.w
    pad_y = conv_params.padding.h
    stride_x = conv_params.stride.w
    stride_y = conv_params.stride.h
    act_min = conv_params.activation.min
    act_max = conv_params.activation.max
    output_mult = quant_params.multiplier
    output_shift = quant_params.shift
    col_bytes = 2 * input_ch                          # sizeof(int16_t) * input_ch
    if m.dsp:
        _m4_fields(m)
    else:
        _m3_fields(m)
    gemm_calls = 0
    bcc(m, input_batches <= 0)                        # ble.w: for (i_batch ...)
    if input_batches > 0:
        if m.dsp:
            _m4_batch_invariants(m)
        else:
            _m3_batch_invariants(m)
    for i_batch in range(input_batches):
        ldr_sp(m)                                     # output_y
        cmp(m, output_y, 0)
        bcc(m, output_y <= 0)                         # ble: for (i_out_y ...)
        lhs_rows = 0
        if output_y > 0:
            out = output_data                         # int16_t *out = output_data;
            im2col = buffer_a                         # int16_t *im2col = buffer_a;
            if m.dsp:
                _m4_batch_start(m)
            else:
                _m3_batch_start(m)
            for i_out_y in range(output_y):
                ldr_sp(m)                             # output_x
                cmp(m, output_x, 0)
                bcc(m, output_x <= 0)                 # ble: for (i_out_x ...)
                if output_x > 0:
                    if m.dsp:
                        _m4_row_start(m)
                    else:
                        _m3_row_start(m)
                    base_idx_y = stride_y * i_out_y - pad_y
                    for i_out_x in range(output_x):
                        base_idx_x = stride_x * i_out_x - pad_x
                        ldr_sp(m)                     # kernel_y
                        cmp(m, kernel_y, 0)
                        bcc(m, kernel_y <= 0)         # ble: for (i_ker_y ...)
                        if kernel_y > 0:
                            if m.dsp:
                                _m4_column_start(m)
                            else:
                                _m3_column_start(m)
                            for i_ker_y in range(kernel_y):
                                k_y = base_idx_y + dilation_y * i_ker_y
                                cmp(m, kernel_x, 0)
                                bcc(m, kernel_x <= 0)     # ble: for (i_ker_x ...)
                                if kernel_x > 0:
                                    if m.dsp:
                                        _m4_tap_row_start(m)
                                    else:
                                        _m3_tap_row_start(m)
                                    for i_ker_x in range(kernel_x):
                                        k_x = base_idx_x + dilation_x * i_ker_x
                                        im2col = _tap(m, im2col, input_data, input_x, input_y,
                                                      k_x, k_y, col_bytes)
                                        if m.dsp:
                                            _m4_tap_end(m)
                                        else:
                                            _m3_tap_end(m)
                                        bcc(m, i_ker_x + 1 < kernel_x)    # bne
                                    if m.dsp:
                                        _m4_tap_row_end(m)
                                    else:
                                        _m3_tap_row_end(m)
                                if m.dsp:
                                    _m4_tap_rows_step(m)
                                else:
                                    _m3_tap_rows_step(m)
                                bcc(m, i_ker_y + 1 < kernel_y)            # bne
                            if m.dsp:
                                _m4_column_restore(m)
                            else:
                                _m3_column_restore(m)
                        lhs_rows = add(m, lhs_rows, 1)            # lhs_rows++;
                        cmp(m, lhs_rows, 2)                       # if (lhs_rows == 2)
                        bcc(m, lhs_rows == 2)                     # beq
                        if lhs_rows == 2:
                            if m.dsp:
                                _m4_gemm_arguments(m)
                            else:
                                _m3_gemm_arguments(m)
                            bl(m)
                            out = arm_nn_mat_mult_kernel_s16(
                                m, filter_data, buffer_a, output_ch, output_shift,
                                output_mult, act_min, act_max, rhs_cols, bias_data, out)
                            gemm_calls += 1
                            im2col = buffer_a                     # im2col = buffer_a;
                            lhs_rows = 0                          # lhs_rows = 0;
                            if m.dsp:
                                _m4_gemm_return(m)
                            else:
                                _m3_gemm_return(m)
                        if m.dsp:
                            _m4_column_end(m)
                        else:
                            _m3_column_end(m)
                        bcc(m, i_out_x + 1 < output_x)            # bne
                    ldrd_sp(m)                        # 1b2: ldrd r3, r2, [sp, #176]
                ldr_sp(m)                             # out
                cmp(m, out, 0)                        # if (out == NULL)
                bcc(m, out == 0)                      # beq
                if out == 0:
                    mvn(m, 1)                         # return ARM_CMSIS_NN_NO_IMPL_ERROR;
                    add(m, 0, 0)
                    pop_pc(m, 9)
                    return NO_IMPL_ERROR, gemm_calls
                if m.dsp:
                    _m4_row_end(m)
                else:
                    _m3_row_end(m)
                bcc(m, i_out_y + 1 < output_y)        # bne
            ldr_sp(m)                                 # 1d0: the registers of the batch
            ldr_sp(m)
            cmp(m, lhs_rows, 0)                       # if (lhs_rows != 0)
            bcc(m, lhs_rows != 0)                     # bne
            if lhs_rows != 0:
                out = _left_over(m, out, buffer_a, filter_data, bias_data, output_mult,
                                 output_shift, rhs_cols, output_ch, act_min, act_max)
        input_data += 2 * input_x * input_y * input_ch    # input_data += (...);
        output_data += 2 * output_x * output_y * output_ch
        if m.dsp:
            _m4_batch_end(m)
        else:
            _m3_batch_end(m)
        bcc(m, i_batch + 1 < input_batches)           # bne.w
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return 0, gemm_calls


@kernel
def arm_convolve_wrapper_s16(m, ctx, conv_params, quant_params, input_dims, input_data,
                             filter_dims, filter_data, bias_data, output_dims, output_data):
    """return arm_convolve_s16(...): a tail call (one B)."""
    b(m)
    return arm_convolve_s16(m, ctx, conv_params, quant_params, input_dims, input_data,
                            filter_dims, filter_data, bias_data, output_dims, output_data)
