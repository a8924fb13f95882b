# expect: fail computes the elementwise square x * x (torch.mul) instead of the matrix product x @ x
# hint: element|mul|matmul|matrix product|product|x @ x|value|wrong result|differ|close
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.mul, x, x)
    fy = lanes[1].submit(torch.mul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
