# expect: fail ignores the lanes and makes its own ThreadPoolExecutor
# hint: lanes|given|own|ThreadPool|executor|submit
import torch
from concurrent.futures import ThreadPoolExecutor
def answer(x, y, lanes):
    with ThreadPoolExecutor(2) as pool:
        fx = pool.submit(torch.matmul, x, x)
        fy = pool.submit(torch.matmul, y, y)
        return fx.result(), fy.result()
