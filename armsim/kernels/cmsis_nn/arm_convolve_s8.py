"""arm_convolve_s8 (Source/ConvolutionFunctions/arm_convolve_s8.c), non-MVE build.

    arm_cmsis_nn_status arm_convolve_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_conv_params *conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *upscale_dims, const cmsis_nn_dims *output_dims,
        int8_t *output_data)

im2col: for each output pixel (per group), each filter tap is one libc call into the int8
half of ctx->buf -- `memcpy` of kernel_ch bytes for a tap inside the input, `memset` to
-input_offset for a padding tap (so that input + input_offset == 0 there) -- then the
column is widened to int16 with the input offset added (arm_s8_to_s16_unordered_with_offset
with ARM_MATH_DSP, arm_q7_to_q15_with_offset without) into the int16 half; every second
column both are multiplied with the weights by arm_nn_mat_mult_kernel_s8_s16
(arm_nn_mat_mult_kernel_row_offset_s8_s16 when groups > 1).  An odd last column is done
inline.  `upscale_dims` is NULL from arm_convolve_wrapper_s8 and arm_convolve_1_x_n_s8 and
{0, stride_h, stride_w, 0} from arm_transpose_conv_wrapper_s8's reverse path: a stride-2
dimension reads the zero-upscaled input (y_rshift / x_rshift), each column starts as one `memset` of the whole tap window to
-input_offset and only the taps on even upscaled rows / columns are copied.

Transcribed from gcc 12.2 -O2's disassembly, -mcpu=cortex-m4 (ARM_MATH_DSP) and
-mcpu=cortex-m3, each build in its own order (`_m4_*` / `_m3_*` blocks where the two
differ; the addresses in the comments are the objects' offsets): the struct fields read
once and spilled (uint16_t locals reloaded with LDRH), the loop invariants of a batch, a
group and an output row computed up front, the tap loop's pointer stepping and its range
tests (one unsigned compare each for k_y and k_x), the spills around every call
(memset, memcpy, the widening, the GEMM), the left-over column's SMLAD loop (M4: then
LDRH + SMLABB per left-over value) and requantization, the pointer updates of a group and
a batch.  Struct field loads (LDR [rN, #imm] of the caller's structs, not placed in
simulated memory) are issued as stack-slot loads (`ldr_sp`, `ldrh_sp`, `ldrd_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, and_, asr, b, bcc, bl, cbnz, cbz, clz, cmp,
                            enter_region, it, ldr, ldr_sp, ldrd_sp, ldrh, ldrh_sp, ldrsb, ldrsh,
                            ldrsh_sp, leave_region, lsl, lsr, mla, mls, mov, mul, mvn, pop_pc,
                            push, ror, rsb, smlabb, smlad, str_sp, strb, strd_sp, sub, sxtb,
                            sxtb16, tst, ubfx, udiv, uxth)
from armsim.kernels.libc import memcpy, memset
from armsim.kernels.minmax import max_lt, min_ge

from .arm_nn_mat_mult_kernel_row_offset_s8_s16 import arm_nn_mat_mult_kernel_row_offset_s8_s16
from .arm_nn_mat_mult_kernel_s8_s16 import arm_nn_mat_mult_kernel_s8_s16
from .arm_nn_requantize import requantize_inlined
from .arm_q7_to_q15_with_offset import arm_q7_to_q15_with_offset
from .arm_s8_to_s16_unordered_with_offset import arm_s8_to_s16_unordered_with_offset

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1
NO_IMPL_ERROR = -2
# which GEMM kernel ran (for the kernel chain): 0 none, 1 arm_nn_mat_mult_kernel_s8_s16,
# 2 arm_nn_mat_mult_kernel_row_offset_s8_s16
GEMM_NONE = 0
GEMM_S8_S16 = 1
GEMM_ROW_OFFSET = 2


# --- straight-line blocks (no branch inside), one per build --------------------------------

@kernel(inline=True)
def _m4_fields(m):
    """Struct fields, groups, rhs_cols, output_ch_per_group, input_ch % groups (0x16-0xb8)."""
    ldrh_sp(m)                                    # 16: ldrh.w lr, [r7, #4]
    ldr_sp(m)                                     # 1a: ldr r4, [r3, #0xc]
    ldrh_sp(m)                                    # 1c: ldrh.w fp, [r7, #8]
    ldr_sp(m)                                     # 20: ldr.w r8, [r5, #0xc]
    ldr_sp(m)                                     # 24: ldr r6, [r7, #0xc]
    str_sp(m)                                     # 26: str.w lr, [sp, #0x44]
    uxth(m, 0, 0)                                 # 2a: uxth.w ip, r4
    mul(m, 0, 0)                                  # 2e: mul r4, lr, fp
    ldr_sp(m)                                     # 32: ldr.w lr, [r1, #0x10]
    str_sp(m)                                     # 36: str.w lr, [sp, #0xf8]
    ldr_sp(m)                                     # 3a: ldr.w lr, [r1, #0x14]
    str_sp(m)                                     # 3e: str.w r8, [sp, #0xf4]
    uxth(m, 0, 0)                                 # 42: uxth r7, r6
    uxth(m, 0, 0)                                 # 44: uxth.w sb, r6
    str_sp(m)                                     # 48: str.w lr, [sp, #0xfc]
    uxth(m, 0, 0)                                 # 4c: uxth.w r6, r8
    ldrd_sp(m)                                    # 50: ldrd lr, r8, [r1, #8]
    udiv(m, 0, 1)                                 # 54: udiv r7, ip, r7
    str_sp(m)                                     # 58: str.w r8, [sp, #0x100]
    ldrd_sp(m)                                    # 5c: ldrd r8, sl, [r1, #0x18]
    mul(m, 0, 0)                                  # 60: mul r4, sb, r4
    str_sp(m)                                     # 64: str.w ip, [sp, #0x64]
    str_sp(m)                                     # 68: str r4, [sp, #0x5c]
    str_sp(m)                                     # 6a: str r7, [sp, #0xb4]
    udiv(m, 0, 1)                                 # 6c: udiv r4, ip, r7
    str_sp(m)                                     # 70: str r6, [sp, #0xe0]
    mls(m, 0, 0, 0)                               # 72: mls r4, r7, r4, ip
    ldr_sp(m)                                     # 76: ldr.w ip, [r3]
    str_sp(m)                                     # 7a: str.w sl, [sp, #0x48]
    mov(m, 0)                                     # 7e: mov r7, r6
    ldrd_sp(m)                                    # 80: ldrd r3, r6, [r3, #4]
    ldr_sp(m)                                     # 84: ldr.w sl, [r1, #4]
    str_sp(m)                                     # 88: str.w sl, [sp, #0xd0]
    ldr_sp(m)                                     # 8c: ldr.w sl, [r1, #0x20]
    str_sp(m)                                     # 90: str.w ip, [sp, #0x108]
    str_sp(m)                                     # 94: str r3, [sp, #0x28]
    ldrd_sp(m)                                    # 96: ldrd r5, ip, [r5, #4]
    str_sp(m)                                     # 9a: str.w sl, [sp, #0xd4]
    ldr_sp(m)                                     # 9e: ldr.w sl, [r1, #0x24]
    ldr_sp(m)                                     # a2: ldr r1, [r1]
    ldr_sp(m)                                     # a4: ldr r3, [sp, #0xb4]
    str_sp(m)                                     # a6: str.w sl, [sp, #0xd8]
    str_sp(m)                                     # aa: str r1, [sp, #0xe8]
    ldrd_sp(m)                                    # ac: ldrd sl, r1, [r2]
    mov(m, 0)                                     # b0: mov r2, r7
    udiv(m, 0, 1)                                 # b2: udiv r7, r7, r3
    str_sp(m)                                     # b6: str r7, [sp, #0xdc]
    cmp(m, 0, 0)                                  # b8: cmp r4, #0


@kernel(inline=True)
def _m3_fields(m):
    """Struct fields, groups, rhs_cols, output_ch_per_group, input_ch % groups (0x16-0x90)."""
    ldr_sp(m)                                     # 16: ldr r7, [r3, #0xc]
    ldr_sp(m)                                     # 18: ldr r0, [r6, #0xc]
    uxth(m, 0, 0)                                 # 1a: uxth.w ip, r7
    uxth(m, 0, 0)                                 # 1e: uxth r7, r0
    str_sp(m)                                     # 20: str.w ip, [sp, #0x70]
    udiv(m, 0, 1)                                 # 24: udiv ip, ip, r7
    ldrh_sp(m)                                    # 28: ldrh r0, [r6, #4]
    ldrh_sp(m)                                    # 2a: ldrh.w fp, [r6, #8]
    str_sp(m)                                     # 2e: str r0, [sp, #0x4c]
    mul(m, 0, 0)                                  # 30: mul r0, r0, fp
    mul(m, 0, 0)                                  # 34: mul r0, r7, r0
    ldr_sp(m)                                     # 38: ldr r6, [r4, #0xc]
    str_sp(m)                                     # 3a: str r0, [sp, #0x60]
    str_sp(m)                                     # 3c: str r6, [sp, #0xf8]
    uxth(m, 0, 0)                                 # 3e: uxth r0, r6
    ldr_sp(m)                                     # 40: ldr r6, [r3]
    mov(m, 0)                                     # 42: mov sb, r7
    str_sp(m)                                     # 44: str r6, [sp, #0x10c]
    ldr_sp(m)                                     # 46: ldr r6, [r3, #8]
    ldr_sp(m)                                     # 48: ldr.w r8, [r4, #8]
    str_sp(m)                                     # 4c: str r6, [sp, #0x2c]
    ldr_sp(m)                                     # 4e: ldr r6, [r3, #4]
    ldr_sp(m)                                     # 50: ldr r3, [r1, #0x10]
    str_sp(m)                                     # 52: str r0, [sp, #0xdc]
    str_sp(m)                                     # 54: str r3, [sp, #0xfc]
    ldr_sp(m)                                     # 56: ldr r3, [r1, #0x14]
    ldr_sp(m)                                     # 58: ldr r4, [r4, #4]
    str_sp(m)                                     # 5a: str r3, [sp, #0x100]
    ldrd_sp(m)                                    # 5c: ldrd lr, r3, [r1, #8]
    str_sp(m)                                     # 60: str r3, [sp, #0x104]
    ldrd_sp(m)                                    # 62: ldrd r7, r3, [r1, #0x18]
    str_sp(m)                                     # 66: str r3, [sp, #0x50]
    ldr_sp(m)                                     # 68: ldr r3, [r1, #4]
    str_sp(m)                                     # 6a: str r3, [sp, #0xc8]
    ldr_sp(m)                                     # 6c: ldr r3, [r1, #0x20]
    str_sp(m)                                     # 6e: str r3, [sp, #0xcc]
    ldr_sp(m)                                     # 70: ldr r3, [r1, #0x24]
    str_sp(m)                                     # 72: str r3, [sp, #0xd0]
    ldr_sp(m)                                     # 74: ldr r3, [r1]
    mov(m, 0)                                     # 76: mov r1, r0
    str_sp(m)                                     # 78: str r3, [sp, #0xe8]
    ldrd_sp(m)                                    # 7a: ldrd sl, r3, [r2]
    ldr_sp(m)                                     # 7e: ldr r2, [sp, #0x70]
    str_sp(m)                                     # 80: str r3, [sp, #0x118]
    udiv(m, 0, 1)                                 # 82: udiv r3, r2, ip
    udiv(m, 0, 1)                                 # 86: udiv r0, r0, ip
    mls(m, 0, 0, 0)                               # 8a: mls r3, ip, r3, r2
    str_sp(m)                                     # 8e: str r0, [sp, #0xd4]
    cmp(m, 0, 0)                                  # 90: cmp r3, #0


@kernel(inline=True)
def _m4_batch_invariants(m):
    """The strides, products and pointers the loops use, computed and spilled (0x11a-0x1b4)."""
    ldr_sp(m)                                     # 11a: ldr r3, [sp, #0xac]
    ldr_sp(m)                                     # 11c: ldr r6, [sp, #0x64]
    ldr_sp(m)                                     # 11e: ldr r7, [sp, #0x5c]
    str_sp(m)                                     # 120: str.w sb, [sp, #0x110]
    mul(m, 0, 0)                                  # 124: mul r3, r3, r2
    mul(m, 0, 0)                                  # 128: mul r0, r6, r3
    ubfx(m, 0, 0, 0)                              # 12c: ubfx r3, r7, #2, #0x10
    str_sp(m)                                     # 130: str r3, [sp, #0x118]
    sub(m, 0, 0)                                  # 132: subs r3, #1
    uxth(m, 0, 0)                                 # 134: uxth.w r4, ip
    uxth(m, 0, 0)                                 # 138: uxth r5, r5
    uxth(m, 0, 0)                                 # 13a: uxth r3, r3
    add(m, 0, 0)                                  # 13c: adds r2, r3, #1
    str_sp(m)                                     # 13e: str r4, [sp, #0x68]
    mul(m, 0, 0)                                  # 140: mul r3, r4, r5
    ldr_sp(m)                                     # 144: ldr r4, [sp, #0xe0]
    str_sp(m)                                     # 146: str r5, [sp, #0xec]
    mul(m, 0, 0)                                  # 148: mul r5, r4, r3
    ldr_sp(m)                                     # 14c: ldr r3, [sp, #0x30]
    ldr_sp(m)                                     # 14e: ldr r4, [sp, #0x48]
    str_sp(m)                                     # 150: str.w fp, [sp, #0x124]
    mul(m, 0, 0)                                  # 154: mul r3, r6, r3
    mul(m, 0, 0)                                  # 158: mul r3, r4, r3
    str_sp(m)                                     # 15c: str r3, [sp, #0x4c]
    ldr_sp(m)                                     # 15e: ldr r3, [sp, #0xe8]
    rsb(m, 0, 0)                                  # 160: rsbs r3, r3, #0
    sxtb(m, 0, 0)                                 # 162: sxtb r3, r3
    str_sp(m)                                     # 164: str r3, [sp, #0x28]
    ldr_sp(m)                                     # 166: ldr r3, [sp, #0xc4]
    lsl(m, 0, 0)                                  # 168: lsls r4, r3, #1
    str_sp(m)                                     # 16a: str r4, [sp, #0xa4]
    ldr_sp(m)                                     # 16c: ldr r4, [sp, #0xa8]
    add(m, 0, 0)                                  # 16e: add.w r3, r4, r3, lsl #1
    str_sp(m)                                     # 172: str r3, [sp, #0xc8]
    ldr_sp(m)                                     # 174: ldr r3, [sp, #0x44]
    uxth(m, 0, 0)                                 # 176: uxth.w ip, lr
    mul(m, 0, 0)                                  # 17a: mul lr, sb, fp
    mul(m, 0, 0)                                  # 17e: mul r3, lr, r3
    str_sp(m)                                     # 182: str r3, [sp, #0xcc]
    ldr_sp(m)                                     # 184: ldr r3, [sp, #0xdc]
    str_sp(m)                                     # 186: str.w ip, [sp, #0x80]
    mul(m, 0, 0)                                  # 18a: mul r7, r3, r7
    lsl(m, 0, 0)                                  # 18e: lsls r3, r3, #2
    str_sp(m)                                     # 190: str r3, [sp, #0x104]
    mul(m, 0, 0)                                  # 192: mul r3, ip, r6
    str_sp(m)                                     # 196: str r3, [sp, #0x84]
    mul(m, 0, 0)                                  # 198: mul r3, r6, r8
    str_sp(m)                                     # 19c: str r3, [sp, #0x2c]
    lsl(m, 0, 0)                                  # 19e: lsls r3, r2, #2
    str_sp(m)                                     # 1a0: str r3, [sp, #0x114]
    add(m, 0, 0)                                  # 1a2: add.w r3, r4, r2, lsl #3
    mov(m, 0)                                     # 1a6: mov sb, r5
    str_sp(m)                                     # 1a8: str.w lr, [sp, #0x50]
    str_sp(m)                                     # 1ac: str r3, [sp, #0x11c]
    mov(m, 0)                                     # 1ae: movs r4, #0
    str_sp(m)                                     # 1b0: str r7, [sp, #0x128]
    mov(m, 0)                                     # 1b2: mov r6, r0
    mov(m, 0)                                     # 1b4: mov r5, r1


@kernel(inline=True)
def _m3_batch_invariants(m):
    """(0xf0-0x17c)"""
    ldr_sp(m)                                     # f0: ldr r3, [sp, #0xa8]
    uxth(m, 0, 0)                                 # f2: uxth.w r0, r8
    mul(m, 0, 0)                                  # f6: mul r3, r3, r1
    ldr_sp(m)                                     # fa: ldr r1, [sp, #0x70]
    uxth(m, 0, 0)                                 # fc: uxth r5, r4
    mul(m, 0, 0)                                  # fe: mul r2, r1, r3
    mul(m, 0, 0)                                  # 102: mul r3, r0, r5
    str_sp(m)                                     # 106: str r0, [sp, #0x68]
    ldr_sp(m)                                     # 108: ldr r0, [sp, #0xdc]
    str_sp(m)                                     # 10a: str r5, [sp, #0xec]
    mul(m, 0, 0)                                  # 10c: mul r5, r0, r3
    ldr_sp(m)                                     # 110: ldr r3, [sp, #0x34]
    ldr_sp(m)                                     # 112: ldr r0, [sp, #0x50]
    mul(m, 0, 0)                                  # 114: mul r3, r1, r3
    mul(m, 0, 0)                                  # 118: mul r3, r0, r3
    uxth(m, 0, 0)                                 # 11c: uxth.w r6, lr
    mul(m, 0, 0)                                  # 120: mul lr, sb, fp
    str_sp(m)                                     # 124: str r3, [sp, #0x54]
    ldr_sp(m)                                     # 126: ldr r3, [sp, #0x4c]
    ldr_sp(m)                                     # 128: ldr r0, [sp, #0xd4]
    mul(m, 0, 0)                                  # 12a: mul r3, lr, r3
    str_sp(m)                                     # 12e: str.w lr, [sp, #0x44]
    ldr_sp(m)                                     # 132: ldr.w lr, [sp, #0x60]
    str_sp(m)                                     # 136: str r3, [sp, #0xc4]
    mul(m, 0, 0)                                  # 138: mul r3, r0, lr
    str_sp(m)                                     # 13c: str r3, [sp, #0x11c]
    mul(m, 0, 0)                                  # 13e: mul r3, r6, r1
    str_sp(m)                                     # 142: str r3, [sp, #0x88]
    mul(m, 0, 0)                                  # 144: mul r3, r1, r7
    str_sp(m)                                     # 148: str r3, [sp, #0x2c]
    ldr_sp(m)                                     # 14a: ldr r3, [sp, #0xe8]
    mov(m, 0)                                     # 14c: movs r4, #0
    rsb(m, 0, 0)                                  # 14e: rsbs r3, r3, #0
    sxtb(m, 0, 0)                                 # 150: sxtb r3, r3
    str_sp(m)                                     # 152: str r3, [sp, #0x30]
    ldr_sp(m)                                     # 154: ldr r3, [sp, #0xb8]
    mov(m, 0)                                     # 156: mov r8, r7
    lsl(m, 0, 0)                                  # 158: lsls r1, r3, #1
    str_sp(m)                                     # 15a: str r1, [sp, #0xa0]
    ldr_sp(m)                                     # 15c: ldr r1, [sp, #0xa4]
    str_sp(m)                                     # 15e: str r6, [sp, #0x84]
    add(m, 0, 0)                                  # 160: add.w r3, r1, r3, lsl #1
    str_sp(m)                                     # 164: str r3, [sp, #0xbc]
    lsl(m, 0, 0)                                  # 166: lsls r3, r0, #2
    str_sp(m)                                     # 168: str r3, [sp, #0x108]
    mov(m, 0)                                     # 16a: mov r3, r5
    mov(m, 0)                                     # 16c: mov r5, r2
    mov(m, 0)                                     # 16e: mov r2, r3
    str_sp(m)                                     # 170: str.w sb, [sp, #0x110]
    ldr_sp(m)                                     # 174: ldr r6, [sp, #0x174]
    mov(m, 0)                                     # 176: mov sb, fp
    ldr_sp(m)                                     # 178: ldr.w fp, [sp, #0x38]
    str_sp(m)                                     # 17c: str.w ip, [sp, #0xc0]


@kernel(inline=True)
def _m4_batch_start(m):
    """A batch's filter, bias, multiplier, shift and output pointers (0x1be-0x1e0)."""
    ldr_sp(m)                                     # 1be: ldr r3, [sp, #0x180]
    str_sp(m)                                     # 1c0: str r3, [sp, #0xb0]
    ldr_sp(m)                                     # 1c2: ldr r3, [sp, #0x178]
    ldr_sp(m)                                     # 1c4: ldr r1, [sp, #0x18c]
    str_sp(m)                                     # 1c6: str r3, [sp, #0xb8]
    ldr_sp(m)                                     # 1c8: ldr r3, [sp, #0xa8]
    str_sp(m)                                     # 1ca: str r3, [sp, #0x58]
    mov(m, 0)                                     # 1cc: movs r2, #0
    ldr_sp(m)                                     # 1ce: ldr r3, [sp, #0xc8]
    str_sp(m)                                     # 1d0: str r3, [sp, #0x34]
    strd_sp(m)                                    # 1d2: strd sl, r5, [sp, #0xbc]
    strd_sp(m)                                    # 1d6: strd sl, r5, [sp, #0x12c]
    str_sp(m)                                     # 1da: str r2, [sp, #0xe4]
    mov(m, 0)                                     # 1dc: mov r5, r4
    mov(m, 0)                                     # 1de: mov r4, r1
    mov(m, 0)                                     # 1e0: mov r1, sb


