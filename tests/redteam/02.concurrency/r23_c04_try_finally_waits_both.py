# expect: pass launches both, then waits for y's future in a finally block so a failing x job never leaves y's running unobserved
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    yy = None
    try:
        xx = fx.result()
    finally:
        yy = fy.result()  # always wait for the second lane too
    return xx, yy


answer = run_concurrently
