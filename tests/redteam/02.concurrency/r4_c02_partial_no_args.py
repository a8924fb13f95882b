# expect: pass
# hint: 
import functools
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(functools.partial(torch.mm, x, x))
    fy = lanes[1].submit(functools.partial(torch.mm, y, y))
    return (fx.result(), fy.result())