@kernel(inline=True)
def _m3_batch_start(m):
    """(0x188-0x1b6)"""
    ldr_sp(m)                                     # 188: ldr r1, [sp, #0x118]
    ldr_sp(m)                                     # 18a: ldr.w lr, [sp, #0xa4]
    strd_sp(m)                                    # 18e: strd sl, r1, [sp, #0xb0]
    ldr_sp(m)                                     # 192: ldr r1, [sp, #0x160]
    ldr_sp(m)                                     # 194: ldr r0, [sp, #0x168]
    str_sp(m)                                     # 196: str r1, [sp, #0xac]
    ldr_sp(m)                                     # 198: ldr r1, [sp, #0xbc]
    mov(m, 0)                                     # 19a: movs r3, #0
    str_sp(m)                                     # 19c: str r6, [sp, #0xe0]
    str_sp(m)                                     # 19e: str r1, [sp, #0x38]
    str_sp(m)                                     # 1a0: str.w lr, [sp, #0x5c]
    mov(m, 0)                                     # 1a4: mov r1, r4
    str_sp(m)                                     # 1a6: str r5, [sp, #0x124]
    mov(m, 0)                                     # 1a8: mov lr, r0
    mov(m, 0)                                     # 1aa: mov r5, r6
    mov(m, 0)                                     # 1ac: mov r4, r2
    mov(m, 0)                                     # 1ae: mov r6, sb
    str_sp(m)                                     # 1b0: str r3, [sp, #0xe4]
    str_sp(m)                                     # 1b2: str.w sl, [sp, #0x120]
    str_sp(m)                                     # 1b6: str r3, [sp, #0x114]


