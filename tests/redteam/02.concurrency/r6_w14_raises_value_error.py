# expect: fail refuses lanes it did not expect (raises ValueError unless given exactly two): an exception instead of the products
# hint: raise|exception|error|ValueError|lanes
import torch
def answer(x, y, lanes):
    if len(lanes) != 2:
        raise ValueError(f"expected two lanes, got {len(lanes)}")
    if x.shape != y.shape:
        raise ValueError("x and y must have the same shape")
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
