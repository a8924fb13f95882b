# expect: pass a small class launches both products in __init__ (x's on lanes[0], y's on lanes[1]) and waits in __iter__, y's future first; the function unpacks it into a tuple
# hint: 
import torch


class _TwoSquares:
    def __init__(self, x, y, lanes):
        self._x = lanes[0].submit(torch.Tensor.matmul, x, x)
        self._y = lanes[1].submit(torch.Tensor.matmul, y, y)

    def __iter__(self):
        yy = self._y.result()  # either order of waiting: both are already running
        xx = self._x.result()
        yield xx
        yield yy


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    xx, yy = _TwoSquares(x, y, lanes)
    return xx, yy


answer = run_concurrently