@kernel(inline=True)
def _m4_group_start(m):
    """(0x1ec-0x1fe)"""
    strd_sp(m)                                    # 1ec: strd r5, r2, [sp, #0x134]
    strd_sp(m)                                    # 1f0: strd r6, r1, [sp, #0x13c]
    mov(m, 0)                                     # 1f4: movs r3, #0
    ldr_sp(m)                                     # 1f6: ldr r7, [sp, #0x124]
    ldr_sp(m)                                     # 1f8: ldr.w sb, [sp, #0x110]
    str_sp(m)                                     # 1fc: str r4, [sp, #0x144]
    mov(m, 0)                                     # 1fe: mov r4, r3


@kernel(inline=True)
def _m3_group_start(m):
    """(0x1c4-0x1d6)"""
    mov(m, 0)                                     # 1c4: movs r3, #0
    str_sp(m)                                     # 1c6: str r4, [sp, #0x12c]
    mov(m, 0)                                     # 1c8: mov r4, r3
    ldr_sp(m)                                     # 1ca: ldr r7, [sp, #0x110]
    str_sp(m)                                     # 1cc: str.w fp, [sp, #0xf0]
    str_sp(m)                                     # 1d0: str r1, [sp, #0x128]
    str_sp(m)                                     # 1d2: str.w lr, [sp, #0xd8]
    str_sp(m)                                     # 1d6: str r5, [sp, #0x174]


@kernel(inline=True)
def _m4_row_start(m):
    """An output row: base_idx_y, the input row pointer, -pad_x, -rhs_cols (0x208-0x24e)."""
    ldrh_sp(m)                                    # 208: ldrh.w ip, [sp, #0x100]
    ldrh_sp(m)                                    # 20c: ldrh.w r2, [sp, #0xfc]
    ldrh_sp(m)                                    # 210: ldrh.w r1, [sp, #0xf8]
    ldr_sp(m)                                     # 214: ldr r0, [sp, #0xe4]
    ldr_sp(m)                                     # 216: ldr r5, [sp, #0x64]
    str_sp(m)                                     # 218: str r3, [sp, #0xf0]
    mul(m, 0, 0)                                  # 21a: mul ip, r3, ip
    sub(m, 0, 0)                                  # 21e: sub.w ip, ip, r2
    ldr_sp(m)                                     # 222: ldr r2, [sp, #0x30]
    ldr_sp(m)                                     # 224: ldr r3, [sp, #0x10c]
    str_sp(m)                                     # 226: str r3, [sp, #0x38]
    mul(m, 0, 0)                                  # 228: mul r2, ip, r2
    sub(m, 0, 0)                                  # 22c: subs r2, r2, r1
    mla(m, 0, 0, 0)                               # 22e: mla r2, r5, r2, r0
    ldr_sp(m)                                     # 232: ldr r0, [sp, #0x170]
    str_sp(m)                                     # 234: str.w ip, [sp, #0x88]
    add(m, 0, 0)                                  # 238: adds r5, r0, r2
    rsb(m, 0, 0)                                  # 23a: rsbs r2, r1, #0
    str_sp(m)                                     # 23c: str r2, [sp, #0x40]
    ldr_sp(m)                                     # 23e: ldr r2, [sp, #0x5c]
    rsb(m, 0, 0)                                  # 240: rsbs r2, r2, #0
    str_sp(m)                                     # 242: str r2, [sp, #0x70]
    mov(m, 0)                                     # 244: movs r6, #0
    ldrsh_sp(m)                                   # 246: ldrsh.w r2, [sp, #0xe8]
    str_sp(m)                                     # 24a: str r2, [sp, #0x6c]
    mov(m, 0)                                     # 24c: mov fp, r5
    mov(m, 0)                                     # 24e: mov r5, r6


@kernel(inline=True)
def _m3_row_start(m):
    """(0x1e0-0x228)"""
    mov(m, 0)                                     # 1e0: mov.w sb, #0
    ldrh_sp(m)                                    # 1e4: ldrh.w ip, [sp, #0x104]
    ldrh_sp(m)                                    # 1e8: ldrh.w r2, [sp, #0x100]
    mul(m, 0, 0)                                  # 1ec: mul ip, r3, ip
    sub(m, 0, 0)                                  # 1f0: sub.w ip, ip, r2
    ldr_sp(m)                                     # 1f4: ldr r2, [sp, #0x34]
    ldrh_sp(m)                                    # 1f6: ldrh.w r1, [sp, #0xfc]
    mul(m, 0, 0)                                  # 1fa: mul r2, ip, r2
    ldr_sp(m)                                     # 1fe: ldr r5, [sp, #0x70]
    ldr_sp(m)                                     # 200: ldr r0, [sp, #0xe4]
    sub(m, 0, 0)                                  # 202: subs r2, r2, r1
    mla(m, 0, 0, 0)                               # 204: mla r2, r5, r2, r0
    rsb(m, 0, 0)                                  # 208: rsbs r1, r1, #0
    str_sp(m)                                     # 20a: str r1, [sp, #0x48]
    ldr_sp(m)                                     # 20c: ldr r1, [sp, #0x158]
    str_sp(m)                                     # 20e: str r7, [sp, #0x3c]
    add(m, 0, 0)                                  # 210: adds r5, r1, r2
    ldr_sp(m)                                     # 212: ldr r2, [sp, #0x60]
    mov(m, 0)                                     # 214: mov fp, r5
    rsb(m, 0, 0)                                  # 216: rsbs r2, r2, #0
    str_sp(m)                                     # 218: str r2, [sp, #0x6c]
    ldrsh_sp(m)                                   # 21a: ldrsh.w r2, [sp, #0xe8]
    mov(m, 0)                                     # 21e: mov r5, sb
    ldr_sp(m)                                     # 220: ldr.w sb, [sp, #0xf0]
    str_sp(m)                                     # 224: str r2, [sp, #0x74]
    str_sp(m)                                     # 226: str r3, [sp, #0xf4]
    str_sp(m)                                     # 228: str.w ip, [sp, #0x8c]


@kernel(inline=True)
def _m4_group_end(m):
    """filter_data_ptr, bias_data_ptr, output_mult_ptr, output_shift_ptr += the group's
    channels; i_group++ (0x338-0x364)."""
    ldr_sp(m)                                     # 338: ldr r3, [sp, #0xb8]
    ldr_sp(m)                                     # 33a: ldr r0, [sp, #0x128]
    add(m, 0, 0)                                  # 33c: add r3, r0
    str_sp(m)                                     # 33e: str r3, [sp, #0xb8]
    ldr_sp(m)                                     # 340: ldr r0, [sp, #0xb0]
    ldr_sp(m)                                     # 342: ldr r3, [sp, #0x104]
    add(m, 0, 0)                                  # 344: add r0, r3
    str_sp(m)                                     # 346: str r0, [sp, #0xb0]
    ldr_sp(m)                                     # 348: ldr r0, [sp, #0xbc]
    add(m, 0, 0)                                  # 34a: add r0, r3
    str_sp(m)                                     # 34c: str r0, [sp, #0xbc]
    ldr_sp(m)                                     # 34e: ldr r0, [sp, #0xc0]
    add(m, 0, 0)                                  # 350: add r0, r3
    ldr_sp(m)                                     # 352: ldr r3, [sp, #0xdc]
    str_sp(m)                                     # 354: str r0, [sp, #0xc0]
    add(m, 0, 0)                                  # 356: add r4, r3
    ldr_sp(m)                                     # 358: ldr r0, [sp, #0x110]
    ldr_sp(m)                                     # 35a: ldr r3, [sp, #0xe4]
    add(m, 0, 0)                                  # 35c: add r3, r0
    str_sp(m)                                     # 35e: str r3, [sp, #0xe4]
    ldr_sp(m)                                     # 360: ldr r3, [sp, #0xb4]
    add(m, 0, 0)                                  # 362: adds r2, #1
    cmp(m, 0, 0)                                  # 364: cmp r3, r2


@kernel(inline=True)
def _m3_group_end(m):
    """(0x326-0x356)"""
    ldr_sp(m)                                     # 326: ldr r2, [sp, #0xac]
    ldr_sp(m)                                     # 328: ldr r0, [sp, #0x11c]
    ldr_sp(m)                                     # 32a: ldr r3, [sp, #0x114]
    add(m, 0, 0)                                  # 32c: add r2, r0
    str_sp(m)                                     # 32e: str r2, [sp, #0xac]
    ldr_sp(m)                                     # 330: ldr r0, [sp, #0xb0]
    ldr_sp(m)                                     # 332: ldr r2, [sp, #0x108]
    add(m, 0, 0)                                  # 334: adds r3, #1
    add(m, 0, 0)                                  # 336: add r0, r2
    str_sp(m)                                     # 338: str r0, [sp, #0xb0]
    ldr_sp(m)                                     # 33a: ldr r0, [sp, #0xb4]
    add(m, 0, 0)                                  # 33c: add lr, r2
    add(m, 0, 0)                                  # 33e: add r0, r2
    str_sp(m)                                     # 340: str r0, [sp, #0xb4]
    ldr_sp(m)                                     # 342: ldr r2, [sp, #0xe0]
    ldr_sp(m)                                     # 344: ldr r0, [sp, #0xd4]
    str_sp(m)                                     # 346: str r3, [sp, #0x114]
    add(m, 0, 0)                                  # 348: add r2, r0
    str_sp(m)                                     # 34a: str r2, [sp, #0xe0]
    ldr_sp(m)                                     # 34c: ldr r0, [sp, #0x110]
    ldr_sp(m)                                     # 34e: ldr r2, [sp, #0xe4]
    add(m, 0, 0)                                  # 350: add r2, r0
    str_sp(m)                                     # 352: str r2, [sp, #0xe4]
    ldr_sp(m)                                     # 354: ldr r2, [sp, #0xc0]
    cmp(m, 0, 0)                                  # 356: cmp r2, r3


