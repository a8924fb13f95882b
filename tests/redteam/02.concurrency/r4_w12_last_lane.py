# expect: fail y @ y on lanes[-1] instead of lanes[1] (differs with more than two lanes)
# hint: lanes\[1\]|lanes\[-1\]|last lane|second lane|wrong lane|lane 1
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[-1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
