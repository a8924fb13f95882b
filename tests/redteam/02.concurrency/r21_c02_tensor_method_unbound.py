# expect: pass submits the unbound torch.Tensor.__matmul__ with explicit args, y launched first, waits unpacked in x-then-y order
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    second = lanes[1].submit(torch.Tensor.__matmul__, y, y)
    first = lanes[0].submit(torch.Tensor.__matmul__, x, x)
    xx = first.result()
    yy = second.result()
    return xx, yy


answer = run_concurrently
