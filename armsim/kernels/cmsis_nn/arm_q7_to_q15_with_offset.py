"""arm_q7_to_q15_with_offset (Source/NNSupportFunctions/arm_q7_to_q15_with_offset.c).

    void arm_q7_to_q15_with_offset(const int8_t *src, int16_t *dst, int32_t block_size,
                                   int16_t offset)

Widens int8 to int16 and adds `offset`.  ARM_MATH_DSP: four values per iteration with
SXTAB16 (the offset pre-packed in both halves by PKHBT) and a PKHTB/PKHBT reorder; gcc 12
keeps `SXTAB16(offset_q15x2, ROR(in_q7x4, 8))` as a separate ROR plus SXTAB16 (the
measured dsp_O2 histograms count one ROR per iteration).  Plain C: one value per iteration.

Calibration (../shared/reference, gcc -O2): scalar_O2 executes 5 + 5 * block_size
instructions per call (conv cases: block sizes 24, 27 and 144); dsp_O2 103 per call with
block_size 32 (dw5x5_10x10x32_m1_p2).
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (IM2COL, add, and_, asr, bcc, bx, cmp, enter_region, ldr, ldrsb,
                            leave_region, mov, pkhbt, pkhtb, pop_pc, push, ror, str_, strh, sub,
                            sxtab16)


@kernel
def arm_q7_to_q15_with_offset(outer, src, dst, block_size, offset):
    m = enter_region(outer, IM2COL)                      # input widening (see cpu.machine)
    if m.dsp:
        push(m, 4)
        block_cnt = asr(m, block_size, 2)                 # block_cnt = block_size >> 2;  (ASRS: sets flags)
        offset_q15x2 = pkhbt(m, offset, offset, 16)       # PKHBT(offset, offset, 16)
        bcc(m, block_cnt <= 0)                            # while (block_cnt > 0)
        while block_cnt > 0:
            in_q7x4 = ldr(m, src)                         # arm_nn_read_s8x4_ia(&src)  (LDR r, [src], #4)
            src += 4
            rot = ror(m, in_q7x4, 8)                      # ROR(in_q7x4, 8)
            in_q15x2_1 = sxtab16(m, offset_q15x2, rot, 0)     # SXTAB16(offset_q15x2, ROR(in_q7x4, 8))
            in_q15x2_2 = sxtab16(m, offset_q15x2, in_q7x4, 0)  # SXTAB16(offset_q15x2, in_q7x4)
            out_q15x2_2 = pkhtb(m, in_q15x2_1, in_q15x2_2, 16)  # PKHTB(in_q15x2_1, in_q15x2_2, 16)
            out_q15x2_1 = pkhbt(m, in_q15x2_2, in_q15x2_1, 16)  # PKHBT(in_q15x2_2, in_q15x2_1, 16)
            str_(m, dst, out_q15x2_1)                     # arm_nn_write_q15x2_ia(&dst, out_q15x2_1)
            str_(m, dst + 4, out_q15x2_2)                 # arm_nn_write_q15x2_ia(&dst, out_q15x2_2)
            dst = add(m, dst, 8)
            mov(m, dst)                                   # (register copy kept by gcc)
            block_cnt -= 1                                # block_cnt--;  (the loop compares src with its end)
            cmp(m, src, 0)
            bcc(m, block_cnt > 0)
        block_cnt = and_(m, block_size, 3)                # block_cnt = block_size % 0x4;
        bcc(m, block_cnt == 0)
        while block_cnt > 0:
            v = ldrsb(m, src)                             # *src++  (LDRSB r, [src], #1)
            src += 1
            v = add(m, v, offset)                         # (int16_t)*src++ + offset
            strh(m, dst, v)                               # *dst++ = ...  (STRH r, [dst], #2)
            dst += 2
            block_cnt = sub(m, block_cnt, 1)              # block_cnt--;
            bcc(m, block_cnt > 0)
        pop_pc(m, 4)
        leave_region(outer, m)
    else:
        block_cnt = block_size                            # block_cnt = block_size;
        cmp(m, block_cnt, 0)                              # while (block_cnt > 0)
        bcc(m, block_cnt <= 0)
        if block_cnt > 0:
            end = add(m, src, block_cnt)                  # loop end pointer
            dst = sub(m, dst, 2)                          # STRH r, [dst, #2]! addressing
        while block_cnt > 0:
            v = ldrsb(m, src)                             # *src++  (LDRSB r, [src], #1)
            src += 1
            v = add(m, v, offset)                         # (int16_t)*src++ + offset
            cmp(m, src, end)                              # src != end
            dst += 2
            strh(m, dst, v)                               # *dst++ = ...
            block_cnt -= 1                                # (the end-pointer compare counts)
            bcc(m, block_cnt > 0)
        bx(m)
        leave_region(outer, m)
