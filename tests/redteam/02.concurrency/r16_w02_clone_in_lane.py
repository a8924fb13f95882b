# expect: pass (relabelled: the prompt allows it) each lane makes an extra copy of its product (.clone())
# hint: 
import torch


def _square(t):
    return (t @ t).clone()  # the caller gets its own tensor, not the lane's buffer


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x)
    fy = lanes[1].submit(_square, y)
    return fx.result(), fy.result()


answer = run_concurrently
