# expect: pass submits the unbound dunder torch.Tensor.__rmatmul__ (m.__rmatmul__(m) is m @ m); futures kept in named locals, waited after both launches
# hint: 
import torch

_square = torch.Tensor.__rmatmul__


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    x_job = lanes[0].submit(_square, x, x)
    y_job = lanes[1].submit(_square, y, y)
    y_squared = y_job.result()
    x_squared = x_job.result()
    return x_squared, y_squared


answer = run_concurrently
