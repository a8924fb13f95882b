# expect: fail submits both products to lanes[0], never using lanes[1]
# hint: lanes\[1\]|second lane|lane|y @ y|both on
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[0].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
