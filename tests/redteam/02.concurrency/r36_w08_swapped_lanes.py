# expect: fail x @ x goes to lanes[1] and y @ y to lanes[0]: right values on CPU threads, but on two GPUs each product runs on the lane of the other device
# hint: lanes\[0\]|lanes\[1\]|swap|wrong lane|order|device|lane
import torch


def run_concurrently(x, y, lanes):
    second, first = lanes[0], lanes[1]
    fy = second.submit(torch.matmul, y, y)
    fx = first.submit(torch.matmul, x, x)
    return fx.result(), fy.result()


answer = run_concurrently
