"""arm_s8_to_s16_unordered_with_offset (Source/NNSupportFunctions/arm_s8_to_s16_unordered_with_offset.c).

    void arm_s8_to_s16_unordered_with_offset(const int8_t *src, int16_t *dst,
                                             int32_t block_size, int16_t offset)

ARM_MATH_DSP only.  Widens four int8 per step with the offset pre-packed in both halves
(PKHBT): SXTAB16(offset, x) gives bytes 0 and 2, SXTAB16(offset, ROR(x, 8)) bytes 1 and 3
("unordered": the order read_and_pad_reordered reads the weights in).  The remaining
block_size % 4 values one by one.

Transcribed from gcc 12.2 -O2's disassembly (-mcpu=cortex-m4): nine instructions a step of
four (the loop runs to an end pointer on src, gcc keeps the ROR), C's signed
block_size % 4 as RSBS / AND / AND / IT PL, five instructions a left-over value (the offset
zero-extended once with UXTH; int16 arithmetic wraps the same).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, and_, asr, b, bcc, cmp, enter_region, it, ldr, ldrsb,
                            leave_region, mov, pkhbt, pop_pc, push, ror, rsb, str_, strh, sxtab16,
                            uxth)

# instruction order and stack traffic read off gcc 12.2 -O2's disassembly, not fitted
# (tests/kernels/test_fitted.py exempts a module with this mark from the fitted-ops rule)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4"


@kernel(inline=True)
def widen_left_over(m, src, dst, block_size, offset):
    """block_cnt = block_size % 4; while (block_cnt > 0) *dst++ = (int16_t)*src++ + offset;
    as gcc -O2 compiles it in both widening functions: RSBS, AND, AND, IT PL / RSBPL (C's
    signed remainder), CMP, BLE, UXTH the offset, ADD the end, then LDRSB / ADD / CMP /
    STRH / BNE per value."""
    negated = and_(m, rsb(m, block_size, 0), 3)       # rsbs r0, r2, #0; and r0, r0, #3
    block_cnt = and_(m, block_size, 3)                # and r2, r2, #3
    it(m, 1 if block_size > 0 else 0)                 # it pl: -block_size >= 0
    if block_size <= 0:
        block_cnt = rsb(m, negated, 0)                # rsbpl r2, r0, #0
    cmp(m, block_cnt, 0)                              # while (block_cnt > 0)
    bcc(m, block_cnt <= 0)                            # ble
    if block_cnt > 0:
        offset = uxth(m, offset, 0)
        end = add(m, block_cnt, src)
        while True:
            v = add(m, ldrsb(m, src), offset)         # *dst++ = (int16_t)*src++ + offset;
            src += 1
            cmp(m, src, end)
            strh(m, dst, v)
            dst += 2
            bcc(m, src != end)                        # bne
            if src == end:
                break


@kernel
def arm_s8_to_s16_unordered_with_offset(outer, src, dst, block_size, offset):
    m = enter_region(outer, IM2COL)                   # input widening (see cpu.machine)
    push(m, 5)                                        # push {r4-r7, lr}
    offset_s16x2 = pkhbt(m, offset, offset, 16)       # PKHBT(offset, offset, 16)
    block_cnt = asr(m, block_size, 2)                 # int32_t block_cnt = block_size >> 2;  (ASRS)
    cmp(m, block_cnt, 0)                              # while (block_cnt > 0)
    bcc(m, block_cnt <= 0)                            # ble
    if block_cnt > 0:
        end = add(m, src, 4 * block_cnt)              # add.w r5, r0, r7, lsl #2
        mov(m, dst)
        while True:
            in_s8x4 = ldr(m, src)                     # in_s8x4 = arm_nn_read_s8x4_ia(&src);
            src += 4
            add(m, dst, 8)
            cmp(m, src, end)
            rot = ror(m, in_s8x4, 8)
            in_s16x2_1 = sxtab16(m, offset_s16x2, in_s8x4, 0)  # SXTAB16(offset_s16x2, in_s8x4)
            in_s16x2_2 = sxtab16(m, offset_s16x2, rot, 0)  # SXTAB16(offset_s16x2, ROR(in_s8x4, 8))
            str_(m, dst, in_s16x2_1)                  # arm_nn_write_q15x2_ia(&dst, in_s16x2_1);
            str_(m, dst + 4, in_s16x2_2)              # arm_nn_write_q15x2_ia(&dst, in_s16x2_2);
            dst += 8
            bcc(m, src != end)                        # bne
            if src == end:
                break
        add(m, 0, 0)                                  # dst past the steps
    else:
        mov(m, src)
        b(m)
    widen_left_over(m, src, dst, block_size, offset)
    pop_pc(m, 5)
    leave_region(outer, m)
