"""arm_s8_to_s16_unordered_with_offset (Source/NNSupportFunctions/arm_s8_to_s16_unordered_with_offset.c).

    void arm_s8_to_s16_unordered_with_offset(const int8_t *src, int16_t *dst,
                                             int32_t block_size, int16_t offset)

ARM_MATH_DSP only.  Widens four int8 per step with the offset pre-packed in both halves
(PKHBT): SXTAB16(offset, x) gives bytes 0 and 2, SXTAB16(offset, ROR(x, 8)) bytes 1 and 3
("unordered": the order read_and_pad_reordered reads the weights in).  The remaining
block_size % 4 values one by one.  gcc keeps the ROR as a separate instruction.

Calibration (../shared/reference, dsp_O2, conv1x3_1x32x8_o16_p1, conv3x3_8x8x16_o16_s2_p1,
conv3x3_16x16x3_o8_s1_p1): 9 instructions per step of four, 15 per call (13 here), and 5 per left-over
value plus 2 to enter that loop.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, and_, asr, bcc, cmp, enter_region, ldr, ldrsb,
                            leave_region, lsl, pkhbt, pop_pc, push, ror, str_, strh, sub, sxtab16,
                            sxth)


@kernel
def arm_s8_to_s16_unordered_with_offset(outer, src, dst, block_size, offset):
    m = enter_region(outer, IM2COL)                      # input widening (see cpu.machine)
    push(m, 3)                                            # push {r4, r5, lr}
    offset = sxth(m, offset, 0)                           # (int16_t)offset
    block_cnt = asr(m, block_size, 2)                     # int32_t block_cnt = block_size >> 2;
    offset_s16x2 = pkhbt(m, offset, offset, 16)           # PKHBT(offset, offset, 16)
    cmp(m, block_cnt, 0)                                  # while (block_cnt > 0)
    bcc(m, block_cnt <= 0)
    if block_cnt > 0:
        step = lsl(m, block_cnt, 2)
        end = add(m, src, step)                           # loop end pointer for src
        add(m, dst, step << 1)                            # and dst's value after the loop
    while block_cnt > 0:
        in_s8x4 = ldr(m, src)                             # in_s8x4 = arm_nn_read_s8x4_ia(&src);
        src += 4
        in_s16x2_1 = sxtab16(m, offset_s16x2, in_s8x4, 0)  # SXTAB16(offset_s16x2, in_s8x4)
        rot = ror(m, in_s8x4, 8)                          # ROR(in_s8x4, 8)
        in_s16x2_2 = sxtab16(m, offset_s16x2, rot, 0)     # SXTAB16(offset_s16x2, ROR(in_s8x4, 8))
        str_(m, dst, in_s16x2_1)                          # arm_nn_write_q15x2_ia(&dst, in_s16x2_1);
        str_(m, dst + 4, in_s16x2_2)                      # arm_nn_write_q15x2_ia(&dst, in_s16x2_2);
        dst = add(m, dst, 8)
        block_cnt -= 1                                    # block_cnt--;
        cmp(m, src, end)
        bcc(m, block_cnt > 0)
    block_cnt = and_(m, block_size, 3)                    # block_cnt = block_size % 4;
    cmp(m, block_cnt, 0)                                  # while (block_cnt > 0)
    bcc(m, block_cnt <= 0)
    if block_cnt > 0:
        end = add(m, src, block_cnt)
        sub(m, dst, 2)
    while block_cnt > 0:
        v = add(m, ldrsb(m, src), offset)                 # *dst++ = (int16_t)*src++ + offset;
        src += 1
        strh(m, dst, v)
        dst += 2
        block_cnt -= 1                                    # block_cnt--;
        cmp(m, src, end)
        bcc(m, block_cnt > 0)
    pop_pc(m, 3)
    leave_region(outer, m)
