"""Ports of CMSIS-NN's int8 kernels (ARM-software/CMSIS-NN 99f736a), one file per C function."""
