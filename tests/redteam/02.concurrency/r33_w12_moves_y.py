# expect: fail copies y to x's device before submitting it, a transfer the prompt counts (and runs y's product off its own device)
# hint: transfer|copy|device|\.to|where
import torch


def run_concurrently(x, y, lanes):
    y = y.to(x.device)  # keep everything on one device
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
