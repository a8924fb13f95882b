# expect: fail copies both results back to the host with .cpu() instead of returning them where the lanes left them
# hint: \.cpu|cpu\(\)|transfer|cop(y|ied|ies)|host read|to the host|where the lanes? left|device
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    # hand the caller ordinary host tensors, whatever device the lanes used
    return fx.result().cpu(), fy.result().cpu()


answer = run_concurrently
