# expect: fail clones both results in the caller "so the lanes cannot change them": an extra copy of each product, outside the lanes
# hint: clone|copy|caller|extra|outside|where the lanes
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().clone(), fy.result().clone()
