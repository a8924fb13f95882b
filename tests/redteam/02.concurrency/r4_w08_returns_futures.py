# expect: fail returns the two futures, not their results
# hint: future|result\(\)|tensor|type
import torch
def answer(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx, fy
