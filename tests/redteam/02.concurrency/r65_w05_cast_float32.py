# expect: fail inputs cast to float32 before submitting: float64 (or half) inputs give float32 products, not x @ x in their own dtype
# hint: dtype|float32|float64|float16|bfloat16|half|double|cast|precision|\.float\(\)
# Wrong: `.float()` "to be safe" is a no-op for float32 inputs only; for float64 it loses precision
# and for half it returns another dtype, and the cast itself is a copy made on the caller's thread.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    xf, yf = x.float(), y.float()  # matmul kernels are fastest in float32
    fx = lanes[0].submit(torch.matmul, xf, xf)
    fy = lanes[1].submit(torch.matmul, yf, yf)
    return fx.result(), fy.result()
