# expect: pass both launched, both waited for, then an isfinite assert: a read after both results, which the prompt allows (only a copy back is counted; judged wrong by its writer)
# hint:
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    assert torch.isfinite(xx).all() and torch.isfinite(yy).all(), "product overflowed"
    return xx, yy


answer = run_concurrently
