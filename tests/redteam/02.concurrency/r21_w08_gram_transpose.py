# expect: fail computes x.T @ x (and y.T @ y), the Gram matrix, instead of x @ x
# hint: transpose|\.t\b|\.T|gram|x\.t|x @ x|wrong product
import torch


def _gram(t):
    return t.mT @ t


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_gram, x)
    fy = lanes[1].submit(_gram, y)
    return fx.result(), fy.result()


answer = run_concurrently
