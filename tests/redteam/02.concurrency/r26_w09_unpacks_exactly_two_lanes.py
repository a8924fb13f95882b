# expect: pass unpacks the lanes as `lane_x, lane_y = lanes`: written as a wrong answer (a third lane in the list raises ValueError), judged right: the prompt gives two lanes, and the checker's three-lane case judges only where the products went, so an answer written for exactly two may raise there (as zip(..., strict=True) does)
# hint:
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    lane_x, lane_y = lanes
    fx = lane_x.submit(torch.matmul, x, x)
    fy = lane_y.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
