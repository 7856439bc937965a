"""Ports of TensorFlow Lite Micro's reference kernels (reference_integer_ops), the third counted path."""
