# expect: fail ignores the lanes given and runs both products on its own ThreadPoolExecutor
# hint: given lanes|lanes (you were |it was )?given|own (pool|executor|thread)|threadpoolexecutor|not (on|through|via|to) the lanes|lanes? (were|was) (never |not )?used|unused|no (work|submit)|never submitted|nothing (was )?submitted|outside|ignor
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed at the same time."""
    with ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()


answer = run_concurrently
