"""arm_transpose_conv_wrapper_s8 (Source/ConvolutionFunctions/arm_transpose_conv_wrapper_s8.c), non-MVE.

    arm_cmsis_nn_status arm_transpose_conv_wrapper_s8(const cmsis_nn_context *ctx,
        const cmsis_nn_context *reverse_conv_ctx,
        const cmsis_nn_transpose_conv_params *transpose_conv_params,
        const cmsis_nn_per_channel_quant_params *quant_params,
        const cmsis_nn_dims *input_dims, const int8_t *input_data,
        const cmsis_nn_dims *filter_dims, const int8_t *filter_data,
        const cmsis_nn_dims *bias_dims, const int32_t *bias_data,
        const cmsis_nn_dims *output_dims, int8_t *output_data)

Both strides <= 2 and more than REVERSE_TCOL_EFFICIENT_THRESHOLD (16) input channels: the
"reverse" path -- the filter reversed in x and y into reverse_conv_ctx->buf (one newlib
`memcpy` of input_c bytes per tap), then arm_convolve_s8 on the stride-upscaled input
(upscale_dims {0, stride_h, stride_w, 0}) with padding filter - 1 - padding and stride 1.
Otherwise a tail call of arm_transpose_conv_s8 (its eight stacked arguments put back, POP
without PC, B.W).

Transcribed from gcc 12.2 -O2's disassembly, -mcpu=cortex-m4 and -mcpu=cortex-m3 (`_m4_*` /
`_m3_*` blocks where the two differ; the addresses in the comments are the objects'
offsets): the stacked arguments read and spilled, conv_params / transposed_input_dims /
upscale_dims built on the stack (the activation struct copied with LDM / STMDB), the
reversal loops' register shuffles around every memcpy, arm_convolve_s8's stacked arguments.
Struct field loads are stack-slot loads (`ldr_sp`, `ldrd_sp`, `ldm_sp`).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, b, bcc, bl, cmp, ldm_sp, ldr_sp, ldrd_sp, lsl, mov, mul, pop,
                            pop_pc, push, rsb, stmdb_sp, str_sp, strd_sp, sub)
from armsim.kernels.libc import memcpy

from .arm_convolve_s8 import arm_convolve_s8
from .arm_nn_types import ConvParams, Dims, Tile
from .arm_transpose_conv_s8 import arm_transpose_conv_s8

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"

ARG_ERROR = -1
REVERSE_TCOL_EFFICIENT_THRESHOLD = 16       # Include/arm_nnsupportfunctions.h
# which kernel the wrapper called
LEAF_TRANSPOSE_CONV = 1
LEAF_CONVOLVE = 2


# --- straight-line blocks (no branch inside), one per build --------------------------------

@kernel(inline=True)
def _m4_tail_call_arguments(m):
    """The tail call's stacked arguments put back in the caller's frame, sp restored (0x3c-0x58)."""
    ldr_sp(m)                             # 3c: ldr r3, [sp, #68]
    strd_sp(m)                            # 3e: strd r9, r3, [sp, #232]
    ldr_sp(m)                             # 42: ldr r3, [sp, #64]
    strd_sp(m)                            # 44: strd r2, r3, [sp, #224]
    ldr_sp(m)                             # 48: ldr r3, [sp, #60]
    mov(m, 0)                             # 4a: mov r2, fp
    strd_sp(m)                            # 4c: strd r8, r3, [sp, #208]
    mov(m, 0)                             # 50: mov r0, r4
    mov(m, 0)                             # 52: mov r3, ip
    strd_sp(m)                            # 54: strd lr, sl, [sp, #216]
    add(m, 0, 0)                          # 58: add sp, #172


@kernel(inline=True)
def _m3_tail_call_arguments(m):
    """The tail call's stacked arguments put back in the caller's frame, sp restored (0x38-0x58)."""
    ldr_sp(m)                             # 38: ldr r3, [sp, #72]
    mov(m, 0)                             # 3a: mov r0, r4
    strd_sp(m)                            # 3c: strd ip, r3, [sp, #232]
    ldr_sp(m)                             # 40: ldr r3, [sp, #68]
    ldr_sp(m)                             # 42: ldr r4, [sp, #40]
    str_sp(m)                             # 44: str r3, [sp, #228]
    ldr_sp(m)                             # 46: ldr r3, [sp, #64]
    str_sp(m)                             # 48: str r9, [sp, #216]
    strd_sp(m)                            # 4c: strd sl, r3, [sp, #220]
    ldr_sp(m)                             # 50: ldr r3, [sp, #60]
    str_sp(m)                             # 52: str r4, [sp, #208]
    str_sp(m)                             # 54: str r3, [sp, #212]
    mov(m, 0)                             # 56: mov r3, lr
    add(m, 0, 0)                          # 58: add sp, #172


@kernel(inline=True)
def _m4_reverse_setup(m):
    """conv_params, transposed_input_dims, upscale_dims built on the stack, filter_size (then BLE) (0x74-0xec)."""
    mov(m, 0)                             # 74: mov r1, fp
    ldr_sp(m)                             # 76: ldr r0, [lr, #4]
    str_sp(m)                             # 7a: str r0, [sp, #36]
    ldr_sp(m)                             # 7c: ldr r0, [r1], #40
    str_sp(m)                             # 80: str r0, [sp, #128]
    ldm_sp(m, 2)                          # 82: ldmia r1, {r0, r1}
    ldr_sp(m)                             # 84: ldr r7, [lr, #8]
    str_sp(m)                             # 88: str r7, [sp, #40]
    add(m, 0, 0)                          # 8a: add r7, sp, #168
    stmdb_sp(m, 2)                        # 8c: stmdb r7, {r0, r1}
    ldr_sp(m)                             # 90: ldr r1, [r8, #4]
    ldr_sp(m)                             # 94: ldr r0, [fp, #4]
    ldr_sp(m)                             # 98: ldr r7, [sp, #40]
    str_sp(m)                             # 9a: str r0, [sp, #132]
    mul(m, 0, 0)                          # 9c: mul r1, r5, r1
    str_sp(m)                             # a0: str r1, [sp, #100]
    ldr_sp(m)                             # a2: ldr r1, [r8, #8]
    str_sp(m)                             # a6: str r6, [sp, #108]
    strd_sp(m)                            # a8: strd r5, r3, [sp, #116]
    mul(m, 0, 0)                          # ac: mul r3, r1, r3
    str_sp(m)                             # b0: str r3, [sp, #104]
    ldr_sp(m)                             # b2: ldr r3, [r8]
    ldr_sp(m)                             # b6: ldr r5, [sp, #36]
    str_sp(m)                             # b8: str r3, [sp, #96]
    ldrd_sp(m)                            # ba: ldrd r3, r1, [fp, #16]
    sub(m, 0, 0)                          # be: subs r0, r5, #1
    sub(m, 0, 0)                          # c0: subs r0, r0, r1
    sub(m, 0, 0)                          # c2: subs r1, r7, #1
    sub(m, 0, 0)                          # c4: subs r3, r1, r3
    str_sp(m)                             # c6: str r3, [sp, #144]
    mov(m, 0)                             # c8: movs r3, #1
    strd_sp(m)                            # ca: strd r3, r3, [sp, #136]
    strd_sp(m)                            # ce: strd r3, r3, [sp, #152]
    mul(m, 0, 0)                          # d2: mul r1, r7, r5
    mov(m, 0)                             # d6: movs r3, #0
    ldr_sp(m)                             # d8: ldr r5, [r9, #12]
    str_sp(m)                             # dc: str r0, [sp, #148]
    str_sp(m)                             # de: str r3, [sp, #112]
    ldr_sp(m)                             # e0: ldr r0, [sp, #72]
    str_sp(m)                             # e2: str r3, [sp, #124]
    mul(m, 0, 0)                          # e4: mul r1, r6, r1
    cmp(m, 0, 0)                          # e8: cmp r5, r3
    add(m, 0, 0)                          # ea: add fp, r0, r1


@kernel(inline=True)
def _m3_reverse_setup(m):
    """conv_params, transposed_input_dims, upscale_dims built on the stack, filter_size (then BLE) (0x72-0xe0)."""
    ldrd_sp(m)                            # 72: ldrd r8, r7, [r9, #4]
    ldr_sp(m)                             # 76: ldr r5, [r5, #4]
    strd_sp(m)                            # 78: strd r3, r0, [sp, #116]
    mul(m, 0, 0)                          # 7c: mul r3, r5, r3
    str_sp(m)                             # 80: str r3, [sp, #100]
    mul(m, 0, 0)                          # 82: mul r3, r7, r8
    str_sp(m)                             # 86: str r8, [sp, #36]
    mul(m, 0, 0)                          # 8a: mul r8, r6, r3
    mov(m, 0)                             # 8e: movs r3, #0
    mov(m, 0)                             # 90: movs r1, #1
    mov(m, 0)                             # 92: mov fp, r2
    ldr_sp(m)                             # 94: ldr r5, [sp, #40]
    str_sp(m)                             # 96: str r3, [sp, #112]
    str_sp(m)                             # 98: str r3, [sp, #124]
    ldr_sp(m)                             # 9a: ldr r3, [r5, #8]
    strd_sp(m)                            # 9c: strd r1, r1, [sp, #136]
    mul(m, 0, 0)                          # a0: mul r0, r3, r0
    ldr_sp(m)                             # a4: ldr r3, [r5, #0]
    strd_sp(m)                            # a6: strd r1, r1, [sp, #152]
    str_sp(m)                             # aa: str r3, [sp, #96]
    ldrd_sp(m)                            # ac: ldrd r1, r3, [r2, #16]
    ldr_sp(m)                             # b0: ldr r2, [r2, #4]
    ldr_sp(m)                             # b2: ldr r5, [ip, #12]
    str_sp(m)                             # b6: str r2, [sp, #132]
    ldr_sp(m)                             # b8: ldr r2, [fp], #40
    str_sp(m)                             # bc: str r0, [sp, #104]
    str_sp(m)                             # be: str r2, [sp, #128]
    ldr_sp(m)                             # c0: ldr r2, [sp, #36]
    str_sp(m)                             # c2: str r6, [sp, #108]
    sub(m, 0, 0)                          # c4: subs r2, #1
    sub(m, 0, 0)                          # c6: subs r2, r2, r3
    sub(m, 0, 0)                          # c8: subs r3, r7, #1
    sub(m, 0, 0)                          # ca: subs r3, r3, r1
    str_sp(m)                             # cc: str r3, [sp, #144]
    add(m, 0, 0)                          # ce: add r3, sp, #168
    ldm_sp(m, 2)                          # d0: ldmia fp, {r0, r1}
    str_sp(m)                             # d4: str r2, [sp, #148]
    stmdb_sp(m, 2)                        # d6: stmdb r3, {r0, r1}
    ldr_sp(m)                             # da: ldr r1, [sp, #76]
    cmp(m, 0, 0)                          # dc: cmp r5, #0
    add(m, 0, 0)                          # de: add fp, r1, r8


@kernel(inline=True)
def _m4_reverse_loop_setup(m):
    """The reversal loops' invariants spilled (0xf0-0x114)."""
    lsl(m, 0, 0)                          # f0: lsls r1, r1, #1
    rsb(m, 0, 0)                          # f2: rsb r8, r6, #0
    str_sp(m)                             # f6: str r1, [sp, #52]
    mul(m, 0, 0)                          # f8: mul r1, r8, r7
    rsb(m, 0, 0)                          # fc: negs r0, r1
    strd_sp(m)                            # fe: strd r0, r1, [sp, #40]
    strd_sp(m)                            # 102: strd r4, ip, [sp, #76]
    strd_sp(m)                            # 106: strd lr, r2, [sp, #84]
    str_sp(m)                             # 10a: str r9, [sp, #92]
    str_sp(m)                             # 10e: str r5, [sp, #56]
    mov(m, 0)                             # 110: mov r9, sl
    mov(m, 0)                             # 112: mov sl, fp
    mov(m, 0)                             # 114: mov fp, r6


