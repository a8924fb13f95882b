# expect: fail uses lanes[-1] for y @ y: the same as lanes[1] only when exactly two lanes are given
# hint: lanes?\[1\]|lanes?\[-1\]|second lane|last lane|lane|three|more than two
import torch


def run_concurrently(x, y, lanes):
    first, last = lanes[0], lanes[-1]
    fx = first.submit(torch.matmul, x, x)
    fy = last.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
