# expect: fail returns torch.stack of the two results: an extra copy of both products onto one tensor and one device, and it breaks when x and y differ in shape or live on different devices
# hint: stack|copy|extra|shape|size|device|single tensor|one tensor|where the lanes
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return torch.stack([fx.result(), fy.result()])  # both results in one tensor


answer = run_concurrently
