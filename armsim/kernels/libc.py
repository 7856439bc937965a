"""newlib's memcpy, memset and memmove as the measured Cortex-M builds execute them.

The measurements (../shared/reference) link the full newlib 3.3.0 of Debian's
arm-none-eabi toolchain (multilibs ``thumb/v7e-m/nofp`` for the Cortex-M4 DSP build,
``thumb/v7-m/nofp`` for the Cortex-M3 scalar build):

* ``memcpy`` is ``newlib/libc/machine/arm/memcpy-armv7m.S`` assembled with
  ``__ARM_FEATURE_UNALIGNED``: a misaligned copy of 8 bytes or more first aligns the
  destination, then copies words with unaligned LDRs.  ARMv7E-M copies with post-indexed
  ``LDR r3, [r1], #4``; ARMv7-M with offset addressing and two ``ADDS`` per block.
* ``memset`` is the generic C ``newlib/libc/string/memset.c`` compiled by gcc -O2: byte
  stores up to a word boundary, 16-byte blocks, words, then bytes.
* ``memmove`` is the generic C ``newlib/libc/string/memmove.c`` compiled by gcc -O2
  (lib_a-memmove.o): backwards bytes for a destructive overlap, else 16-byte blocks and
  words when both pointers are aligned and n > 15, then bytes.

The code below follows the disassembly of those library objects instruction by
instruction (addresses in the comments are the objects' offsets, ARMv7E-M build).  As in
the measured ``instructions``, an IT-block instruction whose condition fails is not
counted; it still takes an issue slot (``it(m, failed)``).  ``m.dsp`` selects the library
of the build: ARMv7E-M (M4) with the DSP path, ARMv7-M (M3) without.  The caller issues the ``BL``; these kernels count everything
executed inside the library function, return included.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import (add, and_, b, bcc, bic, bx, cbz, cmp, it, ldr, ldrb, ldrh, lsl,
                        lsr, mov, orr, pop_pc, push, rsb, str_, strb, strh, sub, tst, uxtb)


@kernel(inline=True)
def _tail_less_than_4(m, dst, src, n):
    """.Lcopy_less_than_4 with r2 = n - 4 (n < 4 bytes left), through .Ldone."""
    n = add(m, n, 4)                                  # adds r2, #4
    bcc(m, n == 0)                                    # beq .Ldone
    if n != 0:
        lsl(m, n, 31)                                 # lsls r2, r2, #31
        it(m, 0 if n & 1 else 2)                      # itt ne (both fail on an even count)
        if n & 1:
            v = ldrb(m, src)                          # ldrbne r3, [r1], #1
            src += 1
            strb(m, dst, v)                           # strbne r3, [r0], #1
            dst += 1
        bcc(m, (n & 2) == 0)                          # blo .Ldone  (C = bit 1)
        if n & 2:
            v = ldrh(m, src)                          # ldrh r3, [r1]
            strh(m, dst, v)                           # strh r3, [r0]


@kernel
def memcpy(m, dst, src, n):
    """void *memcpy(void *dst, const void *src, size_t n)  (memcpy-armv7m.S)."""
    ip = mov(m, dst)                                  # mov ip, r0
    r3 = and_(m, orr(m, src, dst), 3)                 # orr r3, r1, r0; ands r3, r3, #3
    bcc(m, r3 != 0)                                   # bne .Lmisaligned_copy
    if r3 != 0:
        cmp(m, n, 8)                                  # cmp r2, #8
        bcc(m, n < 8)                                 # blo .Lbyte_copy
        if n < 8:
            n = sub(m, n, 4)                          # .Lbyte_copy: subs r2, #4
            bcc(m, n < 0)                             # blo .Lcopy_less_than_4
            if n < 0:
                _tail_less_than_4(m, dst, src, n)
            else:
                while True:                           # .Lbyte_copy_loop
                    n = sub(m, n, 1)                  # subs r2, #1
                    strb(m, dst, ldrb(m, src))        # ldrb r3, [r1], #1; strb r3, [r0], #1
                    src += 1
                    dst += 1
                    bcc(m, n >= 0)                    # bhs .Lbyte_copy_loop
                    if n < 0:
                        break
                for k in range(3):
                    strb(m, dst + k, ldrb(m, src + k))  # ldrb r3, [r1, #k]; strb r3, [r0, #k]
            mov(m, ip)                                # mov r0, ip
            bx(m)                                     # bx lr
            return ip
        lsl(m, src, 30)                               # lsls r3, r1, #30
        bcc(m, (src & 3) == 0)                        # beq .Ldst_aligned (= .Lbig_block)
        if src & 3:
            r3 = and_(m, dst, 3)                      # ands r3, r0, #3
            bcc(m, r3 == 0)                           # beq .Ldst_aligned
            if r3 != 0:
                r3 = rsb(m, r3, 4)                    # rsb r3, r3, #4
                n = sub(m, n, r3)                     # subs r2, r2, r3
                lsl(m, r3, 31)                        # lsls r3, r3, #31
                it(m, 0 if r3 & 1 else 2)             # itt ne (both fail on an even count)
                if r3 & 1:
                    strb(m, dst, ldrb(m, src))        # ldrbne / strbne, post-indexed
                    src += 1
                    dst += 1
                bcc(m, (r3 & 2) == 0)                 # blo .Ldst_aligned
                if r3 & 2:
                    strh(m, dst, ldrh(m, src))        # ldrh r3, [r1], #2; strh r3, [r0], #2
                    src += 2
                    dst += 2
                    b(m)                              # b .Ldst_aligned
    # .Lbig_block
    n = sub(m, n, 64)                                 # subs r2, #64
    bcc(m, n < 0)                                     # blo .Lmid_block
    if n >= 0:
        while True:                                   # .Lbig_block_loop
            for k in range(16):
                str_(m, dst + 4 * k, ldr(m, src + 4 * k))  # ldr r3, [r1], #4; str r3, [r0], #4
            if not m.dsp:
                add(m, dst, 64)                       # ARMv7-M: adds r0, #64
                add(m, src, 64)                       #          adds r1, #64
            src += 64
            dst += 64
            n = sub(m, n, 64)                         # subs r2, #64
            bcc(m, n >= 0)                            # bhs .Lbig_block_loop
            if n < 0:
                break
    n = add(m, n, 48)                                 # .Lmid_block: adds r2, #48
    bcc(m, n < 0)                                     # blo .Lcopy_word_by_word
    if n >= 0:
        while True:                                   # .Lmid_block_loop
            for k in range(4):
                str_(m, dst + 4 * k, ldr(m, src + 4 * k))
            if not m.dsp:
                add(m, dst, 16)                       # ARMv7-M: adds r0, #16
                add(m, src, 16)                       #          adds r1, #16
            src += 16
            dst += 16
            n = sub(m, n, 16)                         # subs r2, #16
            bcc(m, n >= 0)                            # bhs .Lmid_block_loop
            if n < 0:
                break
    n = add(m, n, 12)                                 # .Lcopy_word_by_word: adds r2, #12
    bcc(m, n < 0)                                     # blo .Lcopy_less_than_4
    if n >= 0:
        while True:                                   # .Lcopy_word_by_word_loop
            str_(m, dst, ldr(m, src))                 # ldr r3, [r1], #4; str r3, [r0], #4
            src += 4
            dst += 4
            n = sub(m, n, 4)                          # subs r2, #4
            bcc(m, n >= 0)                            # bhs .Lcopy_word_by_word_loop
            if n < 0:
                break
    _tail_less_than_4(m, dst, src, n)
    mov(m, ip)                                        # .Ldone: mov r0, ip
    bx(m)                                             # bx lr
    return ip


@kernel
def memset(m, dst, c, n):
    """void *memset(void *m, int c, size_t n)  (newlib/libc/string/memset.c, gcc -O2)."""
    if m.dsp:
        lsl(m, dst, 30)                               # lsls r3, r0, #30
        push(m, 3)                                    # push {r4, r5, lr}
    else:
        push(m, 4)                                    # push {r4, r5, r6, lr}
        lsl(m, dst, 30)                               # lsls r6, r0, #30
    bcc(m, (dst & 3) == 0)                            # beq 96
    s = dst
    p = dst
    ip = n
    if dst & 3:                                       # while (UNALIGNED (s))
        r4 = sub(m, n, 1)                             # subs r4, r2, #1
        cmp(m, n, 0)                                  # cmp r2, #0
        bcc(m, n == 0)                                # beq 8a (return)
        if n == 0:
            pop_pc(m, 3 if m.dsp else 4)
            return dst
        d = uxtb(m, c, 0)                             # uxtb r2, r1
        s = mov(m, dst)                               # mov r3, r0
        b(m)                                          # b 16
        first = True
        while True:
            if not first:
                r4 = sub(m, r4, 1)                    # 12: subs r4, #1  (if (n--))
                bcc(m, r4 < 0)                        # blo 8a (return)
                if r4 < 0:
                    pop_pc(m, 3 if m.dsp else 4)
                    return dst
            first = False
            strb(m, s, d)                             # 16: strb r2, [r3], #1
            s += 1
            lsl(m, s, 30)                             # lsls r5, r3, #30
            bcc(m, (s & 3) != 0)                      # bne 12
            if (s & 3) == 0:
                break
    else:
        s = mov(m, dst)                               # 96: mov r3, r0
        r4 = mov(m, n)                                # mov r4, r2
        b(m)                                          # b 1e
    cmp(m, r4, 3)                                     # 1e: cmp r4, #3  (!TOO_SMALL (n))
    bcc(m, r4 <= 3)                                   # bls 7c
    if r4 > 3:
        buf = uxtb(m, c, 0)                           # uxtb r5, r1
        buf = add(m, buf, buf << 8)                   # add r5, r5, r5, lsl #8
        cmp(m, r4, 15)                                # cmp r4, #15
        if not m.dsp:
            p = mov(m, s)                             # ARMv7-M: mov r2, r3
        buf = add(m, buf, buf << 16)                  # add r5, r5, r5, lsl #16
        bcc(m, r4 <= 15)                              # bls 9c
        if r4 <= 15:
            if m.dsp:
                p = mov(m, s)                         # 9c: mov r2, r3
            ip = mov(m, r4)                           # mov ip, r4
            b(m)                                      # b 64
        else:
            r2 = sub(m, r4, 16)                       # sub r2, r4, #16
            t = bic(m, r2, 15)                        # bic ip, r2, #15
            end = add(m, s, 16)                       # add lr, r3, #16
            end = add(m, end, t)                      # add lr, ip
            blocks = lsr(m, r2, 4)                    # lsr ip, r2, #4
            if m.dsp:
                p = mov(m, s)                         # mov r2, r3
            while True:                               # while (n >= LBLOCKSIZE*4)
                str_(m, p, buf)                       # str r5, [r2]
                str_(m, p + 4, buf)                   # str r5, [r2, #4]
                str_(m, p + 8, buf)                   # str r5, [r2, #8]
                str_(m, p + 12, buf)                  # str r5, [r2, #12]
                p = add(m, p, 16)                     # adds r2, #16
                cmp(m, p, end)                        # cmp r2, lr
                bcc(m, p != end)                      # bne 44
                if p == end:
                    break
            p = add(m, blocks, 1)                     # add r2, ip, #1
            tst(m, r4, 12)                            # tst r4, #12
            p = add(m, s, p << 4)                     # add r2, r3, r2, lsl #4
            ip = and_(m, r4, 15)                      # and ip, r4, #15
            bcc(m, (r4 & 12) == 0)                    # beq 8c
            if (r4 & 12) == 0:
                r4 = mov(m, ip)                       # 8c: mov r4, ip
                s = mov(m, p)                         # mov r3, r2
                cmp(m, r4, 0)                         # cmp r4, #0
                bcc(m, r4 != 0)                       # bne 7e
                if r4 == 0:
                    b(m)                              # b 8a
                    pop_pc(m, 3 if m.dsp else 4)      # pop {r4, r5, pc}
                    return dst
                c = uxtb(m, c, 0)                     # 7e: uxtb r1, r1
                end = add(m, r4, s)                   # add r4, r3
                while True:
                    strb(m, s, c)                     # 82: strb r1, [r3], #1
                    s += 1
                    cmp(m, end, s)                    # cmp r4, r3
                    bcc(m, end != s)                  # bne 82
                    if end == s:
                        break
                pop_pc(m, 3 if m.dsp else 4)          # pop {r4, r5, pc}
                return dst
        # 64: while (n >= LBLOCKSIZE)
        e = sub(m, ip, 4)                             # sub r3, ip, #4
        e = bic(m, e, 3)                              # bic r3, r3, #3
        e = add(m, e, 4)                              # adds r3, #4
        e = add(m, e, p)                              # add r3, r2
        while True:
            str_(m, p, buf)                           # 70: str r5, [r2], #4
            p += 4
            cmp(m, p, e)                              # cmp r2, r3
            bcc(m, p != e)                            # bne 70
            if p == e:
                break
        s = e
        r4 = and_(m, ip, 3)                           # and r4, ip, #3
    # 7c: while (n--) *s++ = (char) c;
    cbz(m, r4 == 0)                                   # cbz r4, 8a
    if r4 != 0:
        c = uxtb(m, c, 0)                             # uxtb r1, r1
        end = add(m, r4, s)                           # add r4, r3
        while True:
            strb(m, s, c)                             # 82: strb r1, [r3], #1
            s += 1
            cmp(m, end, s)                            # cmp r4, r3
            bcc(m, end != s)                          # bne 82
            if end == s:
                break
    pop_pc(m, 3 if m.dsp else 4)                      # 8a: pop {r4, r5, pc}
    return dst


@kernel(inline=True)
def _bytes_forward(m, dst, src, n):
    """`while (length--) *dst++ = *src++;` for n > 0 bytes: ADD.W ip, ip, #1; SUBS r3, #1;
    ADD ip, r1; then LDRB / STRB / CMP / BNE per byte (the M3 build compares before the
    store)."""
    add(m, n - 1, 1)                                  # add.w ip, ip, #1
    sub(m, dst, 1)                                    # subs r3, #1
    end = add(m, src, n)                              # add ip, r1
    s = src
    d = dst
    while True:
        v = ldrb(m, s)                                # ldrb.w r2, [r1], #1
        s += 1
        strb(m, d, v)                                 # strb.w r2, [r3, #1]!
        d += 1
        cmp(m, s, end)
        bcc(m, s != end)                              # bne
        if s == end:
            break


@kernel
def memmove(m, dst, src, n):
    """void *memmove(void *dst, const void *src, size_t n)  (newlib/libc/string/memmove.c,
    the generic C, gcc -O2), read off `arm-none-eabi-objdump -d` of lib_a-memmove.o in
    thumb/v7e-m/nofp/libc.a and thumb/v7-m/nofp/libc.a: the two objects have the same
    instructions (the v7-m loops order their compares and stores differently; the counts
    agree).  A destructive overlap (src < dst < src + n) copies bytes backwards; otherwise
    n > 15 with both pointers word aligned copies 16-byte blocks (PUSH {r4-r6, lr}), then
    words, then the residue bytes, else bytes only; leaf paths return with BX."""
    cmp(m, dst, src)                                  # 0: cmp r0, r1
    bcc(m, dst <= src)                                # 2: bls 22
    if dst > src:
        end = add(m, src, n)                          # 4: adds r3, r1, r2
        cmp(m, end, dst)
        bcc(m, end <= dst)                            # 8: bls 22
        if end > dst:                                 # if (src < dst && dst < src + length)
            add(m, dst, n)                            # a: add.w ip, r0, r2
            cmp(m, n, 0)
            bcc(m, n == 0)                            # 10: beq f0
            if n != 0:
                mov(m, dst + n)                       # 12: mov r2, ip
                s = src + n
                d = dst + n
                while True:                           # while (length--) *--dst = *--src;
                    s -= 1
                    d -= 1
                    v = ldrb(m, s)                    # ldrb.w ip, [r3, #-1]!
                    strb(m, d, v)                     # strb.w ip, [r2, #-1]!
                    cmp(m, src, s)
                    bcc(m, s != src)                  # bne
                    if s == src:
                        break
            bx(m)                                     # 20 / f0: bx lr
            return dst
    cmp(m, n, 15)                                     # 22: !TOO_SMALL(length)
    bcc(m, n > 15)                                    # 24: bhi 46
    if n <= 15:
        mov(m, dst)                                   # 26: mov r3, r0
        add(m, n, -1)                                 # 28: add.w ip, r2, #-1
        cmp(m, n, 0)
        bcc(m, n == 0)                                # 2e: beq f0
        if n != 0:
            _bytes_forward(m, dst, src, n)
        bx(m)                                         # 44 / f0: bx lr
        return dst
    misaligned = lsl(m, orr(m, dst, src), 30)         # 46: orr.w r3, r0, r1; lsls #30
    bcc(m, misaligned != 0)                           # 4c: bne f2  (UNALIGNED(src, dst))
    if misaligned != 0:
        add(m, n, -1)                                 # f2: add.w ip, r2, #-1
        mov(m, dst)                                   # f6: mov r3, r0
        b(m)                                          # f8: b.n 30
        _bytes_forward(m, dst, src, n)
        bx(m)                                         # 44: bx lr
        return dst
    blocks = ((n - 16) >> 4) + 1                      # 4e-66: the block loop's end
    sub(m, n, 16)                                     # sub.w r3, r2, #16
    push(m, 4)                                        # push {r4, r5, r6, lr}
    add(m, src, 32)                                   # add.w ip, r1, #32
    bic(m, n - 16, 15)                                # bic.w r5, r3, #15
    add(m, src, 16)                                   # add.w lr, r1, #16
    add(m, dst, 16)                                   # add.w r4, r0, #16
    add(m, 0, 0)                                      # add ip, r5
    lsr(m, n - 16, 4)                                 # lsrs r3, r3, #4
    s = src
    d = dst
    for _ in range(blocks):                           # copy 4X long words at a time
        for k in range(4):
            str_(m, d + 4 * k, ldr(m, s + 4 * k))     # ldr.w r5, [lr, #-16]; str.w ...
        s = add(m, s, 16)                             # add.w lr, lr, #16
        cmp(m, s, src + 16 * blocks)
        d = add(m, d, 16)                             # add.w r4, r4, #16
        bcc(m, s != src + 16 * blocks)                # bne 68
    rest = n & 15
    add(m, blocks - 1, 1)                             # 94: adds r3, #1
    tst(m, n, 12)                                     # tst.w r2, #12
    add(m, 0, 0)                                      # add.w r1, r1, r3, lsl #4
    and_(m, n, 15)                                    # and.w r4, r2, #15
    add(m, 0, 0)                                      # add.w r3, r0, r3, lsl #4
    bcc(m, (rest & 12) == 0)                          # beq fa
    if rest & 12:                                     # copy one long word at a time
        words = rest >> 2
        sub(m, rest, 4)                               # a8: subs r4, #4
        bic(m, rest - 4, 3)                           # bic.w r6, r4, #3
        lsr(m, rest - 4, 2)                           # mov.w ip, r4, lsr #2
        add(m, 0, 0)                                  # add r6, r3
        sub(m, d, 4)                                  # subs r4, r3, #4
        mov(m, s)                                     # mov lr, r1
        for k in range(words):
            str_(m, d + 4 * k, ldr(m, s + 4 * k))     # ldr.w r5, [lr], #4; str.w r5, [r4, #4]!
            cmp(m, k + 1, words)
            bcc(m, k + 1 != words)                    # bne b8
        s += 4 * words
        d += 4 * words
        add(m, words - 1, 1)                          # c4: add.w r4, ip, #1
        rest = and_(m, n, 3)                          # and.w r2, r2, #3
        add(m, 0, 0)                                  # add.w r3, r3, r4, lsl #2
        add(m, 0, 0)                                  # add.w r1, r1, r4, lsl #2
    else:
        mov(m, rest)                                  # fa: mov r2, r4
        b(m)                                          # b.n d4
    add(m, rest, -1)                                  # d4: add.w ip, r2, #-1
    cbz(m, rest == 0)                                 # cbz r2, ee
    if rest:                                          # the residue, byte by byte
        add(m, rest - 1, 1)                           # add.w ip, ip, #1
        sub(m, d, 1)                                  # subs r3, #1
        end = add(m, s, rest)                         # add ip, r1
        while True:
            v = ldrb(m, s)                            # ldrb.w r2, [r1], #1
            s += 1
            strb(m, d, v)                             # strb.w r2, [r3, #1]!
            d += 1
            cmp(m, s, end)
            bcc(m, s != end)
            if s == end:
                break
    pop_pc(m, 4)                                      # ee: pop {r4, r5, r6, pc}
    return dst
