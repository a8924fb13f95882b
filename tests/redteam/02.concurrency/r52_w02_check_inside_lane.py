# expect: fail the function given to each lane checks its product is finite (bool() of a tensor): a host read inside the lane's work, so a CUDA lane waits in submit
# hint: sync|read|inside|wait|sequen|one after|bool|transfer
import torch


def _checked_square(t):
    out = t @ t
    if not torch.isfinite(out).all():  # Python must know the branch: waits for the product
        raise FloatingPointError("product overflowed")
    return out


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(_checked_square, x)
    fy = lanes[1].submit(_checked_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
