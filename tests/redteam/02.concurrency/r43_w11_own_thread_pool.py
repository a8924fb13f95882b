# expect: fail Ignores the given lanes and runs both products on a ThreadPoolExecutor of its own; on a GPU machine that is not the lanes' devices or streams, and the checker's lanes never see the work.
# hint: lane|submit|given|ThreadPool|executor|own
# name: run_concurrently
from concurrent.futures import ThreadPoolExecutor

import torch


def run_concurrently(x, y, lanes):
    with ThreadPoolExecutor(max_workers=2) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()
