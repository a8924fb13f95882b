# expect: fail y @ y copied to x's device before returning: the results are not where the lanes left them (a device-to-device transfer on two GPUs)
# hint: where the lanes left|device|transfer|cop(y|ied)|\.to\(|moved|same device|gather
# Wrong: the prompt asks for the results where the lanes left them; `.to(x.device)` is free when
# both lanes share a device (CPU, one GPU) and a real copy, with a wait, only on two devices.

import torch


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time, on one device."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    return xx, yy.to(xx.device)  # callers compare the two: same device is handier
