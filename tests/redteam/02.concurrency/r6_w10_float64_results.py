# expect: fail converts the products to float64 "for precision": neither the dtype nor the tensors the lanes left
# hint: dtype|float64|double|type|convert|copy
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().double(), fy.result().double()