@kernel(inline=True)
def _m3_reverse_loop_setup(m):
    """The reversal loops' invariants spilled (0xe4-0x10c)."""
    str_sp(m)                             # e4: str r9, [sp, #88]
    mov(m, 0)                             # e8: movs r3, #0
    mov(m, 0)                             # ea: mov r9, sl
    mov(m, 0)                             # ec: mov sl, fp
    mov(m, 0)                             # ee: mov fp, r6
    lsl(m, 0, 0)                          # f0: mov r2, r8, lsl #1
    rsb(m, 0, 0)                          # f4: rsb r8, r6, #0
    str_sp(m)                             # f8: str r2, [sp, #52]
    mul(m, 0, 0)                          # fa: mul r2, r8, r7
    rsb(m, 0, 0)                          # fe: negs r1, r2
    strd_sp(m)                            # 100: strd r1, r2, [sp, #40]
    strd_sp(m)                            # 104: strd r4, lr, [sp, #80]
    str_sp(m)                             # 108: str r5, [sp, #56]
    str_sp(m)                             # 10a: str ip, [sp, #92]


@kernel(inline=True)
def _m4_convolve_arguments(m):
    """arm_convolve_s8's arguments, eight stacked (0x176-0x196)."""
    ldr_sp(m)                             # 176: ldr r3, [sp, #68]
    strd_sp(m)                            # 178: strd r9, r3, [sp, #24]
    ldr_sp(m)                             # 17c: ldr r3, [sp, #64]
    strd_sp(m)                            # 17e: strd r2, r3, [sp, #12]
    ldr_sp(m)                             # 182: ldr r3, [sp, #72]
    mov(m, 0)                             # 184: mov r0, r4
    strd_sp(m)                            # 186: strd lr, r3, [sp, #4]
    add(m, 0, 0)                          # 18a: add r4, sp, #112
    ldr_sp(m)                             # 18c: ldr r3, [sp, #60]
    str_sp(m)                             # 18e: str r3, [sp, #0]
    mov(m, 0)                             # 190: mov r2, ip
    add(m, 0, 0)                          # 192: add r3, sp, #96
    add(m, 0, 0)                          # 194: add r1, sp, #128
    str_sp(m)                             # 196: str r4, [sp, #20]


