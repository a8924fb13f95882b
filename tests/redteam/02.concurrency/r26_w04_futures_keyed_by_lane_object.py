# expect: fail keeps the futures in a dict keyed by the lane object: when lanes[0] and lanes[1] are the same object (one pool with two workers, passed twice), y's future replaces x's and the answer returns (y @ y, y @ y)
# hint: same (lane|object|pool)|lane object|keyed|key|dict|twice|identical|overwr|replac|hash|collide
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    lanes = lanes[:2]
    in_flight = {
        lane: lane.submit(torch.matmul, m, m) for lane, m in zip(lanes, (x, y), strict=True)
    }
    xx, yy = (in_flight[lane].result() for lane in lanes)
    return xx, yy


answer = run_concurrently
