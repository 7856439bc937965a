"""arm_q7_to_q15_with_offset (Source/NNSupportFunctions/arm_q7_to_q15_with_offset.c).

    void arm_q7_to_q15_with_offset(const int8_t *src, int16_t *dst, int32_t block_size,
                                   int16_t offset)

Widens int8 to int16 and adds `offset`.  ARM_MATH_DSP: four values per iteration with
SXTAB16 (the offset pre-packed in both halves by PKHBT) and a PKHTB/PKHBT reorder into
source order; then block_size % 4 one by one.  Plain C: one value per iteration.

Transcribed from gcc 12.2 -O2's disassembly: -mcpu=cortex-m4, eleven instructions a step of
four (gcc keeps `SXTAB16(offset_q15x2, ROR(in_q7x4, 8))` as a ROR plus SXTAB16, the loop
runs to an end pointer on src) and the left-over values as in
arm_s8_to_s16_unordered_with_offset (`widen_left_over`); -mcpu=cortex-m3, no PUSH, five
instructions a value and BX.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, asr, b, bcc, bx, cmp, enter_region, ldr, ldrsb,
                            leave_region, mov, pkhbt, pkhtb, pop_pc, push, ror, str_, strh,
                            sxtab16, uxth)

from .arm_s8_to_s16_unordered_with_offset import widen_left_over

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_q7_to_q15_with_offset(outer, src, dst, block_size, offset):
    m = enter_region(outer, IM2COL)                   # input widening (see cpu.machine)
    if m.dsp:
        push(m, 6)                                    # push.w {r4-r8, lr}
        offset_q15x2 = pkhbt(m, offset, offset, 16)   # PKHBT(offset, offset, 16)
        block_cnt = asr(m, block_size, 2)             # int32_t block_cnt = block_size >> 2;
        cmp(m, block_cnt, 0)                          # while (block_cnt > 0)
        bcc(m, block_cnt <= 0)                        # ble
        if block_cnt > 0:
            end = add(m, src, 4 * block_cnt)          # add.w r5, r0, r8, lsl #2
            mov(m, dst)
            while True:
                in_q7x4 = ldr(m, src)                 # in_q7x4 = arm_nn_read_s8x4_ia(&src);
                src += 4
                in_q15x2_2 = sxtab16(m, offset_q15x2, in_q7x4, 0)  # SXTAB16(offset_q15x2, in_q7x4)
                add(m, dst, 8)
                cmp(m, src, end)
                rot = ror(m, in_q7x4, 8)
                in_q15x2_1 = sxtab16(m, offset_q15x2, rot, 0)  # SXTAB16(offset_q15x2, ROR(in_q7x4, 8))
                out_q15x2_2 = pkhtb(m, in_q15x2_1, in_q15x2_2, 16)  # PKHTB(in_q15x2_1, in_q15x2_2, 16)
                out_q15x2_1 = pkhbt(m, in_q15x2_2, in_q15x2_1, 16)  # PKHBT(in_q15x2_2, in_q15x2_1, 16)
                str_(m, dst + 4, out_q15x2_2)         # arm_nn_write_q15x2_ia(&dst, out_q15x2_2);
                str_(m, dst, out_q15x2_1)             # arm_nn_write_q15x2_ia(&dst, out_q15x2_1);
                dst += 8
                bcc(m, src != end)                    # bne
                if src == end:
                    break
            add(m, 0, 0)                              # dst past the steps
        else:
            mov(m, src)
            b(m)
        widen_left_over(m, src, dst, block_size, offset)
        pop_pc(m, 6)
    else:
        cmp(m, block_size, 0)                         # while (block_cnt > 0)
        bcc(m, block_size <= 0)                       # ble
        if block_size > 0:
            offset = uxth(m, offset, 0)
            end = add(m, block_size, src)
            while True:
                v = add(m, ldrsb(m, src), offset)     # *dst++ = (int16_t)*src++ + offset;
                src += 1
                cmp(m, src, end)
                strh(m, dst, v)
                dst += 2
                bcc(m, src != end)                    # bne
                if src == end:
                    break
        bx(m)
    leave_region(outer, m)
