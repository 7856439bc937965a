"""arm_nn_vec_mat_mult_t_per_ch_s8 (Source/NNSupportFunctions/arm_nn_vec_mat_mult_t_per_ch_s8.c).

Line for line arm_nn_vec_mat_mult_t_s8 with `dst_multiplier` and `dst_shift` pointers to
per-row values (`arm_nn_requantize(acc, *dst_multiplier++, *dst_shift++)`), so nothing of
the requantization is loop-invariant.  The C files are copies of each other apart from
that; the port shares the body (kernels/cmsis_nn/arm_nn_vec_mat_mult_t_s8.py).
"""
from armsim.cpu.kernel import kernel

from ._old_vmm import vec_mat_mult_t_body


@kernel
def arm_nn_vec_mat_mult_t_per_ch_s8(m, lhs, rhs, kernel_sum, bias, dst, lhs_offset, dst_offset,
                                    dst_multiplier, dst_shift, rhs_cols, rhs_rows,
                                    activation_min, activation_max, address_offset, rhs_offset):
    return vec_mat_mult_t_body(m, lhs, rhs, bias, dst, lhs_offset, dst_offset, dst_multiplier,
                               dst_shift, rhs_cols, rhs_rows, activation_min, activation_max,
                               address_offset, rhs_offset, True)
