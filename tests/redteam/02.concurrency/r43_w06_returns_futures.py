# expect: fail Returns the two futures instead of their results, so the caller gets future objects, not tensors, and nothing waits for the products.
# hint: result|future|tensor|return|wait
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx, fy
