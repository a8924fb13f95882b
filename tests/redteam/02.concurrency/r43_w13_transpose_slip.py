# expect: fail Submits torch.matmul(y, y.T) (a Gram matrix, a slip from a "y y-transpose" pattern) for the second product, so y @ y is wrong for any non-symmetric y.
# hint: value|wrong|result|y @ y|expected|close
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y.T)
    return fx.result(), fy.result()
