# expect: fail submits with keyword arguments (submit(torch.matmul, input=x, other=x)): ThreadPoolExecutor.submit forwards **kwargs, but a lane's contract is submit(fn, *args) and CudaLane.submit takes no keywords, so on GPU lanes it raises TypeError
# hint: keyword|kwargs|\*\*|input=|other=|\*args|positional|TypeError|CudaLane|signature|contract
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, input=x, other=x)  # named, to be explicit
    fy = lanes[1].submit(torch.matmul, input=y, other=y)
    return fx.result(), fy.result()


answer = run_concurrently
