# expect: fail computes y @ y on the calling thread while lanes[0] runs x @ x: lanes[1] is never used, so on GPU lanes y @ y goes to the caller's current stream and not the second lane
# hint: lanes?\[1\]|second lane|both lanes|each lane|not (on|submitted)|caller|current stream|outside
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)  # runs in the background ...
    yy = y @ y  # ... while this thread does the other product
    return fx.result(), yy


answer = run_concurrently
