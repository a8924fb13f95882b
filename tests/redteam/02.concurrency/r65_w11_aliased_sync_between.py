# expect: fail a device-wide sync (d2lgpu.sync imported as `settle`) between the two submits: the first product finishes before the second is launched
# hint: sync|wait(ed|s|ing)? (for the first|before)|before launch|between|one after the other|sequen|serial
# Wrong: "make sure y's copy has landed" makes the host wait for the whole device, x @ x included,
# before y @ y is launched: the prompt's forbidden synchronize, under another name (a no-op on CPU).

import torch
from d2lgpu import sync as settle


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    settle(y.device)  # y was just copied to its device by the caller: let it land first
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()
