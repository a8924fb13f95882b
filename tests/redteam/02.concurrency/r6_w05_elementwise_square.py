# expect: fail x * x (elementwise) instead of the matrix product x @ x
# hint: x @ x|matmul|matrix product|elementwise|value|differ|expected|wrong result
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.mul, x, x)
    fy = lanes[1].submit(torch.mul, y, y)
    return fx.result(), fy.result()