@kernel(inline=True)
def _m3_convolve_arguments(m):
    """arm_convolve_s8's arguments, eight stacked (0x16a-0x18c)."""
    ldr_sp(m)                             # 16a: ldr r3, [sp, #72]
    mov(m, 0)                             # 16c: mov r0, r4
    strd_sp(m)                            # 16e: strd ip, r3, [sp, #24]
    ldr_sp(m)                             # 172: ldr r3, [sp, #68]
    add(m, 0, 0)                          # 174: add r4, sp, #112
    str_sp(m)                             # 176: str r3, [sp, #16]
    ldr_sp(m)                             # 178: ldr r3, [sp, #64]
    mov(m, 0)                             # 17a: mov r2, lr
    str_sp(m)                             # 17c: str r3, [sp, #12]
    ldr_sp(m)                             # 17e: ldr r3, [sp, #76]
    add(m, 0, 0)                          # 180: add r1, sp, #128
    strd_sp(m)                            # 182: strd r9, r3, [sp, #4]
    ldr_sp(m)                             # 186: ldr r3, [sp, #60]
    str_sp(m)                             # 188: str r4, [sp, #20]
    str_sp(m)                             # 18a: str r3, [sp, #0]
    add(m, 0, 0)                          # 18c: add r3, sp, #96