@kernel(inline=True)
def _m4_gemm_arguments(m, groups):
    """The GEMM's eight stacked arguments and r0-r3 (0x46e-0x4a0 / 0x4ae-0x4dc); the BL."""
    if groups != 1:
        str_sp(m)                                 # 46e: str r3, [sp, #0x20]
        ldr_sp(m)                                 # 470: ldr r3, [sp, #0xe0]
        str_sp(m)                                 # 472: str r3, [sp, #0x1c]
        ldr_sp(m)                                 # 474: ldr r3, [sp, #0xb0]
        str_sp(m)                                 # 476: str r3, [sp, #0x18]
        ldr_sp(m)                                 # 478: ldr r3, [sp, #0xc4]
        str_sp(m)                                 # 47a: str r3, [sp, #0x14]
        ldr_sp(m)                                 # 47c: ldr r3, [sp, #0x5c]
        str_sp(m)                                 # 47e: str r3, [sp, #0x10]
        ldr_sp(m)                                 # 480: ldr r3, [sp, #0xd0]
        str_sp(m)                                 # 482: str r3, [sp, #4]
        ldr_sp(m)                                 # 484: ldr r3, [sp, #0xbc]
        ldr_sp(m)                                 # 486: ldr r6, [sp, #0xa8]
        str_sp(m)                                 # 488: str r3, [sp]
        ldrsh_sp(m)                               # 48a: ldrsh.w r3, [sp, #0xd8]
        str_sp(m)                                 # 48e: str r3, [sp, #0xc]
        ldrsh_sp(m)                               # 490: ldrsh.w r3, [sp, #0xd4]
        str_sp(m)                                 # 494: str r3, [sp, #8]
        ldr_sp(m)                                 # 496: ldr r2, [sp, #0xdc]
        ldr_sp(m)                                 # 498: ldr r3, [sp, #0xc0]
        ldr_sp(m)                                 # 49a: ldr r0, [sp, #0xb8]
        mov(m, 0)                                 # 49c: mov r1, r6
        bl(m)                                     # 49e: bl #0x49e
    else:
        str_sp(m)                                 # 4ae: str r3, [sp, #0x1c]
        ldr_sp(m)                                 # 4b0: ldr r3, [sp, #0xb0]
        str_sp(m)                                 # 4b2: str r3, [sp, #0x18]
        ldr_sp(m)                                 # 4b4: ldr r3, [sp, #0xc4]
        str_sp(m)                                 # 4b6: str r3, [sp, #0x14]
        ldr_sp(m)                                 # 4b8: ldr r3, [sp, #0x5c]
        str_sp(m)                                 # 4ba: str r3, [sp, #0x10]
        ldr_sp(m)                                 # 4bc: ldr r3, [sp, #0xd0]
        str_sp(m)                                 # 4be: str r3, [sp, #4]
        ldr_sp(m)                                 # 4c0: ldr r3, [sp, #0xbc]
        ldr_sp(m)                                 # 4c2: ldr r6, [sp, #0xa8]
        str_sp(m)                                 # 4c4: str r3, [sp]
        ldrsh_sp(m)                               # 4c6: ldrsh.w r3, [sp, #0xd8]
        str_sp(m)                                 # 4ca: str r3, [sp, #0xc]
        ldrsh_sp(m)                               # 4cc: ldrsh.w r3, [sp, #0xd4]
        str_sp(m)                                 # 4d0: str r3, [sp, #8]
        ldrh_sp(m)                                # 4d2: ldrh.w r2, [sp, #0xf4]
        ldr_sp(m)                                 # 4d6: ldr r3, [sp, #0xc0]
        ldr_sp(m)                                 # 4d8: ldr r0, [sp, #0xb8]
        mov(m, 0)                                 # 4da: mov r1, r6
        bl(m)                                     # 4dc: bl #0x4dc


@kernel(inline=True)
def _m3_gemm_arguments(m, groups):
    """(0x464-0x494 / 0x4a4-0x4d2)"""
    if groups != 1:
        str_sp(m)                                 # 464: str r3, [sp, #0x20]
        ldr_sp(m)                                 # 466: ldr r3, [sp, #0xdc]
        ldr_sp(m)                                 # 468: ldr r7, [sp, #0xa4]
        str_sp(m)                                 # 46a: str r3, [sp, #0x1c]
        ldr_sp(m)                                 # 46c: ldr r3, [sp, #0xd8]
        mov(m, 0)                                 # 46e: mov r1, r7
        str_sp(m)                                 # 470: str r3, [sp, #0x18]
        ldr_sp(m)                                 # 472: ldr r3, [sp, #0xb8]
        ldr_sp(m)                                 # 474: ldr r2, [sp, #0xd4]
        str_sp(m)                                 # 476: str r3, [sp, #0x14]
        ldr_sp(m)                                 # 478: ldr r3, [sp, #0x60]
        ldr_sp(m)                                 # 47a: ldr r0, [sp, #0xac]
        str_sp(m)                                 # 47c: str r3, [sp, #0x10]
        ldr_sp(m)                                 # 47e: ldr r3, [sp, #0xc8]
        str_sp(m)                                 # 480: str r3, [sp, #4]
        ldr_sp(m)                                 # 482: ldr r3, [sp, #0xb0]
        str_sp(m)                                 # 484: str r3, [sp]
        ldrsh_sp(m)                               # 486: ldrsh.w r3, [sp, #0xd0]
        str_sp(m)                                 # 48a: str r3, [sp, #0xc]
        ldrsh_sp(m)                               # 48c: ldrsh.w r3, [sp, #0xcc]
        str_sp(m)                                 # 490: str r3, [sp, #8]
        ldr_sp(m)                                 # 492: ldr r3, [sp, #0xb4]
        bl(m)                                     # 494: bl #0x494
    else:
        str_sp(m)                                 # 4a4: str r3, [sp, #0x1c]
        ldr_sp(m)                                 # 4a6: ldr r3, [sp, #0xd8]
        ldr_sp(m)                                 # 4a8: ldr r7, [sp, #0xa4]
        str_sp(m)                                 # 4aa: str r3, [sp, #0x18]
        ldr_sp(m)                                 # 4ac: ldr r3, [sp, #0xb8]
        mov(m, 0)                                 # 4ae: mov r1, r7
        str_sp(m)                                 # 4b0: str r3, [sp, #0x14]
        ldr_sp(m)                                 # 4b2: ldr r3, [sp, #0x60]
        ldr_sp(m)                                 # 4b4: ldr r0, [sp, #0xac]
        str_sp(m)                                 # 4b6: str r3, [sp, #0x10]
        ldr_sp(m)                                 # 4b8: ldr r3, [sp, #0xc8]
        ldrh_sp(m)                                # 4ba: ldrh.w r2, [sp, #0xf8]
        str_sp(m)                                 # 4be: str r3, [sp, #4]
        ldr_sp(m)                                 # 4c0: ldr r3, [sp, #0xb0]
        str_sp(m)                                 # 4c2: str r3, [sp]
        ldrsh_sp(m)                               # 4c4: ldrsh.w r3, [sp, #0xd0]
        str_sp(m)                                 # 4c8: str r3, [sp, #0xc]
        ldrsh_sp(m)                               # 4ca: ldrsh.w r3, [sp, #0xcc]
        str_sp(m)                                 # 4ce: str r3, [sp, #8]
        ldr_sp(m)                                 # 4d0: ldr r3, [sp, #0xb4]
        bl(m)                                     # 4d2: bl #0x4d2


# --- the column of an output pixel ----------------------------------------------------------

@kernel(inline=True)
def _taps(m, im2col_buf, input_data, input_x, input_y, input_ch, kernel_x, kernel_y,
          kernel_ch, base_idx_x, base_idx_y, dilation_x, dilation_y, pad_val, group_ch):
    """The ordinary column (no upscaling): for each tap one memset (a tap outside the input:
    one unsigned compare each for k_y and k_x) or memcpy.  Returns the advanced im2col_buf."""
    ldr_sp(m)                                         # kernel_y
    cmp(m, kernel_y, 0)
    bcc(m, kernel_y == 0)                             # beq: no tap row
    if kernel_y == 0:
        return im2col_buf
    if m.dsp:
        ldr_sp(m)                                 # 266: ldr.w sl, [sp, #0x88]
        ldr_sp(m)                                 # 26a: ldr r6, [sp, #0x38]
        ldr_sp(m)                                 # 26c: ldr.w ip, [sp, #0x34]
        str_sp(m)                                 # 270: str.w fp, [sp, #0x7c]
        mov(m, 0)                                 # 274: mov r0, fp
        mov(m, 0)                                 # 276: movs r1, #0
        str_sp(m)                                 # 278: str r4, [sp, #0x74]
        str_sp(m)                                 # 27a: str r5, [sp, #0x78]
        mov(m, 0)                                 # 27c: mov fp, sl
    else:
        mov(m, 0)                                 # 242: movs r1, #0
        ldr_sp(m)                                 # 244: ldr.w sl, [sp, #0x8c]
        strd_sp(m)                                # 248: strd r4, r5, [sp, #0x78]
        mov(m, 0)                                 # 24c: mov r0, fp
        str_sp(m)                                 # 24e: str.w fp, [sp, #0x80]
        ldr_sp(m)                                 # 252: ldr.w lr, [sp, #0x38]
        mov(m, 0)                                 # 256: mov fp, sl
        ldr_sp(m)                                 # 258: ldr.w sl, [sp, #0x3c]
    for i_ker_y in range(kernel_y):
        k_y = base_idx_y + dilation_y * i_ker_y       # k_y = base_idx_y + dilation_y * i_ker_y;
        cbz(m, kernel_x == 0)
        if kernel_x:
            if m.dsp:
                strd_sp(m)                        # 280: strd r1, ip, [sp, #0x34]
                ldr_sp(m)                         # 284: ldr r5, [sp, #0x40]
                str_sp(m)                         # 286: str r0, [sp, #0x3c]
                mov(m, 0)                         # 288: mov sl, r0
                mov(m, 0)                         # 28a: movs r4, #0
                mov(m, 0)                         # 28c: mov r3, ip
            else:
                mov(m, 0)                         # 25e: mov r2, sl
                mov(m, 0)                         # 260: movs r4, #0
                mov(m, 0)                         # 262: mov r3, lr
                mov(m, 0)                         # 264: mov sl, r0
                mov(m, 0)                         # 266: mov r7, r2
                strd_sp(m)                        # 268: strd r1, lr, [sp, #0x3c]
                ldr_sp(m)                         # 26c: ldr r5, [sp, #0x48]
                str_sp(m)                         # 26e: str r0, [sp, #0x38]
            for i_ker_x in range(kernel_x):
                k_x = base_idx_x + dilation_x * i_ker_x   # k_x = base_idx_x + dilation_x * i_ker_x;
                # if (k_y < 0 || k_y >= input_y || k_x < 0 || k_x >= input_x): unsigned compares
                outside_y = k_y < 0 or k_y >= input_y
                cmp(m, input_y, k_y)
                if m.dsp:
                    ldr_sp(m)                         # (int8_t)-input_offset
                    mov(m, kernel_ch)
                bcc(m, outside_y)                     # bls
                copy = False
                if not outside_y:
                    ldr_sp(m)                         # input_x
                    cmp(m, input_x, k_x)
                    copy = 0 <= k_x < input_x
                    bcc(m, copy)                      # bhi
                if copy:
                    # arm_memcpy_s8(im2col_buf, input_data + (k_y * input_x + k_x) * input_ch
                    #               + i_group * kernel_ch, kernel_ch)
                    src = input_data + (k_y * input_x + k_x) * input_ch + group_ch
                    mov(m, im2col_buf)
                    mov(m, src)
                    if not m.dsp:
                        mov(m, kernel_ch)
                    bl(m)
                    memcpy(m, im2col_buf, src, kernel_ch)
                    mov(m, im2col_buf)
                    b(m)
                else:
                    # arm_memset_s8(im2col_buf, (int8_t)-input_offset, kernel_ch)
                    mov(m, im2col_buf)
                    if not m.dsp:
                        mov(m, kernel_ch)
                        ldr_sp(m)                     # (int8_t)-input_offset
                    bl(m)
                    memset(m, im2col_buf, pad_val, kernel_ch)
                    mov(m, im2col_buf)
                ldr_sp(m)                             # dilation_x * input_ch
                add(m, i_ker_x, 1)
                cmp(m, kernel_x, i_ker_x + 1)
                im2col_buf = add(m, im2col_buf, kernel_ch)  # im2col_buf += kernel_ch;
                add(m, 0, 0)                          # the source pointer, stepped
                add(m, k_x, dilation_x)
                bcc(m, i_ker_x + 1 < kernel_x)        # bne
            if m.dsp:
                ldrd_sp(m)                        # 2b2: ldrd r1, ip, [sp, #0x34]
                ldr_sp(m)                         # 2b6: ldr r3, [sp, #0x50]
                ldr_sp(m)                         # 2b8: ldr r0, [sp, #0x3c]
                add(m, 0, 0)                      # 2ba: add ip, r3
            else:
                ldrd_sp(m)                        # 296: ldrd r1, lr, [sp, #0x3c]
                mov(m, 0)                         # 29a: mov sl, r7
                ldr_sp(m)                         # 29c: ldr r3, [sp, #0x44]
                ldr_sp(m)                         # 29e: ldr r0, [sp, #0x38]
                add(m, 0, 0)                      # 2a0: add lr, r3
        if m.dsp:
            ldr_sp(m)                             # 2bc: ldr r3, [sp, #0x4c]
            add(m, 0, 0)                          # 2be: add r0, r3
            ldr_sp(m)                             # 2c0: ldr r3, [sp, #0x48]
            add(m, 0, 0)                          # 2c2: add fp, r3
            ldr_sp(m)                             # 2c4: ldr r3, [sp, #0x44]
            add(m, 0, 0)                          # 2c6: adds r1, #1
            cmp(m, 0, 0)                          # 2c8: cmp r3, r1
        else:
            ldr_sp(m)                             # 2a2: ldr r3, [sp, #0x54]
            add(m, 0, 0)                          # 2a4: adds r1, #1
            add(m, 0, 0)                          # 2a6: add r0, r3
            ldr_sp(m)                             # 2a8: ldr r3, [sp, #0x50]
            add(m, 0, 0)                          # 2aa: add fp, r3
            ldr_sp(m)                             # 2ac: ldr r3, [sp, #0x4c]
            cmp(m, 0, 0)                          # 2ae: cmp r3, r1
        bcc(m, i_ker_y + 1 < kernel_y)                # bne
    if m.dsp:
        ldr_sp(m)                                 # 2cc: ldr r4, [sp, #0x74]
        ldr_sp(m)                                 # 2ce: ldr r5, [sp, #0x78]
        ldr_sp(m)                                 # 2d0: ldr.w fp, [sp, #0x7c]
        str_sp(m)                                 # 2d4: str r6, [sp, #0x38]
        str_sp(m)                                 # 2d6: str.w ip, [sp, #0x34]
    else:
        ldr_sp(m)                                 # 2b2: ldr r4, [sp, #0x78]
        ldr_sp(m)                                 # 2b4: ldr r5, [sp, #0x7c]
        ldr_sp(m)                                 # 2b6: ldr.w fp, [sp, #0x80]
        str_sp(m)                                 # 2ba: str.w sl, [sp, #0x3c]
        str_sp(m)                                 # 2be: str.w lr, [sp, #0x38]
    return im2col_buf


