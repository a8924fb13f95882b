# expect: fail the function given to each lane synchronizes the device after its product, so submit waits for it and the products run one after the other
# hint: (synchroni[sz]|\bsync|wait)\w*.{0,60}(inside|within|in the function|given to)|(inside|within) the (function|lane|task|callable)|given to (a|the) lane|function you submitted .{0,40}synchroni
# name: run_concurrently
import torch


def _square(m):
    out = m @ m
    if out.is_cuda:
        torch.cuda.synchronize(out.device)  # hand back a finished product
    return out


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): launch both, then wait for both."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()
