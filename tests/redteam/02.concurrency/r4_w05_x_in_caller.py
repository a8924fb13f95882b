# expect: fail x @ x computed in the caller's thread, only y @ y on a lane
# hint: caller|not on a lane|outside the lanes|your own thread|this thread
import torch
def answer(x, y, lanes):
    fy = lanes[1].submit(torch.matmul, y, y)
    xx = x @ x  # meanwhile, here
    return xx, fy.result()
