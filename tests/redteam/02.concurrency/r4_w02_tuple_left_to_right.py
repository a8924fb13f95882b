# expect: fail a one-line tuple of submit(...).result() calls: Python evaluates left to right, so the first result is awaited before the second is launched
# hint: sequence|one after the other|before launching|wait.*before|launch both|in flight
import torch
def answer(x, y, lanes):
    return (lanes[0].submit(torch.matmul, x, x).result(),
            lanes[1].submit(torch.matmul, y, y).result())
