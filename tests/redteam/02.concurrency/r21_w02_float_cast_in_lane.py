# expect: fail the lane function casts each product to float32 (.float()): right for float32 inputs only; float64 or half inputs come back in the wrong dtype (and pay a conversion kernel)
# hint: dtype|float32|\.float|cast|convert|precision|half|float64
import torch


def _square(t):
    return torch.matmul(t, t).float()  # results as plain float


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
