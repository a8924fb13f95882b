# expect: fail waits for the first result before launching the second: one after the other
# hint: sequence|one after the other|before launching|wait.*before|launch both|in flight
import torch
def answer(x, y, lanes):
    xx = lanes[0].submit(torch.matmul, x, x).result()
    fy = lanes[1].submit(torch.matmul, y, y)
    return xx, fy.result()
