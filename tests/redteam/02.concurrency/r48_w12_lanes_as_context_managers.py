# expect: fail uses the lanes as context managers, as the executor docs do: leaving the with-block shuts the caller's lanes down (and a CudaLane has no __enter__)
# hint: shut ?down|closed|context manager|with-?block|__enter__|unusable|second call|cannot schedule
import torch


def run_concurrently(x, y, lanes):
    with lanes[0] as a, lanes[1] as b:
        fx = a.submit(torch.matmul, x, x)
        fy = b.submit(torch.matmul, y, y)
        return fx.result(), fy.result()


answer = run_concurrently
