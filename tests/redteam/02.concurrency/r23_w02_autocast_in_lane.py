# expect: fail runs each product under torch.autocast to go faster: the results come back in bfloat16 (float16 on CUDA), not float32, and lose about 3 significant digits, far beyond the 1e-4 tolerance of x @ x
# hint: autocast|bfloat16|bf16|float16|half|dtype|precision
import torch


def _fast_square(t):
    # mixed precision: the tensor cores / AMX do the product much faster
    with torch.autocast(device_type=t.device.type):
        return t @ t


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_fast_square, x)
    fy = lanes[1].submit(_fast_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
