# expect: fail copies both results back to the host with .cpu() instead of returning them where the lanes left them
# hint: \.cpu\(\)|cop(y|ied|ies|ying) back|back to the host|to the host|host memory|\.to\(.?cpu
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): launch both, wait for both, hand back ordinary CPU tensors."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result().cpu(), fy.result().cpu()
