# expect: fail right values, but returns both results copied back to the host with .cpu() instead of where the lanes left them
# hint: cpu|host|copy back|transfer|where the lanes|device
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().cpu(), fy.result().cpu()  # on one device, to compare them


answer = run_concurrently
