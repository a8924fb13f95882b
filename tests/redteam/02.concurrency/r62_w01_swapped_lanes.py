# expect: fail runs x @ x on lanes[1] and y @ y on lanes[0]: the lanes are swapped, so on two GPUs each product is queued on the other GPU's lane than the one that holds its input
# hint: lanes?\[0\]|lanes?\[1\]|swap|wrong lane|which lane|device|other gpu
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # launch both, then wait for both
    fy = lanes[0].submit(torch.matmul, y, y)
    fx = lanes[1].submit(torch.matmul, x, x)
    return fx.result(), fy.result()


answer = run_concurrently
