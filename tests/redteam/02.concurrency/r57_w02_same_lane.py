# expect: fail both products go to lanes[0] (lanes[1] never used), so they queue one after the other on one lane
# hint: lane|lanes\[1\]|same lane|one lane|concurren|sequence|one after|in turn|serial
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    lane = lanes[0]
    fx = lane.submit(torch.matmul, x, x)
    fy = lane.submit(torch.matmul, y, y)  # should have been lanes[1]
    return fx.result(), fy.result()


answer = run_concurrently
