# expect: fail both products submitted to lanes[0]
# hint: lanes\[1\]|second lane|both on|same lane|one lane|lane 1
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[0].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
