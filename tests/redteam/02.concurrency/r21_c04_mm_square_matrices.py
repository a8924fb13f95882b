# expect: pass torch.mm submitted to each lane (relabelled: x and y are square matrices, for which torch.mm is x @ x; the prompt names no batched inputs)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.mm, x, x)
    fy = lanes[1].submit(torch.mm, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
