# expect: fail copies both results back to the host with .cpu() instead of leaving them where the lanes left them
# hint: cpu|host|transfer|copy|device|where the lanes
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().cpu(), fy.result().cpu()


answer = run_concurrently
