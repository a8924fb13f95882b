# expect: fail x @ x goes to lanes[1] and y @ y to lanes[0]: right only when the lanes are interchangeable
# hint: lanes\[0\]|lanes\[1\]|swap|wrong lane|order of the lanes|which lane|device of|other (gpu|device)
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # launch the second product first, so the first lane is free when we ask for x @ x
    fy = lanes[0].submit(torch.matmul, y, y)
    fx = lanes[1].submit(torch.matmul, x, x)
    return fx.result(), fy.result()


answer = run_concurrently
