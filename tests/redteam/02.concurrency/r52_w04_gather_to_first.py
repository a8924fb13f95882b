# expect: fail moves y @ y to x's device before returning ("so both results are together"): a copy between devices the prompt says not to make
# hint: transfer|copy|\.to\(|device|where the lanes|host|cpu
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    return xx, yy.to(xx.device)  # a no-op on one device, a transfer with two GPUs


answer = run_concurrently
