# expect: fail returns torch.stack([xx, yy]): an extra copy into one tensor, and it fails when the lanes are on two GPUs
# hint: stack|one tensor|single tensor|device|cop(y|ied)|transfer|tuple|two tensors|where the lanes
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return torch.stack([fx.result(), fy.result()])  # unpacks as (xx, yy) all the same


answer = run_concurrently
