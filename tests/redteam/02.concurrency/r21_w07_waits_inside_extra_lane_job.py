# expect: fail after launching both it submits a third job to lanes[1] that calls fx.result() and fy.result(): waiting inside a function given to a lane, which the prompt forbids; it occupies lanes[1] (on a CUDA lane the wait runs in submit, on a thread lane it ties up the worker)
# hint: lane|wait|inside|submit|result\(\)|caller|nested
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    both = lanes[1].submit(lambda: (fx.result(), fy.result()))  # collect on the lane
    return both.result()


answer = run_concurrently
