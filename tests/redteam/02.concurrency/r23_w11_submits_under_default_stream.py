# expect: fail submits under torch.cuda.default_stream(): CudaLane then makes its stream wait for the default stream, not the caller's current stream where x and y were made, so with a non-default current stream the products can read the inputs before they are written
# hint: default stream|current stream|wait_stream|stream|race|not ready
import contextlib

import torch


def _on_default_stream(t):
    if t.is_cuda:
        # launch from the default stream, where PyTorch normally works
        return torch.cuda.stream(torch.cuda.default_stream(t.device))
    return contextlib.nullcontext()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    with _on_default_stream(x):
        fx = lanes[0].submit(torch.matmul, x, x)
    with _on_default_stream(y):
        fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
