# expect: fail takes a future's .value when it has one (CudaFuture: the tensor whose work is queued) instead of calling result(): on GPU lanes nothing waits for the lanes' events, so the caller gets tensors still being written on the lanes' streams (its own stream is not ordered after them); only thread lanes are waited for
# hint: \.value|value attribute|never wait|without (a )?wait|no wait|result\(\)|event|stream|not (yet )?(done|finished|ready)|race|unsynchron
import torch


def _take(future):
    # A CudaFuture already holds the tensor (its work is queued on the GPU): no need to
    # block the host for it. A thread's future has no .value: wait for that one.
    value = getattr(future, "value", None)
    return value if isinstance(value, torch.Tensor) else future.result()


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return _take(fx), _take(fy)


answer = run_concurrently
