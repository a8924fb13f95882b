# expect: fail returns one stacked tensor instead of a pair of tensors (and stacking moves/copies them)
# hint: tuple|pair|two|stack|tensor|type
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return torch.stack([fx.result(), fy.result()])
