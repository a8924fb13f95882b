# expect: fail Submits x @ x to lanes[1] and y @ y to lanes[0]; with two GPUs each product then runs on the lane of the other device (its inputs live elsewhere), not the lane the exercise assigns it.
# hint: lanes\[0\]|lanes\[1\]|lane|device|which|swap|order
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    fy = lanes[0].submit(torch.matmul, y, y)
    fx = lanes[1].submit(torch.matmul, x, x)
    return fx.result(), fy.result()
