# expect: fail moves y @ y onto x's device before returning, "so both results are in one place": on two GPUs that is a GPU-to-GPU transfer the prompt does not ask for (the results belong where the lanes left them); a no-op on CPU lanes
# hint: device|transfer|copy|mov|\.to\(|where the lanes|gpu ?1|cuda:1|other gpu
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx = fx.result()
    yy = fy.result().to(xx.device)  # both results on one device for the caller
    return xx, yy


answer = run_concurrently
