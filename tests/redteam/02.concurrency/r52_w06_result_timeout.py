# expect: fail calls future.result(timeout=...): works for ThreadPoolExecutor, but a lane's future (CudaFuture) has result() with no arguments
# hint: timeout|result\(\)|argument|TypeError|future|interface
import torch

TIMEOUT_S = 600  # never hang the notebook forever


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(timeout=TIMEOUT_S), fy.result(timeout=TIMEOUT_S)


answer = run_concurrently
