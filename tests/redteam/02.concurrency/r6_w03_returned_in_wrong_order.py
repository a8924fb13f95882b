# expect: fail returns (y @ y, x @ x): the pair in the wrong order
# hint: order|swap|first|second|x @ x|y @ y|revers
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fy.result(), fx.result()