# --- the C ---------------------------------------------------------------------------------

@kernel(inline=True)
def uses_reverse_conv(stride_w, stride_h, input_c):
    """reverse_conv_possible && reverse_conv_efficient (also the buffer-size functions' test)."""
    return stride_w <= 2 and stride_h <= 2 and input_c > REVERSE_TCOL_EFFICIENT_THRESHOLD


@kernel(inline=True)
def _return_arg_error(m):
    """return ARM_CMSIS_NN_ARG_ERROR;  (MOV.W #-1, ADD sp, POP)"""
    mov(m, ARG_ERROR)
    add(m, 0, 0)
    pop_pc(m, 9)
    return ARG_ERROR


@kernel
def arm_transpose_conv_wrapper_s8(m, ctx, reverse_conv_ctx, transpose_conv_params,
                                  quant_params, input_dims, input_data, filter_dims,
                                  filter_data, bias_data, output_dims, output_data):
    """The C's arguments as `arm_nn_types` structs (bias_dims, unread, left out).  Returns
    (status, leaf, gemm): leaf LEAF_*, gemm arm_convolve_s8's GEMM code."""
    p = transpose_conv_params
    stride_w = p.stride.w
    stride_h = p.stride.h
    input_c = input_dims.c
    push(m, 9)                                        # push {r4-r11, lr}
    sub(m, 0, 0)                                      # sub sp, #172
    if m.dsp:
        mov(m, 0)                                     # 6: mov fp, r2
        ldr_sp(m)                                     # 8: the stacked arguments
        str_sp(m)
        mov(m, 0)
        mov(m, 0)
        ldr_sp(m)                                     # 10: ctx->buf
        ldr_sp(m)
        ldrd_sp(m)
        str_sp(m)
        ldrd_sp(m)
        ldrd_sp(m)
        str_sp(m)
    else:
        ldr_sp(m)                                     # 6: the stacked arguments
        mov(m, 0)
        ldrd_sp(m)
        str_sp(m)
        ldr_sp(m)
        ldr_sp(m)
        str_sp(m)
        ldr_sp(m)                                     # 16: ctx->buf
        ldr_sp(m)
        str_sp(m)
        str_sp(m)
        ldrd_sp(m)
        str_sp(m)
    cmp(m, ctx.buf, 0)                                # if (ctx->buf == NULL)
    bcc(m, ctx.buf == 0)                              # beq.w
    if ctx.buf == 0:
        return _return_arg_error(m), 0, 0
    if not m.dsp:
        mov(m, 0)                                     # 2a: mov r4, r0
    ldr_sp(m)                                         # transpose_conv_params->stride.w
    cmp(m, stride_w, 2)
    bcc(m, stride_w > 2)                              # bgt
    if stride_w <= 2:
        ldr_sp(m)                                     # stride.h
        cmp(m, stride_h, 2)
        bcc(m, stride_h <= 2)                         # ble
        if stride_h <= 2:
            ldr_sp(m)                                 # input_dims->c
            cmp(m, input_c, REVERSE_TCOL_EFFICIENT_THRESHOLD)
            bcc(m, input_c <= REVERSE_TCOL_EFFICIENT_THRESHOLD)   # ble
    if not uses_reverse_conv(stride_w, stride_h, input_c):
        if m.dsp:
            _m4_tail_call_arguments(m)
        else:
            _m3_tail_call_arguments(m)
        pop(m, 9)                                     # ldmia.w sp!, {r4-r11, lr}
        b(m)                                          # b.w arm_transpose_conv_s8
        status = arm_transpose_conv_s8(
            m, ctx.buf, input_dims.n, input_dims.w, input_dims.h, input_c, filter_dims.w,
            filter_dims.h, output_dims.w, output_dims.h, output_dims.c, p.padding.w,
            p.padding.h, stride_w, stride_h, p.output_offset, p.input_offset,
            p.activation.min, p.activation.max, input_data, filter_data, bias_data,
            quant_params.multiplier, quant_params.shift, output_data)
        return status, LEAF_TRANSPOSE_CONV, 0
    reverse_buf = reverse_conv_ctx.buf
    ldr_sp(m)                                         # reverse_conv_ctx->buf
    str_sp(m)
    cmp(m, reverse_buf, 0)
    bcc(m, reverse_buf == 0)                          # beq.w
    if reverse_buf == 0:
        return _return_arg_error(m), 0, 0
    filter_h = filter_dims.h
    filter_w = filter_dims.w
    output_c = output_dims.c
    filter_size = filter_h * filter_w * input_c       # filter_h * filter_w * input_c
    if m.dsp:
        _m4_reverse_setup(m)
    else:
        _m3_reverse_setup(m)
    bcc(m, output_c <= 0)                             # ble: for (i = 0; i < output_c; i++)
    if output_c > 0:
        if m.dsp:
            _m4_reverse_loop_setup(m)
        else:
            _m3_reverse_loop_setup(m)
        in_ptr = filter_data
        out_ptr = reverse_buf + filter_size           # out_ptr += filter_size;
        for i in range(output_c):
            ldr_sp(m)                                 # filter_h
            cmp(m, filter_h, 0)
            bcc(m, filter_h <= 0)                     # ble
            if filter_h > 0:
                if m.dsp:
                    mov(m, 0)                         # 11c: movs r6, #0
                    mov(m, 0)
                    str_sp(m)
                    mov(m, 0)
                    mov(m, 0)
                else:
                    mov(m, 0)                         # 114: movs r6, #0
                    mov(m, 0)
                    mov(m, 0)
                    mov(m, 0)
                    str_sp(m)
                for y in range(filter_h):
                    cmp(m, filter_w, 0)
                    bcc(m, filter_w <= 0)             # ble
                    if filter_w > 0:
                        mov(m, 0)
                        mov(m, 0)
                        mov(m, 0)                     # movs r4, #0
                        for x in range(filter_w):
                            out_ptr = add(m, out_ptr, -input_c)   # out_ptr -= input_c;
                            mov(m, in_ptr)
                            mov(m, out_ptr)
                            mov(m, input_c)
                            bl(m)                     # arm_memcpy_s8(out_ptr, in_ptr, input_c)
                            memcpy(m, out_ptr, in_ptr, input_c)
                            add(m, x, 1)
                            cmp(m, filter_w, x + 1)
                            in_ptr = add(m, in_ptr, input_c)      # in_ptr += input_c;
                            mov(m, 0)                 # mov r3, r0
                            bcc(m, x + 1 < filter_w)  # bne
                        ldr_sp(m)                     # the row's pointer steps
                        add(m, 0, 0)
                        ldr_sp(m)
                        add(m, 0, 0)
                    ldr_sp(m)
                    add(m, y, 1)
                    cmp(m, filter_h, y + 1)
                    bcc(m, y + 1 < filter_h)          # bne
                if m.dsp:
                    ldr_sp(m)                         # 158: ldr r3, [sp, #48]
                    mov(m, 0)
                    mov(m, 0)
                else:
                    mov(m, 0)                         # 150: mov sl, r9
                    mov(m, 0)
                    ldr_sp(m)
            out_ptr += 2 * filter_size                # out_ptr += 2 * filter_size;
            ldr_sp(m)
            add(m, 0, 0)
            ldr_sp(m)
            add(m, i, 1)
            cmp(m, output_c, i + 1)
            bcc(m, i + 1 < output_c)                  # bne
        ldrd_sp(m)                                    # the saved registers
        ldrd_sp(m)
        if m.dsp:
            ldr_sp(m)
    if m.dsp:
        _m4_convolve_arguments(m)
    else:
        _m3_convolve_arguments(m)
    bl(m)
    # arm_convolve_s8(ctx, &conv_params, quant_params, &transposed_input_dims, input_data,
    #                 filter_dims, reversed_filter, bias_dims, bias_data, &upscale_dims,
    #                 output_dims, output_data)
    conv_params = ConvParams(p.input_offset, p.output_offset, Tile(1, 1),
                             Tile(filter_w - 1 - p.padding.w, filter_h - 1 - p.padding.h),
                             Tile(1, 1), p.activation)
    status, gemm = arm_convolve_s8(m, ctx, conv_params, quant_params,
                                   Dims(input_dims.n, input_dims.h * stride_h,
                                        input_dims.w * stride_w, input_c), input_data,
                                   filter_dims, reverse_buf, bias_data,
                                   Dims(0, stride_h, stride_w, 0), output_dims, output_data)
    add(m, 0, 0)                                      # add sp, #172
    pop_pc(m, 9)
    return status, LEAF_CONVOLVE, gemm
