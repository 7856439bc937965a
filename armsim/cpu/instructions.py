"""The instruction set armsim counts: every mnemonic and its timing class.

One home for the list: counters, cycle tables, reports and the measured-count comparison
all index by these names.  Mnemonics are spelled as in the measured histograms of
``../shared/reference`` (lower case, width suffix dropped, conditional branch ``bcc``);
classes are the ``class_histogram`` classes of the same measurements.
"""

# Timing classes (the measured `class_histogram` keys).
CLASSES = ("alu", "mul", "dspmac", "simd", "sat", "div", "ld1", "ldrd", "ldm",
           "st1", "strd", "stm", "br", "it")
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

MNEMONICS = tuple(mn for cls in CLASSES for mn in _BY_CLASS[cls].split())
MNEMONIC_INDEX = {mn: i for i, mn in enumerate(MNEMONICS)}
CLASS_OF = {mn: cls for cls in CLASSES for mn in _BY_CLASS[cls].split()}
N_MNEMONICS = len(MNEMONICS)
N_CLASSES = len(CLASSES)

LOAD_CLASSES = ("ld1", "ldrd", "ldm")
STORE_CLASSES = ("st1", "strd", "stm")
