# expect: fail launches and waits for both, but forgets to return them (returns None)
# hint: None|return|tuple|tensor
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