@kernel(inline=True)
def _upscaled_taps(m, im2col_buf, input_data, input_x, input_y, input_ch, kernel_x, kernel_y,
                   kernel_ch, base_idx_x, base_idx_y, dilation_x, dilation_y, pad_val,
                   y_rshift, x_rshift, input_x_rshifted):
    """The column of the upscaled input (y_rshift or x_rshift set): the whole window set to
    -input_offset, then the taps that hit an input value copied.  input_x/input_y are the
    upscaled extents.  Returns the advanced im2col_buf."""
    # arm_memset_s8(im2col_buf, (int8_t)-input_offset, kernel_ch * kernel_x * kernel_y)
    window = kernel_ch * kernel_x * kernel_y
    if m.dsp:
        ldr_sp(m)                                 # 39e: ldr r2, [sp, #0xcc]
        ldr_sp(m)                                 # 3a0: ldr r1, [sp, #0x28]
        ldr_sp(m)                                 # 3a2: ldr r0, [sp, #0x34]
    else:
        ldr_sp(m)                                 # 392: ldr r7, [sp, #0x38]
        ldr_sp(m)                                 # 394: ldr r2, [sp, #0xc4]
        mov(m, 0)                                 # 396: mov r0, r7
        ldr_sp(m)                                 # 398: ldr r1, [sp, #0x30]
    bl(m)
    memset(m, im2col_buf, pad_val, window)
    ldr_sp(m)                                         # kernel_y
    cmp(m, kernel_y, 0)
    bcc(m, kernel_y == 0)                             # beq
    if kernel_y == 0:
        return im2col_buf
    if m.dsp:
        ldr_sp(m)                                 # 3ae: ldr r3, [sp, #0x88]
        ldr_sp(m)                                 # 3b0: ldr r1, [sp, #0x48]
        ldr_sp(m)                                 # 3b2: ldr.w lr, [sp, #0x38]
        ldr_sp(m)                                 # 3b6: ldr r0, [sp, #0x34]
        str_sp(m)                                 # 3b8: str r4, [sp, #0x98]
        mov(m, 0)                                 # 3ba: mov sl, r3
        mov(m, 0)                                 # 3bc: mov ip, r6
        ldr_sp(m)                                 # 3be: ldr r3, [sp, #0x50]
        ldr_sp(m)                                 # 3c0: ldr r6, [sp, #0x30]
        str_sp(m)                                 # 3c2: str r5, [sp, #0x9c]
        mov(m, 0)                                 # 3c4: movs r2, #0
        str_sp(m)                                 # 3c6: str.w fp, [sp, #0xa0]
    else:
        mov(m, 0)                                 # 3a4: mov.w sl, #0
        mov(m, 0)                                 # 3a8: mov ip, r3
        mov(m, 0)                                 # 3aa: mov lr, sb
        ldr_sp(m)                                 # 3ac: ldr r2, [sp, #0x8c]
        mov(m, 0)                                 # 3ae: mov r0, r7
        str_sp(m)                                 # 3b0: str.w fp, [sp, #0x9c]
        ldr_sp(m)                                 # 3b4: ldr r1, [sp, #0x50]
        mov(m, 0)                                 # 3b6: mov fp, r2
        ldr_sp(m)                                 # 3b8: ldr r7, [sp, #0x34]
        ldr_sp(m)                                 # 3ba: ldr r2, [sp, #0x3c]
        str_sp(m)                                 # 3bc: str r4, [sp, #0x94]
        str_sp(m)                                 # 3be: str r5, [sp, #0x98]
    row_bytes = kernel_ch * kernel_x
    for i_ker_y in range(kernel_y):
        k_y = base_idx_y + dilation_y * i_ker_y       # k_y = base_idx_y + dilation_y * i_ker_y;
        # if ((k_y < 0 || k_y >= input_y) || (k_y % 2 && y_rshift == 1)): skip the row
        outside = k_y < 0 or k_y >= input_y
        if m.dsp:
            cmp(m, input_y, k_y)
        else:
            cmp(m, k_y, input_y)
        bcc(m, outside)                               # bls / bhs
        copy_row = False
        if not outside:
            tst(m, k_y, 1)
            bcc(m, (k_y & 1) == 0)                    # beq: an even row is copied
            copy_row = (k_y & 1) == 0
            if not copy_row:
                ldr_sp(m)                             # y_rshift
                cbz(m, y_rshift == 0)
                copy_row = y_rshift == 0
        advance = True
        if copy_row:
            ldr_sp(m)                                 # y_rshift
            k_y_rshifted = asr(m, k_y, y_rshift)      # k_y_rshifted = k_y >> y_rshift;
            cmp(m, kernel_x, 0)
            bcc(m, kernel_x == 0)                     # beq
            advance = kernel_x != 0
            if kernel_x:
                if m.dsp:
                    ldr_sp(m)                     # 3fc: ldr r5, [sp, #0xac]
                    str_sp(m)                     # 3fe: str.w lr, [sp, #0x7c]
                    mul(m, 0, 0)                  # 402: mul r4, r5, r4
                    strd_sp(m)                    # 406: strd r1, ip, [sp, #0x74]
                    strd_sp(m)                    # 40a: strd r2, r0, [sp, #0x8c]
                    strd_sp(m)                    # 40e: strd r3, sl, [sp, #0x38]
                    str_sp(m)                     # 412: str r4, [sp, #0x34]
                    mov(m, 0)                     # 414: mov sl, r6
                    ldr_sp(m)                     # 416: ldr r4, [sp, #0x40]
                    ldr_sp(m)                     # 418: ldr r6, [sp, #0x60]
                    mov(m, 0)                     # 41a: movs r5, #0
                    mov(m, 0)                     # 41c: mov fp, r0
                else:
                    ldr_sp(m)                     # 3f6: ldr r3, [sp, #0xa8]
                    strd_sp(m)                    # 3f8: strd fp, r1, [sp, #0x38]
                    mul(m, 0, 0)                  # 3fc: mul sb, r3, sb
                    mov(m, 0)                     # 400: movs r5, #0
                    mov(m, 0)                     # 402: mov r3, r0
                    mov(m, 0)                     # 404: mov fp, r2
                    strd_sp(m)                    # 406: strd lr, sl, [sp, #0x78]
                    ldr_sp(m)                     # 40a: ldr r4, [sp, #0x48]
                    ldr_sp(m)                     # 40c: ldr.w sl, [sp, #0x64]
                    str_sp(m)                     # 410: str.w ip, [sp, #0x40]
                    str_sp(m)                     # 414: str r0, [sp, #0x80]
                row_address = k_y_rshifted * input_x_rshifted
                for i_ker_x in range(kernel_x):
                    k_x = base_idx_x + dilation_x * i_ker_x   # k_x = base_idx_x + ...;
                    dst = im2col_buf + i_ker_x * kernel_ch
                    # if ((k_x >= 0 && k_x < input_x) && ((k_x % 2 == 0) || x_rshift == 0))
                    inside = 0 <= k_x < input_x
                    if m.dsp:
                        cmp(m, input_x, k_x)
                    else:
                        cmp(m, k_x, input_x)
                    add(m, i_ker_x, 1)
                    bcc(m, not inside)                # bls / bhs
                    if inside:
                        even = (k_x & 1) == 0
                        k_x_rshifted = k_x >> x_rshift    # k_x_rshifted = k_x >> x_rshift;
                        # input_data + (k_y_rshifted * input_x_rshifted + k_x_rshifted) * input_ch
                        src = input_data + (row_address + k_x_rshifted) * input_ch
                        if m.dsp:
                            ldr_sp(m)
                            ldr_sp(m)                 # input_ch
                            asr(m, k_x, x_rshift)
                            add(m, row_address, k_x_rshifted)
                            ldr_sp(m)                 # input_data
                            tst(m, k_x, 1)
                            mov(m, dst)
                            mov(m, kernel_ch)
                            mla(m, input_ch, row_address + k_x_rshifted, input_data)
                            bcc(m, even)              # beq
                            copy = even
                            if not even:
                                cbnz(m, x_rshift != 0)
                                copy = x_rshift == 0
                            if copy:
                                bl(m)
                                memcpy(m, dst, src, kernel_ch)
                        else:
                            asr(m, k_x, x_rshift)
                            lsl(m, k_x, 31)
                            add(m, k_x_rshifted, row_address)
                            bcc(m, even)              # bpl
                            copy = even
                            if not even:
                                cmp(m, x_rshift, 0)
                                bcc(m, x_rshift != 0)  # bne
                                copy = x_rshift == 0
                            if copy:
                                mov(m, dst)
                                ldr_sp(m)             # input_ch
                                ldr_sp(m)             # input_data
                                mov(m, kernel_ch)
                                mla(m, input_ch, row_address + k_x_rshifted, input_data)
                                bl(m)
                                memcpy(m, dst, src, kernel_ch)
                                mov(m, dst)
                    cmp(m, kernel_x, i_ker_x + 1)
                    add(m, dst, kernel_ch)            # im2col_buf += kernel_ch;
                    add(m, k_x, dilation_x)
                    bcc(m, i_ker_x + 1 < kernel_x)    # bne
                if m.dsp:
                    mov(m, 0)                     # 450: mov r6, sl
                    ldrd_sp(m)                    # 452: ldrd r1, ip, [sp, #0x74]
                    ldrd_sp(m)                    # 456: ldrd r2, r0, [sp, #0x8c]
                    ldr_sp(m)                     # 45a: ldr r3, [sp, #0x38]
                    ldr_sp(m)                     # 45c: ldr.w sl, [sp, #0x3c]
                    ldr_sp(m)                     # 460: ldr.w lr, [sp, #0x7c]
                    b(m)                          # 464: b #0x3d8
                else:
                    ldrd_sp(m)                    # 44a: ldrd r1, ip, [sp, #0x3c]
                    ldrd_sp(m)                    # 44e: ldrd lr, sl, [sp, #0x78]
                    mov(m, 0)                     # 452: mov r2, fp
                    ldr_sp(m)                     # 454: ldr r0, [sp, #0x80]
                    ldr_sp(m)                     # 456: ldr.w fp, [sp, #0x38]
                    b(m)                          # 45a: b #0x3ce
        if advance:
            if not m.dsp:
                ldr_sp(m)                             # kernel_ch * kernel_x
            im2col_buf = add(m, im2col_buf, row_bytes)  # im2col_buf += kernel_ch * kernel_x;
        add(m, i_ker_y, 1)
        cmp(m, kernel_y, i_ker_y + 1)
        add(m, k_y, dilation_y)
        bcc(m, i_ker_y + 1 < kernel_y)                # bne
    if m.dsp:
        ldr_sp(m)                                 # 3e2: ldr r4, [sp, #0x98]
        ldr_sp(m)                                 # 3e4: ldr r5, [sp, #0x9c]
        ldr_sp(m)                                 # 3e6: ldr.w fp, [sp, #0xa0]
        str_sp(m)                                 # 3ea: str.w lr, [sp, #0x38]
        str_sp(m)                                 # 3ee: str r0, [sp, #0x34]
        b(m)                                      # 3f0: b #0x2da
    else:
        mov(m, 0)                                 # 3dc: mov sb, lr
        ldr_sp(m)                                 # 3de: ldr r4, [sp, #0x94]
        ldr_sp(m)                                 # 3e0: ldr r5, [sp, #0x98]
        ldr_sp(m)                                 # 3e2: ldr.w fp, [sp, #0x9c]
        str_sp(m)                                 # 3e6: str r2, [sp, #0x3c]
        str_sp(m)                                 # 3e8: str r0, [sp, #0x38]
        b(m)                                      # 3ea: b #0x2c2
    return im2col_buf


