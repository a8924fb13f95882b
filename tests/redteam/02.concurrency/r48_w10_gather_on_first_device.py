# expect: fail moves y @ y to x @ x's device before returning ("one device for the caller"): a GPU-to-GPU copy on two GPUs, not where the lane left it
# hint: transfer|cop(y|ied)|device|where the lanes?|moved|\.to\(|gpu ?1|cuda:1
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx = fx.result()
    yy = fy.result().to(xx.device)  # a no-op on one device; a copy between GPUs on two
    return xx, yy


answer = run_concurrently
