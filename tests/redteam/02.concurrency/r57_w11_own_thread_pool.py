# expect: fail ignores the lanes it is given and runs both products on a thread pool of its own (on a GPU both then queue on the same current stream)
# hint: lane|given|ignor|own|pool|executor|thread|stream|device|submit
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()


answer = run_concurrently