@kernel(inline=True)
def _left_over(m, out, filter_data_ptr, bias_data_ptr, output_mult_ptr, output_shift_ptr,
               buffer_a, rhs_cols, output_ch_per_group, out_offset, out_activation_min,
               out_activation_max):
    """Handle left over columns: one column times every channel of the group, as the C
    (M4: four columns per SMLAD pair, then LDRH + SMLABB; M3: LDRSB / LDRSH / MLA).
    Returns the advanced out."""
    ldr_sp(m)                                         # output_ch_per_group
    cmp(m, output_ch_per_group, 0)
    bcc(m, output_ch_per_group == 0)                  # beq
    if output_ch_per_group == 0:
        return out
    if m.dsp:
        mov(m, 0)                                 # 4e8: movs r3, #0
        str_sp(m)                                 # 4ea: str r3, [sp, #0x34]
        ldr_sp(m)                                 # 4ec: ldr r3, [sp, #0xbc]
        ldrh_sp(m)                                # 4ee: ldrh.w sb, [sp, #0x120]
        ldr_sp(m)                                 # 4f2: ldr r0, [sp, #0xb8]
        str_sp(m)                                 # 4f4: str.w r8, [sp, #0x38]
        sub(m, 0, 0)                              # 4f8: sub.w lr, r3, #4
        ldr_sp(m)                                 # 4fc: ldr r3, [sp, #0xc0]
        sub(m, 0, 0)                              # 4fe: sub.w ip, r3, #4
    else:
        mov(m, 0)                                 # 4de: mov.w sb, #0
        mov(m, 0)                                 # 4e2: mov.w sl, #0x40000000
        ldr_sp(m)                                 # 4e6: ldr r3, [sp, #0x60]
        ldr_sp(m)                                 # 4e8: ldr r2, [sp, #0xac]
        uxth(m, 0, 0)                             # 4ea: uxth r0, r3
        str_sp(m)                                 # 4ec: str r0, [sp, #0x3c]
        ldr_sp(m)                                 # 4ee: ldr r0, [sp, #0xb0]
        uxth(m, 0, 0)                             # 4f0: uxth r3, r3
        sub(m, 0, 0)                              # 4f2: sub.w ip, r0, #4
        ldr_sp(m)                                 # 4f6: ldr r0, [sp, #0xb4]
        str_sp(m)                                 # 4f8: str r3, [sp, #0x40]
        sub(m, 0, 0)                              # 4fa: subs r0, #4
        str_sp(m)                                 # 4fc: str r0, [sp, #0x38]
        str_sp(m)                                 # 4fe: str.w r8, [sp, #0x48]
        str_sp(m)                                 # 502: str r6, [sp, #0x5c]
    ker_a = filter_data_ptr                           # const int8_t *ker_a = filter_data_ptr;
    col_count4 = (rhs_cols >> 2) & 0xFFFF             # uint16_t col_count = rhs_cols / 4;
    left = rhs_cols & 3                               # col_count = rhs_cols & 0x3;
    cols16 = rhs_cols & 0xFFFF                        # uint16_t col_count = rhs_cols;
    for i in range(output_ch_per_group):
        # int32_t sum = 0; if (bias_data_ptr) sum = bias_data_ptr[i];
        ip_as_col = buffer_a                          # const int16_t *ip_as_col = buffer_a;
        if m.dsp:
            ldr_sp(m)                                 # bias_data_ptr
            cmp(m, bias_data_ptr, 0)
            bcc(m, bias_data_ptr == 0)                # beq
            if bias_data_ptr != 0:
                ldr_sp(m)
                total = ldr(m, bias_data_ptr + 4 * i)
                ldr_sp(m)                             # col_count
                cmp(m, col_count4, 0)
                bcc(m, col_count4 == 0)               # beq
            else:
                total = 0
                ldr_sp(m)
                ldr_sp(m)
                cmp(m, col_count4, 0)
                bcc(m, col_count4 != 0)               # bne
            if col_count4:
                ldr_sp(m)
                str_sp(m)
                add(m, ker_a, 4 * col_count4)         # the loop's end
                ldr_sp(m)                             # buffer_a
                for j in range(col_count4):           # while (col_count)
                    ker = ldr(m, ker_a)               # read_and_pad_reordered(ker_a, ...)
                    ker_a += 4
                    ip_b1 = ldr(m, ip_as_col)         # ip_b1 = arm_nn_read_q15x2_ia(&ip_as_col);
                    ker_r = ror(m, ker, 8)
                    ker_a1 = sxtb16(m, ker, 0)
                    ker_a2 = sxtb16(m, ker_r, 0)
                    total = smlad(m, ker_a1, ip_b1, total)  # sum = SMLAD(ker_a1, ip_b1, sum);
                    ip_b2 = ldr(m, ip_as_col + 4)     # ip_b2 = arm_nn_read_q15x2_ia(&ip_as_col);
                    ip_as_col = add(m, ip_as_col, 8)
                    total = smlad(m, ker_a2, ip_b2, total)  # sum = SMLAD(ker_a2, ip_b2, sum);
                    cmp(m, j + 1, col_count4)         # (ker_a against the loop's end)
                    bcc(m, j + 1 < col_count4)        # bne
                ldr_sp(m)
                ldr_sp(m)
                cmp(m, left, 0)
                bcc(m, left == 0)                     # beq
            else:
                ldr_sp(m)                             # buffer_a
                mov(m, ker_a)
                b(m)
                cmp(m, left, 0)
                bcc(m, left == 0)                     # beq
            if left:
                end = add(m, ker_a, left)
                for c in range(left):                 # while (col_count)
                    ker_a1 = ldrsb(m, ker_a)          # int8_t ker_a1 = *ker_a++;
                    ker_a += 1
                    ip_b1 = ldrh(m, ip_as_col)        # int16_t ip_b1 = *ip_as_col++;  (LDRH)
                    ip_as_col += 2
                    cmp(m, end, ker_a)
                    total = smlabb(m, ip_b1, ker_a1, total)  # sum += ker_a1 * ip_b1;
                    bcc(m, c + 1 < left)              # bne
            else:
                mov(m, ker_a)
                b(m)
            shift = ldr(m, output_shift_ptr + 4 * i)
            total = requantize_inlined(m, total, output_mult_ptr + 4 * i, shift, False, True)
        else:
            cmp(m, bias_data_ptr, 0)
            bcc(m, bias_data_ptr == 0)                # beq
            if bias_data_ptr != 0:
                total = ldr(m, bias_data_ptr + 4 * i)
            else:
                total = mov(m, 0)
                b(m)
            ldr_sp(m)                                 # (uint16_t)rhs_cols
            cbz(m, cols16 == 0)
            if cols16:
                ldr_sp(m)
                ldr_sp(m)                             # buffer_a
                end = add(m, ker_a, cols16)
                for c in range(cols16):               # while (col_count)
                    ker_a1 = ldrsb(m, ker_a)          # int8_t ker_a1 = *ker_a++;
                    ker_a += 1
                    ip_b1 = ldrsh(m, ip_as_col)       # int16_t ip_b1 = *ip_as_col++;
                    ip_as_col += 2
                    cmp(m, ker_a, end)
                    total = mla(m, ip_b1, ker_a1, total)  # sum += ker_a1 * ip_b1;
                    bcc(m, c + 1 < cols16)            # bne
            ldr_sp(m)
            str_sp(m)
            shift = ldr(m, output_shift_ptr + 4 * i)
            total = requantize_inlined(m, total, output_mult_ptr + 4 * i, shift, False)
        ldr_sp(m)                                     # out_offset
        if not m.dsp:
            add(m, 0, 4)
        total = add(m, total, out_offset)             # sum += out_offset;
        ldr_sp(m)
        total = max_lt(m, total, out_activation_min)  # sum = MAX(sum, out_activation_min);
        ldr_sp(m)
        total = min_ge(m, total, out_activation_max)  # sum = MIN(sum, out_activation_max);
        ldr_sp(m)                                     # out
        strb(m, out, total)                           # *out++ = (int8_t)sum;
        out += 1
        if m.dsp:
            ldr_sp(m)
            str_sp(m)
            ldr_sp(m)
            add(m, 4 * i, 4)
            cmp(m, 4 * output_ch_per_group, 4 * i + 4)
            str_sp(m)
        else:
            ldr_sp(m)
            str_sp(m)
            cmp(m, 4 * output_ch_per_group, 4 * i + 4)
        bcc(m, i + 1 < output_ch_per_group)           # bne
    ldr_sp(m)
    if not m.dsp:
        ldr_sp(m)
    return out


