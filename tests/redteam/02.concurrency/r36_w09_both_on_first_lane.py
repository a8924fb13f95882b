# expect: fail submits both products to lanes[0] before waiting: both in flight on paper, but one lane runs them one after the other
# hint: lanes\[1\]|same lane|one lane|second lane|both lanes|sequen
import torch


def run_concurrently(x, y, lanes):
    lane = lanes[0]
    fx = lane.submit(torch.matmul, x, x)
    fy = lane.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
