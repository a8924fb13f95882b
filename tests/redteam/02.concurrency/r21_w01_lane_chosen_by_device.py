# expect: fail picks each product's lane by matching the tensor's device: with two lanes on one device (two streams, or two CPU threads) both products go to lanes[0] and run one after the other
# hint: same lane|lanes\[1\]|one lane|device|both on|second lane|match
import torch


def _lane_for(t, lanes):
    for lane in lanes:
        if torch.device(getattr(lane, "device", "cpu")) == t.device:
            return lane
    return lanes[0]


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = _lane_for(x, lanes).submit(torch.matmul, x, x)
    fy = _lane_for(y, lanes).submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
