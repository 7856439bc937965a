"""The instruction set armsim counts: every mnemonic and its timing class.

One home for the list: counters, cycle tables, reports and the measured-count comparison
all index by these names.  Mnemonics are spelled as in the measured histograms of
``../shared/reference`` (lower case, width suffix dropped, conditional branch ``bcc``);
classes are the ``class_histogram`` classes of the same measurements.  The Armv8.1-M
(MVE) mnemonics and classes follow, after every scalar one, so adding them moved no
scalar index.
"""

# Timing classes of the scalar and DSP instructions (the measured `class_histogram` keys).
SCALAR_CLASSES = ("alu", "mul", "dspmac", "simd", "sat", "div", "ld1", "ldrd", "ldm",
                  "st1", "strd", "stm", "br", "it")
# Timing classes of the Armv8.1-M instructions CMSIS-NN's MVE build executes: the Cortex-M55
# vector pipe each runs in (LLVM ARMScheduleM55.td: load/store, integer, float/multiply,
# control), and the low-overhead-loop branches.  Every vector instruction is four beats
# (a beat is 32 bits of the 128-bit vector); the pipe is what decides whether consecutive
# vector instructions overlap their beats.
MVE_CLASSES = ("mve_ld", "mve_st", "mve_int", "mve_mul", "mve_sys", "lob")
CLASSES = SCALAR_CLASSES + MVE_CLASSES
CLASS_INDEX = {name: i for i, name in enumerate(CLASSES)}

_BY_CLASS = {
    "alu": "mov movw movt mvn add adc sub sbc rsb cmp cmn tst teq and orr orn eor bic "
           "lsl lsr asr ror rrx sxtb sxth uxtb uxth sxtab sxtah uxtab uxtah rev rev16 "
           "revsh rbit clz ubfx sbfx bfi bfc nop",
    "mul": "mul mla mls smull umull smlal umlal smulbb smulbt smultb smultt smlabb "
           "smlabt smlatb smlatt smlalbb smlalbt smlaltb smlaltt smulwb smulwt smlawb smlawt smmul "
           "smmulr smmla smmls",
    "dspmac": "smlad smladx smlsd smlsdx smuad smuadx smusd smusdx smlald smlaldx "
              "smlsld smlsldx",
    "simd": "sxtb16 sxtab16 uxtb16 uxtab16 pkhbt pkhtb sadd16 ssub16 sadd8 ssub8 "
            "uadd8 usub8 qadd16 qsub16 qadd8 qsub8 sel",
    "sat": "ssat usat ssat16 usat16 qadd qsub qdadd qdsub",
    "div": "sdiv udiv",
    "ld1": "ldr ldrh ldrsh ldrb ldrsb",
    "ldrd": "ldrd",
    "ldm": "ldm ldmdb pop",
    "st1": "str strh strb",
    "strd": "strd",
    "stm": "stm stmdb push",
    "br": "b bl bx blx bcc cbz cbnz",
    "it": "it",
}
_ARMV81M_BY_CLASS = {
    # Armv8.1-M: the instructions of CMSIS-NN's MVE build.  MVE mnemonics keep their data
    # type (it gives the lanes) and drop the 't'/'e' a disassembler adds inside a VPT block;
    # a gather or scatter (vector of offsets) is ``<mnemonic>.gather`` / ``.scatter``;
    # ``vmov`` is VMOV Qd, Qm (VORR), ``vmov.32`` one 32-bit lane to a core register
    # (VMOV Rt, Dn[x] or VMOV Rt, Sn), ``vmov.rr`` two core registers to two lanes;
    # ``vldr``, ``vpush``, ``vpop`` are the FP-register loads and stores (literal pool,
    # stack).  tools/mve_qemu/count.py (`normalize`) maps disassembly to these.
    "mve_ld": "vldrb.u8 vldrb.s16 vldrb.s32 vldrh.u16 vldrh.s32 vldrw.u32 vldrb.u8.gather "
              "vldrb.u16.gather vldrb.s32.gather vld20.8 vld21.8 vldr vpop",
    "mve_st": "vstrb.8 vstrb.16 vstrb.32 vstrh.16 vstrh.32 vstrw.32 vstrb.32.scatter "
              "vstrh.32.scatter vpush",
    "mve_int": "vadd.i16 vadd.i32 vsub.i32 vand vmov vmov.rr vmax.s8 vmax.s16 vmax.s32 vmin.s8 "
               "vmin.s16 vmin.s32 vqadd.s32 vshl.s32 vrshl.s8 vrshl.s32 vshr.s8 vshr.s32 "
               "vdup.8 vdup.16 vdup.32 vidup.u16 vmovlb.s8 vmovlb.s16 vmovlt.s8 vmovlt.s16 "
               "vmovnb.i16 vmovnb.i32 vmovnt.i16 vmovnt.i32 vpsel",
    "mve_mul": "vmul.i16 vmul.i32 vqrdmulh.s32 vmlava.s8 vmlava.s16 vmlava.s32 vmlalva.s16 "
               "vaddv.s8 vaddva.s8 vcmp.s32 vmov.32 vmsr vmrs",
    "mve_sys": "vctp.8 vctp.16 vctp.32 vpst",
    "lob": "dls le letp wlstp.8 wlstp.16 wlstp.32",
    # scalar: 64-bit shifts and conditional selects are ALU instructions
    "alu": "asrl cinc cneg csneg",
}

_ORDER = [(cls, mn) for table in (_BY_CLASS, _ARMV81M_BY_CLASS) for cls in table
          for mn in table[cls].split()]
MNEMONICS = tuple(mn for _, mn in _ORDER)
MNEMONIC_INDEX = {mn: i for i, mn in enumerate(MNEMONICS)}
CLASS_OF = {mn: cls for cls, mn in _ORDER}
N_MNEMONICS = len(MNEMONICS)
N_CLASSES = len(CLASSES)

LOAD_CLASSES = ("ld1", "ldrd", "ldm")
STORE_CLASSES = ("st1", "strd", "stm")
# the Armv8.1-M mnemonics (MVE and scalar): verified against QEMU, not unicorn
ARMV81M_MNEMONICS = tuple(mn for table in (_ARMV81M_BY_CLASS,) for cls in table
                          for mn in table[cls].split())
