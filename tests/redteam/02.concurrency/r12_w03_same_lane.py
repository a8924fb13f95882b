# expect: fail submits both products to lanes[0], so they queue on one lane (one stream or one device) and lanes[1] is never used
# hint: same lane|one lane|single lane|second lane|lanes\[1\] (is |was )?(never|not|unused)|both (products )?(on|to) lanes\[0\]|unused lane|same stream|one stream|both products went to lanes\[0\]
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): launch both, then wait for both."""
    lane = lanes[0]
    fx = lane.submit(torch.matmul, x, x)
    fy = lane.submit(torch.matmul, y, y)
    return fx.result(), fy.result()
