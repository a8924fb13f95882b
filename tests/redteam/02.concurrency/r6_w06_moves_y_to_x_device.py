# expect: fail moves y to x's device first "so both are on the same device": with two GPUs, y @ y then runs on GPU 0's data, and the copy is a transfer in the caller
# hint: device|copy|transfer|\.to\(|moved|where the lanes
import torch
def answer(x, y, lanes):
    y = y.to(x.device)
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
