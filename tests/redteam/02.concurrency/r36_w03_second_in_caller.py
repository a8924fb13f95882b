# expect: fail only x @ x goes to a lane; y @ y is computed in the caller while it runs, so lanes[1] is never used
# hint: lanes\[1\]|second lane|both lanes|caller|lane|submit
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    yy = y @ y  # meanwhile, do the other one here
    return fx.result(), yy


answer = run_concurrently
