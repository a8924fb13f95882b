# expect: fail casts the inputs to float32 before the product: float64 inputs lose precision and float16/bfloat16 inputs come back as float32 (an extra copy each, and the wrong dtype)
# hint: dtype|float32|float64|float16|bfloat16|half|double|precision|cast|convert
import torch


def _square(t):
    t = t.float()  # matmul in float32, the usual training dtype
    return t @ t


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
