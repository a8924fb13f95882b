# expect: fail x @ x runs on lanes[1] and y @ y on lanes[0]: each product on the other lane (the other device)
# hint: lane|lanes\[0\]|lanes\[1\]|swap|wrong (lane|device|stream)|device
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    second, first = lanes[0], lanes[1]  # unpacked in the wrong order
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
