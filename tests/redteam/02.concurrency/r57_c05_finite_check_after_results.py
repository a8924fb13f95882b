# expect: pass a finiteness check (an if on each result) after both .result() calls; written as wrong, judged right: the checker's hints allow a read after both results, and only a copy of a result back to the host is refused
# hint:
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    for r in (xx, yy):
        if not torch.isfinite(r).all():  # guard against overflow
            raise FloatingPointError("non-finite product")
    return xx, yy


answer = run_concurrently
