# expect: fail Copies both results back to the host with .cpu() before returning, an extra device-to-host transfer (and sync) that the exercise says to leave out: results should stay where the lanes left them.
# hint: cpu|host|transfer|copy|where the lanes|device
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().cpu(), fy.result().cpu()
