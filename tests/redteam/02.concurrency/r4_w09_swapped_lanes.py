# expect: fail x @ x on lanes[1] and y @ y on lanes[0]
# hint: lanes\[0\]|lanes\[1\]|swap|wrong lane|which lane|lane 0|lane 1
import torch
def answer(x, y, lanes):
    fy = lanes[0].submit(torch.matmul, y, y)
    fx = lanes[1].submit(torch.matmul, x, x)
    return fx.result(), fy.result()
