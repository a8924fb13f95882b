# expect: fail uses the lanes as context managers; leaving the with-block calls shutdown() on the caller's executors (a later submit raises), and a lane with only submit() and no __enter__ (CudaLane) raises TypeError
# hint: shutdown|shut down|context manager|__enter__|__exit__|clos|with.block|with statement
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    with lanes[0] as first, lanes[1] as second:
        fx = first.submit(torch.matmul, x, x)
        fy = second.submit(torch.matmul, y, y)
        # both are in flight here; leaving the block waits for both
    return fx.result(), fy.result()


answer = run_concurrently
