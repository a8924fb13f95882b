# expect: fail Moves y to x's device first "so both results are on one device"; with two GPUs that is a cross-device copy, and y @ y then runs on GPU 0 (the inputs' device), not on lanes[1]'s GPU.
# hint: device|copy|transfer|\.to|lane|where
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    y = y.to(x.device)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
