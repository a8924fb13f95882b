# expect: pass
# hint: 
import torch
def answer(x, y, lanes):
    fy = lanes[1].submit(torch.matmul, y, y)
    fx = lanes[0].submit(torch.matmul, x, x)
    results = [f.result() for f in (fx, fy)]
    return tuple(results)
