"""arm_avgpool_get_buffer_sizes_s8.c: scratch size of arm_avgpool_s8.

    int32_t arm_avgpool_s8_get_buffer_size(const int output_x, const int ch_src)
        MVEI: arm_avgpool_s8_get_buffer_size_mve -> 0
        DSP:  arm_avgpool_s8_get_buffer_size_dsp -> ch_src * sizeof(int32_t)
        else: 0

A counted kernel: arm_avgpool_s8 calls it when ctx->buf is NULL (the plain-C build, whose
size is 0).  gcc 12.2 -O2 inlines the _dsp helper: `lsls r0, r1, #2; bx lr` (Cortex-M4),
`movs r0, #0; bx lr` (Cortex-M3).  `buffer_size_host` is the same rule for the harness,
which sizes the context before the counted call.  Only non-MVE cores are simulated.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import bx, lsl, mov

# read off gcc 12.2 -O2's disassembly (tests/test_fitted.py)
DISASSEMBLED = "CMSIS-NN 99f736a, arm-none-eabi-gcc 12.2 -O2, -mcpu=cortex-m4 / cortex-m3"


@kernel
def arm_avgpool_s8_get_buffer_size(m, output_x, ch_src):
    if m.dsp:
        size = lsl(m, ch_src, 2)                  # arm_avgpool_s8_get_buffer_size_dsp: ch_src * sizeof(int32_t)
    else:
        size = mov(m, 0)                          # (void)output_x; (void)ch_src; return 0;
    bx(m)
    return size


def buffer_size_host(output_x, ch_src, dsp):
    return ch_src * 4 if dsp else 0
