"""The structs of CMSIS-NN's Include/arm_nn_types.h that the kernels take by pointer, as
namedtuples: numba compiles them as records passed by value, the traced run reads the same
fields, and the fields keep their C names, so a swapped pair is a wrong name rather than a
silently wrong int among twenty-seven.  Addresses are simulated addresses (0 = NULL)."""
from collections import namedtuple

Context = namedtuple("Context", "buf size")                  # cmsis_nn_context
Dims = namedtuple("Dims", "n h w c")                         # cmsis_nn_dims
Tile = namedtuple("Tile", "w h")                             # cmsis_nn_tile
Activation = namedtuple("Activation", "min max")             # cmsis_nn_activation
# cmsis_nn_conv_params: stride, padding, dilation are Tiles, activation an Activation
ConvParams = namedtuple("ConvParams",
                        "input_offset output_offset stride padding dilation activation")
# cmsis_nn_dw_conv_params: as ConvParams with the channel multiplier after the offsets
DwConvParams = namedtuple("DwConvParams", "input_offset output_offset ch_mult stride padding "
                                          "dilation activation")
# cmsis_nn_per_channel_quant_params: addresses of the int32 multiplier and shift arrays
PerChannelQuantParams = namedtuple("PerChannelQuantParams", "multiplier shift")
# cmsis_nn_per_tensor_quant_params: the multiplier and shift values
PerTensorQuantParams = namedtuple("PerTensorQuantParams", "multiplier shift")
# cmsis_nn_quant_params: addresses of the multiplier and shift (one int32 each per tensor)
QuantParams = namedtuple("QuantParams", "multiplier shift is_per_channel")
# cmsis_nn_fc_params: activation an Activation
FcParams = namedtuple("FcParams", "input_offset filter_offset output_offset activation")
# cmsis_nn_bmm_params: fc_params an FcParams
BmmParams = namedtuple("BmmParams", "adj_x adj_y fc_params")
# cmsis_nn_svdf_params: the activations are Activations
SvdfParams = namedtuple("SvdfParams",
                        "rank input_offset output_offset input_activation output_activation")
# cmsis_nn_pool_params: stride and padding are Tiles, activation an Activation
PoolParams = namedtuple("PoolParams", "stride padding activation")
# cmsis_nn_softmax_lut_s16: addresses of the two 513-entry int16 lookup tables
SoftmaxLutS16 = namedtuple("SoftmaxLutS16", "exp_lut one_by_one_lut")

NULL_DIMS = Dims(0, 0, 0, 0)     # a NULL `const cmsis_nn_dims *` (arm_convolve_s8's upscale)


def dims(d):
    """A `Dims` from a case's {"n", "h", "w", "c"} dict (missing fields 0, as unused ones)."""
    return Dims(*(int(d.get(k, 0)) for k in Dims._fields))


def tile(d):
    return Tile(int(d["w"]), int(d["h"]))


def conv_params(p):
    """`ConvParams` from a case's conv_params dict (dilation 1 when absent)."""
    return ConvParams(int(p["input_offset"]), int(p["output_offset"]), tile(p["stride"]),
                      tile(p["padding"]), tile(p.get("dilation", {"w": 1, "h": 1})),
                      Activation(int(p["activation"]["min"]), int(p["activation"]["max"])))


def dw_conv_params(p):
    """`DwConvParams` from a case's dw_conv_params dict (dilation 1 when absent)."""
    return DwConvParams(int(p["input_offset"]), int(p["output_offset"]), int(p["ch_mult"]),
                        tile(p["stride"]), tile(p["padding"]),
                        tile(p.get("dilation", {"w": 1, "h": 1})),
                        Activation(int(p["activation"]["min"]), int(p["activation"]["max"])))


def fc_params(p):
    """`FcParams` from a case's fc_params dict."""
    return FcParams(int(p["input_offset"]), int(p["filter_offset"]), int(p["output_offset"]),
                    Activation(int(p["activation"]["min"]), int(p["activation"]["max"])))


def svdf_params(p):
    """`SvdfParams` from a case's svdf_params dict."""
    return SvdfParams(int(p["rank"]), int(p["input_offset"]), int(p["output_offset"]),
                      Activation(int(p["input_activation"]["min"]),
                                 int(p["input_activation"]["max"])),
                      Activation(int(p["output_activation"]["min"]),
                                 int(p["output_activation"]["max"])))


def pool_params(p):
    """`PoolParams` from a case's pool_params dict."""
    return PoolParams(tile(p["stride"]), tile(p["padding"]),
                      Activation(int(p["activation"]["min"]), int(p["activation"]["max"])))
