"""What every layer stands on: numba's on-disk compile cache, the parallel precompile of a
model's kernels, and the start-up cost of importing them."""
