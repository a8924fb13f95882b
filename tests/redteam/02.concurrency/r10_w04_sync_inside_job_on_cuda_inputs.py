# expect: fail synchronizes inside the function given to each lane
# hint: calls torch.cuda.synchronize\(\).*x, y were on cuda:0, cuda:1
import torch


def _square_and_wait(m):
    out = m @ m
    if m.device.type == "cuda":
        torch.cuda.synchronize(m.device)  # make sure the product is really done
    return out


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square_and_wait, x)
    fy = lanes[1].submit(_square_and_wait, y)
    return fx.result(), fy.result()


answer = run_concurrently
