# expect: fail computes y @ y in the caller while x @ x runs on lanes[0]: lanes[1] unused
# hint: lanes\[1\]|caller|not on a lane|outside|second lane|lane 1
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    yy = torch.matmul(y, y)
    return fx.result(), yy
