# expect: fail ignores the lanes it is given and runs both products on a thread pool of its own (on a GPU, both go on the threads' default streams, not the lanes' devices and streams)
# hint: lane|given|ThreadPool|own thread|thread pool|lanes\[
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    with ThreadPoolExecutor(max_workers=2) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()


answer = run_concurrently