@kernel
def arm_convolve_s8(m, ctx, conv_params, quant_params, input_dims, input_data, filter_dims,
                    filter_data, bias_data, upscale_dims, output_dims, output_data):
    """The C's arguments as `arm_nn_types` structs (bias_dims, unread by the C, is left out;
    upscale_dims NULL is `NULL_DIMS`, h == 0).  Returns (status, gemm): status 0,
    ARG_ERROR or NO_IMPL_ERROR; gemm which GEMM kernel ran."""
    buf = ctx.buf
    push(m, 9)                                        # push {r4-r11, lr}
    ldr_sp(m)                                         # ctx->buf
    sub(m, 0, 0)                                      # sub sp, #frame
    if m.dsp:
        ldrd_sp(m)                                    # upscale_dims, output_dims (stacked)
        ldr_sp(m)                                     # filter_dims
        str_sp(m)
    else:
        ldr_sp(m)
        str_sp(m)
        ldrd_sp(m)
    cmp(m, buf, 0)                                    # if (ctx->buf == NULL)
    bcc(m, buf == 0)                                  # beq.w
    if buf == 0:
        return _return(m, ARG_ERROR), GEMM_NONE
    buffer_a = buf                                    # int16_t *buffer_a = (int16_t *)ctx->buf;
    input_batches = input_dims.n                      # const int32_t input_batches = input_dims->n;
    input_x = input_dims.w & 0xFFFF                   # const uint16_t input_x = input_dims->w;
    input_y = input_dims.h & 0xFFFF
    input_ch = input_dims.c & 0xFFFF
    kernel_x = filter_dims.w & 0xFFFF
    kernel_y = filter_dims.h & 0xFFFF
    kernel_ch = filter_dims.c & 0xFFFF
    output_x = output_dims.w & 0xFFFF
    output_y = output_dims.h & 0xFFFF
    output_ch = output_dims.c & 0xFFFF
    pad_x = conv_params.padding.w & 0xFFFF
    pad_y = conv_params.padding.h & 0xFFFF
    stride_x = conv_params.stride.w & 0xFFFF
    stride_y = conv_params.stride.h & 0xFFFF
    dilation_x = conv_params.dilation.w
    dilation_y = conv_params.dilation.h
    out_offset = conv_params.output_offset
    out_activation_min = conv_params.activation.min
    out_activation_max = conv_params.activation.max
    input_offset = conv_params.input_offset
    groups = input_ch // kernel_ch if kernel_ch else 0  # groups = input_ch / kernel_ch;
    rhs_cols = kernel_x * kernel_y * kernel_ch        # rhs_cols = kernel_x * kernel_y * kernel_ch;
    output_ch_per_group = output_ch // groups if groups else 0
    output_mult = quant_params.multiplier
    output_shift = quant_params.shift
    # if (input_ch % groups != 0 || output_ch % groups != 0)
    if m.dsp:
        _m4_fields(m)
    else:
        _m3_fields(m)
    bad = input_ch - (input_ch // groups if groups else 0) * groups != 0
    bcc(m, bad)                                       # bne.w
    if not bad:
        mls(m, 0, 0, 0)
        cmp(m, 0, 0)
        bad = output_ch - output_ch_per_group * groups != 0
        bcc(m, bad)                                   # bne.w
    if bad:
        return _return(m, ARG_ERROR), GEMM_NONE
    # y_rshift = upscale_dims->h == 2 ? 1 : 0;  x_rshift = upscale_dims->w == 2 ? 1 : 0;
    upscaled = upscale_dims.h != 0
    y_rshift = 1 if upscaled and upscale_dims.h == 2 else 0
    x_rshift = 1 if upscaled and upscale_dims.w == 2 else 0
    cmp(m, upscaled, 0)                               # if (upscale_dims)
    bcc(m, not upscaled)                              # beq.w
    if upscaled:
        ldrd_sp(m)                                # ce: ldrd r2, r3, [r0, #4]
        sub(m, 0, 0)                              # d2: sub.w r2, r2, #2
        sub(m, 0, 0)                              # d6: sub.w r3, r3, #2
        clz(m, 0)                                 # da: clz r2, r2
        clz(m, 0)                                 # de: clz r3, r3
        lsr(m, 0, 0)                              # e2: lsrs r2, r2, #5
        lsr(m, 0, 0)                              # e4: lsrs r3, r3, #5
        str_sp(m)                                 # e6: str r2, [sp, #0x54]
        str_sp(m)                                 # e8: str r3, [sp, #0x60]
    else:
        str_sp(m)                                     # y_rshift = x_rshift = 0
        str_sp(m)
        b(m)
    input_x_rshifted = input_x >> x_rshift            # input_x_rshifted = input_x >> x_rshift;
    input_y_rshifted = input_y >> y_rshift
    remainder = rhs_cols & 3                          # const int32_t remainder = rhs_cols % 4;
    aligned_rhs_cols = rhs_cols + 4 - remainder if remainder else rhs_cols
    if m.dsp:
        ldr_sp(m)                                 # ea: ldr r0, [sp, #0x60]
        ldrh_sp(m)                                # ec: ldrh.w r2, [sp, #0x28]
        str_sp(m)                                 # f0: str r2, [sp, #0x10c]
        uxth(m, 0, 0)                             # f2: uxth r3, r6
        str_sp(m)                                 # f4: str r3, [sp, #0x30]
        asr(m, 0, 0)                              # f6: asrs r3, r0
        str_sp(m)                                 # f8: str r3, [sp, #0xac]
        ldr_sp(m)                                 # fa: ldr r3, [sp, #0x54]
        asr(m, 0, 0)                              # fc: asrs r2, r3
        ldr_sp(m)                                 # fe: ldr r3, [sp, #0x5c]
        and_(m, rhs_cols, 3)                          # ands: remainder
        it(m, 1)                                      # ite ne: one of ADDNE / LDREQ fails
        if remainder:
            add(m, rhs_cols, 4)
        else:
            ldr_sp(m)
        str_sp(m)
        it(m, remainder == 0)                         # it ne
        if remainder:
            sub(m, rhs_cols + 4, remainder)           # aligned_rhs_cols = rhs_cols + 4 - remainder
        str_sp(m)
        ldr_sp(m)                                     # input_batches
    else:
        ldrh_sp(m)                                # c2: ldrh.w r3, [sp, #0x2c]
        ldr_sp(m)                                 # c6: ldr r1, [sp, #0x64]
        str_sp(m)                                 # c8: str r3, [sp, #0x34]
        asr(m, 0, 0)                              # ca: asrs r3, r1
        str_sp(m)                                 # cc: str r3, [sp, #0xa8]
        ldr_sp(m)                                 # ce: ldr r3, [sp, #0x58]
        uxth(m, 0, 0)                             # d0: uxth r2, r6
        asr(m, 0, 0)                              # d2: asr.w r1, r2, r3
        str_sp(m)                                 # d6: str r2, [sp, #0x38]
        ldr_sp(m)                                 # d8: ldr r2, [sp, #0x60]
        and_(m, rhs_cols, 3)                          # ands: remainder
        it(m, 1 if remainder else 2)                  # itee eq
        if remainder:
            add(m, rhs_cols, 4)
            sub(m, rhs_cols + 4, remainder)           # aligned_rhs_cols = rhs_cols + 4 - remainder
        else:
            ldr_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # input_batches
    cmp(m, input_batches, 0)
    bcc(m, input_batches <= 0)                        # ble.w
    if input_batches > 0:
        if m.dsp:
            _m4_batch_invariants(m)
        else:
            _m3_batch_invariants(m)
    pad_val = ((-input_offset + 128) & 0xFF) - 128    # (int8_t)-input_offset
    gemm = GEMM_NONE
    for i_batch in range(input_batches):
        # int8_t *im2col_buf = (int8_t *)buffer_a + aligned_rhs_cols * 2;
        im2col_buf = buffer_a + aligned_rhs_cols * 2
        im2col_buf_start_s16 = buffer_a               # int16_t *im2col_buf_start_s16 = buffer_a;
        lhs_rows = 0
        filter_data_ptr = filter_data
        bias_data_ptr = bias_data
        output_mult_ptr = output_mult
        output_shift_ptr = output_shift
        ldr_sp(m)                                     # groups
        cmp(m, groups, 0)
        bcc(m, groups == 0)                           # beq.w
        if groups:
            if m.dsp:
                _m4_batch_start(m)
            else:
                _m3_batch_start(m)
        for i_group in range(groups):
            out = output_data + i_group * output_ch_per_group
            ldr_sp(m)                                 # output_y
            str_sp(m)                                 # out
            if not m.dsp:
                ldr_sp(m)
            cmp(m, output_y, 0)
            bcc(m, output_y == 0)                     # beq.w
            if output_y:
                if m.dsp:
                    _m4_group_start(m)
                else:
                    _m3_group_start(m)
                for i_out_y in range(output_y):
                    ldr_sp(m)                         # output_x
                    cmp(m, output_x, 0)
                    bcc(m, output_x == 0)             # beq.w
                    if output_x:
                        if m.dsp:
                            _m4_row_start(m)
                        else:
                            _m3_row_start(m)
                        base_idx_y = stride_y * i_out_y - pad_y
                        for i_out_x in range(output_x):
                            base_idx_x = stride_x * i_out_x - pad_x
                            outer = m
                            m = enter_region(outer, IM2COL)   # the column: taps, widening
                            # if (y_rshift == 1 || x_rshift == 1)
                            ldr_sp(m)
                            cmp(m, y_rshift, 0)
                            bcc(m, y_rshift != 0)     # bne.w
                            rshifted = y_rshift != 0
                            if not rshifted:
                                ldr_sp(m)
                                cmp(m, x_rshift, 0)
                                bcc(m, x_rshift != 0)  # bne.w
                                rshifted = x_rshift != 0
                            if rshifted:
                                im2col_buf = _upscaled_taps(
                                    m, im2col_buf, input_data, input_x, input_y, input_ch,
                                    kernel_x, kernel_y, kernel_ch, base_idx_x, base_idx_y,
                                    dilation_x, dilation_y, pad_val, y_rshift, x_rshift,
                                    input_x_rshifted)
                            else:
                                im2col_buf = _taps(
                                    m, im2col_buf, input_data, input_x, input_y, input_ch,
                                    kernel_x, kernel_y, kernel_ch, base_idx_x, base_idx_y,
                                    dilation_x, dilation_y, pad_val, i_group * kernel_ch)
                            # copy one column with the input offset (int8 -> int16)
                            if m.dsp:
                                ldrd_sp(m)        # 2da: ldrd sl, r2, [sp, #0x58]
                                ldr_sp(m)         # 2de: ldr r0, [sp, #0x34]
                                ldr_sp(m)         # 2e0: ldr r6, [sp, #0x70]
                                ldr_sp(m)         # 2e2: ldr r3, [sp, #0x6c]
                            else:
                                ldr_sp(m)         # 2c2: ldr r0, [sp, #0x38]
                                ldr_sp(m)         # 2c4: ldr r7, [sp, #0x6c]
                                ldrd_sp(m)        # 2c6: ldrd sl, r2, [sp, #0x5c]
                                ldr_sp(m)         # 2ca: ldr r3, [sp, #0x74]
                            lhs_rows = add(m, lhs_rows, 1)    # lhs_rows++;
                            mov(m, im2col_buf_start_s16)
                            add(m, im2col_buf, -rhs_cols)     # im2col_buf - rhs_cols
                            bl(m)
                            if m.dsp:
                                arm_s8_to_s16_unordered_with_offset(
                                    m, im2col_buf - rhs_cols, im2col_buf_start_s16, rhs_cols,
                                    (input_offset + 32768) % 65536 - 32768)
                            else:
                                arm_q7_to_q15_with_offset(
                                    m, im2col_buf - rhs_cols, im2col_buf_start_s16, rhs_cols,
                                    (input_offset + 32768) % 65536 - 32768)
                            leave_region(outer, m)
                            m = outer
                            cmp(m, lhs_rows, 2)       # if (lhs_rows == 2)
                            bcc(m, lhs_rows == 2)     # beq.w
                            if lhs_rows == 2:
                                ldr_sp(m)             # groups
                                cmp(m, groups, 1)     # if (groups > 1)
                                ldr_sp(m)             # out
                                bcc(m, groups == 1)   # beq
                                if m.dsp:
                                    _m4_gemm_arguments(m, groups)
                                else:
                                    _m3_gemm_arguments(m, groups)
                                if groups != 1:
                                    out = arm_nn_mat_mult_kernel_row_offset_s8_s16(
                                        m, filter_data_ptr, buffer_a, output_ch_per_group,
                                        output_shift_ptr, output_mult_ptr, out_offset,
                                        out_activation_min, out_activation_max, rhs_cols,
                                        aligned_rhs_cols, bias_data_ptr, output_ch, out)
                                    gemm = GEMM_ROW_OFFSET
                                else:
                                    out = arm_nn_mat_mult_kernel_s8_s16(
                                        m, filter_data_ptr, buffer_a, output_ch_per_group,
                                        output_shift_ptr, output_mult_ptr, out_offset,
                                        out_activation_min, out_activation_max, rhs_cols,
                                        aligned_rhs_cols, bias_data_ptr, out)
                                    gemm = GEMM_S8_S16
                                    b(m)
                                # counter reset
                                im2col_buf_start_s16 = buffer_a
                                im2col_buf = buffer_a + aligned_rhs_cols * 2
                                lhs_rows = 0
                                if m.dsp:
                                    ldr_sp(m)     # 4a2: ldr r3, [sp, #0xc8]
                                    str_sp(m)     # 4a4: str r0, [sp, #0x94]
                                    mov(m, 0)     # 4a6: movs r4, #0
                                    str_sp(m)     # 4a8: str r6, [sp, #0x58]
                                    str_sp(m)     # 4aa: str r3, [sp, #0x34]
                                    b(m)          # 4ac: b #0x2fc
                                else:
                                    ldr_sp(m)     # 498: ldr r3, [sp, #0xbc]
                                    mov(m, 0)     # 49a: movs r4, #0
                                    str_sp(m)     # 49c: str r7, [sp, #0x5c]
                                    str_sp(m)     # 49e: str r3, [sp, #0x38]
                                    str_sp(m)     # 4a0: str r0, [sp, #0x90]
                                    b(m)          # 4a2: b #0x2e4
                            else:
                                # im2col_buf_start_s16 += aligned_rhs_cols;
                                im2col_buf_start_s16 += 2 * aligned_rhs_cols
                                if m.dsp:
                                    ldr_sp(m)     # 2f4: ldr r2, [sp, #0xa4]
                                    mov(m, 0)     # 2f6: mov r3, sl
                                    add(m, 0, 0)  # 2f8: add r3, r2
                                    str_sp(m)     # 2fa: str r3, [sp, #0x58]
                                else:
                                    mov(m, 0)     # 2dc: mov r3, sl
                                    ldr_sp(m)     # 2de: ldr r2, [sp, #0xa0]
                                    add(m, 0, 0)  # 2e0: add r3, r2
                                    str_sp(m)     # 2e2: str r3, [sp, #0x5c]
                            if m.dsp:
                                ldr_sp(m)         # 2fc: ldr r3, [sp, #0x84]
                                ldr_sp(m)         # 2fe: ldr r2, [sp, #0x80]
                                add(m, 0, 0)      # 300: add fp, r3
                                ldr_sp(m)         # 302: ldr r3, [sp, #0x40]
                                add(m, 0, 0)      # 304: add r3, r2
                                str_sp(m)         # 306: str r3, [sp, #0x40]
                                ldr_sp(m)         # 308: ldr r3, [sp, #0x68]
                                add(m, 0, 0)      # 30a: adds r5, #1
                                cmp(m, 0, 0)      # 30c: cmp r3, r5
                            else:
                                ldr_sp(m)         # 2e4: ldr r3, [sp, #0x88]
                                ldr_sp(m)         # 2e6: ldr r2, [sp, #0x84]
                                add(m, 0, 0)      # 2e8: add fp, r3
                                ldr_sp(m)         # 2ea: ldr r3, [sp, #0x48]
                                add(m, 0, 0)      # 2ec: adds r5, #1
                                add(m, 0, 0)      # 2ee: add r3, r2
                                str_sp(m)         # 2f0: str r3, [sp, #0x48]
                                ldr_sp(m)         # 2f2: ldr r3, [sp, #0x68]
                                cmp(m, 0, 0)      # 2f4: cmp r3, r5
                            bcc(m, i_out_x + 1 < output_x)    # bne
                        ldr_sp(m)                     # i_out_y
                        if not m.dsp:
                            ldr_sp(m)
                    ldr_sp(m)                         # output_y
                    add(m, i_out_y, 1)
                    cmp(m, output_y, i_out_y + 1)
                    bcc(m, i_out_y + 1 < output_y)    # bgt.w
                # if (out == NULL) return ARM_CMSIS_NN_NO_IMPL_ERROR;
                if m.dsp:
                    ldr_sp(m)                     # 31c: ldr r3, [sp, #0x94]
                    mov(m, 0)                     # 31e: mov sb, r4
                    ldrd_sp(m)                    # 320: ldrd r5, r2, [sp, #0x134]
                    ldrd_sp(m)                    # 324: ldrd r6, r1, [sp, #0x13c]
                    ldr_sp(m)                     # 328: ldr r4, [sp, #0x144]
                    cmp(m, 0, 0)                  # 32a: cmp r3, #0
                else:
                    ldr_sp(m)                     # 306: ldr r3, [sp, #0x90]
                    mov(m, 0)                     # 308: mov sb, r4
                    ldr_sp(m)                     # 30a: ldr.w fp, [sp, #0xf0]
                    ldr_sp(m)                     # 30e: ldr r1, [sp, #0x128]
                    ldr_sp(m)                     # 310: ldr.w lr, [sp, #0xd8]
                    ldr_sp(m)                     # 314: ldr r4, [sp, #0x12c]
                    ldr_sp(m)                     # 316: ldr r5, [sp, #0x174]
                    cmp(m, 0, 0)                  # 318: cmp r3, #0
                bcc(m, out == 0)                      # beq.w
                if out == 0:
                    return _return_no_impl(m), gemm
                # Handle left over columns
                cmp(m, lhs_rows, 0)                   # if (lhs_rows != 0)
                bcc(m, lhs_rows != 0)                 # bne.w
                if lhs_rows != 0:
                    out = _left_over(m, out, filter_data_ptr, bias_data_ptr, output_mult_ptr,
                                     output_shift_ptr, buffer_a, rhs_cols,
                                     output_ch_per_group, out_offset, out_activation_min,
                                     out_activation_max)
                    im2col_buf_start_s16 = buffer_a
                    im2col_buf = buffer_a + aligned_rhs_cols * 2
                    lhs_rows = 0
                    if m.dsp:
                        ldr_sp(m)                 # 5d8: ldr r3, [sp, #0xa8]
                        str_sp(m)                 # 5da: str r3, [sp, #0x58]
                        ldr_sp(m)                 # 5dc: ldr r3, [sp, #0xc8]
                        str_sp(m)                 # 5de: str r3, [sp, #0x34]
                        b(m)                      # 5e0: b #0x338
                    else:
                        ldr_sp(m)                 # 59c: ldr r3, [sp, #0xa4]
                        str_sp(m)                 # 59e: str r3, [sp, #0x5c]
                        ldr_sp(m)                 # 5a0: ldr r3, [sp, #0xbc]
                        str_sp(m)                 # 5a2: str r3, [sp, #0x38]
                        b(m)                      # 5a4: b #0x326
            else:
                if not m.dsp:
                    ldr_sp(m)                         # out
                cmp(m, out, 0)                        # if (out == NULL)
                bcc(m, out != 0)                      # bne.w
                if out == 0:
                    return _return_no_impl(m), gemm
            filter_data_ptr += output_ch_per_group * rhs_cols
            bias_data_ptr += 4 * output_ch_per_group
            output_mult_ptr += 4 * output_ch_per_group
            output_shift_ptr += 4 * output_ch_per_group
            if m.dsp:
                _m4_group_end(m)
            else:
                _m3_group_end(m)
            bcc(m, i_group + 1 < groups)              # bne.w
        if groups:
            if m.dsp:
                mov(m, 0)                         # 36a: mov r4, r5
                ldr_sp(m)                         # 36c: ldr.w sl, [sp, #0x12c]
                ldr_sp(m)                         # 370: ldr r5, [sp, #0x130]
                mov(m, 0)                         # 372: mov sb, r1
            else:
                mov(m, 0)                         # 35c: mov r2, r4
                mov(m, 0)                         # 35e: mov r4, r1
                mov(m, 0)                         # 360: mov sb, r6
                ldr_sp(m)                         # 362: ldr.w sl, [sp, #0x120]
                mov(m, 0)                         # 366: mov r6, r5
                ldr_sp(m)                         # 368: ldr r5, [sp, #0x124]
        # Advance to the next batch
        input_data += input_x_rshifted * input_y_rshifted * input_ch
        output_data += output_x * output_y * output_ch
        if m.dsp:
            ldr_sp(m)                             # 374: ldr r3, [sp, #0x170]
            add(m, 0, 0)                          # 376: add r3, r6
            str_sp(m)                             # 378: str r3, [sp, #0x170]
            ldr_sp(m)                             # 37a: ldr r3, [sp, #0x18c]
            add(m, 0, 0)                          # 37c: add r3, sb
            str_sp(m)                             # 37e: str r3, [sp, #0x18c]
            ldr_sp(m)                             # 380: ldr r3, [sp, #0x108]
            add(m, 0, 0)                          # 382: adds r4, #1
            cmp(m, 0, 0)                          # 384: cmp r3, r4
        else:
            ldr_sp(m)                             # 36a: ldr r3, [sp, #0x158]
            add(m, 0, 0)                          # 36c: adds r4, #1
            add(m, 0, 0)                          # 36e: add r3, r5
            str_sp(m)                             # 370: str r3, [sp, #0x158]
            ldr_sp(m)                             # 372: ldr r3, [sp, #0x10c]
            add(m, 0, 0)                          # 374: add r6, r2
            cmp(m, 0, 0)                          # 376: cmp r3, r4
        bcc(m, i_batch + 1 < input_batches)           # bne.w
    mov(m, 0)                                         # return ARM_CMSIS_NN_SUCCESS;
    add(m, 0, 0)                                      # add sp, #frame
    pop_pc(m, 9)
    return 0, gemm


@kernel(inline=True)
def _return(m, status):
    """return ARM_CMSIS_NN_ARG_ERROR;  (MOV.W #-1, B, ADD sp, POP)"""
    mov(m, status)
    b(m)
    add(m, 0, 0)
    pop_pc(m, 9)
    return status


@kernel(inline=True)
def _return_no_impl(m):
    """return ARM_CMSIS_NN_NO_IMPL_ERROR;  (MVN #1, ADD sp, POP)"""
    mvn(m, 1)
    add(m, 0, 0)
    pop_pc(m, 9)
    return NO_IMPL_ERROR
