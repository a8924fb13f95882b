# expect: fail computes small products directly in the caller ("launch-bound: two lanes don't pay below 256 x 256"), never touching the lanes: with small test inputs nothing runs on lanes[0] or lanes[1], and on GPUs nothing is concurrent; only large inputs use the lanes
# hint: small|size|threshold|numel|shape|caller|(never|not|don'?t) (use|touch)|bypass|shortcut|launch.bound|without (the )?lanes
import torch

_WORTH_TWO_LANES = 256 * 256  # elements: below this a product is launch-bound (chapter 2.12)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    if max(x.numel(), y.numel()) < _WORTH_TWO_LANES:
        return x @ x, y @ y
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
