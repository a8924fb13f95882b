# expect: pass lanes unpacked as `lane_x, lane_y, *_ = lanes` (extra lanes ignored); the product as torch.addmm(m, m, m, beta=0), where beta=0 ignores the added input (no nan/inf carried over); both launched, then both waited
# hint: 
import functools

import torch

_product = functools.partial(torch.addmm, beta=0)  # 0 * m + m @ m, with m ignored


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    lane_x, lane_y, *_ = lanes
    pending = (lane_x.submit(_product, x, x, x), lane_y.submit(_product, y, y, y))
    return tuple(f.result() for f in pending)


answer = run_concurrently
