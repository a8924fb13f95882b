# expect: fail ignores the lanes passed in and runs both products on a ThreadPoolExecutor of its own
# hint: own (thread )?(pool|executor|lanes?)|ThreadPoolExecutor|new (thread )?(pool|executor)|ignor.{0,30}lanes|lanes (passed|given)|given lanes|not (use|using) (the )?lanes|lanes (are )?(never|not) used|nothing was submitted to the lanes
# name: run_concurrently
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), both in flight at once."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()
