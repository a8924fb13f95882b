# expect: fail x @ x goes to lanes[1] and y @ y to lanes[0] (submitted in the order of the returned tuple, reversed by a slip)
# hint: lanes\[0\]|lanes\[1\]|wrong lane|swap|which lane|lane 0|lane 1|first lane|second lane
import torch


def run_concurrently(x, y, lanes):
    lane_y, lane_x = lanes[0], lanes[1]
    fx = lane_x.submit(torch.matmul, x, x)
    fy = lane_y.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
