# expect: fail Submits both products to lanes[0] (launching both before waiting), so they queue on one lane and run one after the other; lanes[1] is never used.
# hint: lanes\[1\]|lane|both|same|second|one after|concurren
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    lane = lanes[0]
    fx = lane.submit(torch.matmul, x, x)
    fy = lane.submit(torch.matmul, y, y)
    return fx.result(), fy.result()
