# expect: fail copies y @ y to x's device before returning, instead of leaving it where the lane left it
# hint: \.to\(|copy|copies|transfer|where the lane|device|move
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    return xx, yy.to(xx.device)  # both results in one place, for the caller
answer = run_concurrently
