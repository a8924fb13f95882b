# expect: fail keeps the lanes of the first call in a module global and reuses them on every later call: later calls submit to the first call's lanes (possibly shut down, or another device) instead of the lanes they are given
# hint: global|first call|stale|cache|kept|lanes (passed|given|argument)|state|previous call
import torch

_LANES = None  # set up once, reused


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    global _LANES
    if _LANES is None:
        _LANES = (lanes[0], lanes[1])
    first, second = _LANES
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
