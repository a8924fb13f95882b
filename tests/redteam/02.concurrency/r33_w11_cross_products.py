# expect: fail computes x @ y and y @ x instead of x @ x and y @ y
# hint: x @ x|value|product|equal|differ|wrong|result
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, y.to(x.device))
    fy = lanes[1].submit(torch.matmul, y, x.to(y.device))
    return fx.result(), fy.result()


answer = run_concurrently
