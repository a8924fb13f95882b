# expect: pass asserts torch.isfinite(...).all() on both results after both were waited for (relabelled: as r6_c05, the prompt forbids returning host copies, not a read after both results)
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    assert torch.isfinite(xx).all() and torch.isfinite(yy).all(), "overflow in a product"
    return xx, yy


answer = run_concurrently
