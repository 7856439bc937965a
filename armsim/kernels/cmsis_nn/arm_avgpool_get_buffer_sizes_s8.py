"""arm_avgpool_get_buffer_sizes_s8.c: scratch size of arm_avgpool_s8.

    int32_t arm_avgpool_s8_get_buffer_size(const int output_x, const int ch_src)
        MVEI: arm_avgpool_s8_get_buffer_size_mve -> 0
        DSP:  arm_avgpool_s8_get_buffer_size_dsp -> ch_src * sizeof(int32_t)
        else: 0

A counted kernel: arm_avgpool_s8 calls it when ctx->buf is NULL (the plain-C build, whose
size is 0).  `buffer_size_host` is the same rule for the harness, which sizes the context
before the counted call.  Only non-MVE cores are simulated.
"""
from armsim.cpu.kernel import kernel
from armsim.cpu.ops import lsl, mov


@kernel(inline=True)
def arm_avgpool_s8_get_buffer_size(m, output_x, ch_src):
    if m.dsp:
        return lsl(m, ch_src, 2)                  # arm_avgpool_s8_get_buffer_size_dsp: ch_src * sizeof(int32_t)
    return mov(m, 0)                              # (void)output_x; (void)ch_src; return 0;


def buffer_size_host(output_x, ch_src, dsp):
    return ch_src * 4 if dsp else 0
