# expect: fail x @ x computed in the caller's thread and handed to lanes[0] already done
# hint: caller|precomput|already (computed|done)|before submit|lanes\[0\]|first lane|outside the lane|in the lane
import torch


def _identity(t):
    return t


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    xx = x @ x  # launched right away; the lanes only hand the values back
    first = lanes[0].submit(_identity, xx)
    second = lanes[1].submit(torch.matmul, y, y)
    return first.result(), second.result()


answer = run_concurrently
