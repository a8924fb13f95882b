# expect: fail returns (y @ y, x @ x), the pair in the wrong order
# hint: order|x @ x|first|swap|value|equal|differ|wrong
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fy.result(), fx.result()


answer = run_concurrently
