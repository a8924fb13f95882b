# expect: fail ignores the given lanes and runs both products on a ThreadPoolExecutor of its own (two threads on the caller's device)
# hint: lane|own (pool|executor|threads)|ThreadPoolExecutor|not (on|the) (given|lanes)
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    with ThreadPoolExecutor(max_workers=2) as pool:  # a known-good concurrency primitive
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()


answer = run_concurrently
