# expect: fail the function given to each lane reads a value back ("check it is finite") before returning: a host read, i.e. a wait, inside the lane's function
# hint: host|read|transfer|sync|wait|item|float|inside
import math
import torch
def _checked_square(t):
    out = t @ t
    assert math.isfinite(float(out.sum())), "overflow"
    return out
def answer(x, y, lanes):
    fx = lanes[0].submit(_checked_square, x)
    fy = lanes[1].submit(_checked_square, y)
    return fx.result(), fy.result()
