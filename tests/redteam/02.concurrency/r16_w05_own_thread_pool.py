# expect: fail ignores the lanes and runs both products on its own thread pool
# hint: lanes|own (pool|thread)|threadpoolexecutor|ignore|not the lanes|given lanes|current stream
from concurrent.futures import ThreadPoolExecutor

import torch

_pool = ThreadPoolExecutor(2)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # two threads: both products in flight at once
    fx = _pool.submit(torch.matmul, x, x)
    fy = _pool.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
