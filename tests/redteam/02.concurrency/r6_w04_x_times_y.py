# expect: fail computes x @ y on lanes[0] (and y @ x on lanes[1]) instead of x @ x and y @ y
# hint: x @ x|y @ y|value|product|differ|expected|wrong result
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, y)
    fy = lanes[1].submit(torch.matmul, y, x)
    return fx.result(), fy.result()
