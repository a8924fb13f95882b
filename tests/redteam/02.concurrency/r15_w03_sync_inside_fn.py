# expect: fail the function given to each lane synchronizes the device after its product (host waits inside submit)
# hint: synchroni[sz]e|\bsync|inside|within|host wait|(function|fn|callable) (given|passed|submitted)|sequen|one after
import torch


def _square(m):
    out = m @ m
    if out.is_cuda:  # make sure the product is finished before the lane hands it back
        torch.cuda.synchronize(out.device)
    return out


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
