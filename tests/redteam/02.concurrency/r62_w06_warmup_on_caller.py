# expect: fail "warms up" by computing x @ x and y @ y once on the caller before submitting: every call does each product twice, the extra ones outside the lanes and in sequence
# hint: warm|extra|twice|outside|caller|more (than|products|launch)|sequen|once each|count
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # warm-up: the first product pays one-off costs (library handles, kernel choice)
    x @ x
    y @ y
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
