# expect: fail puts y @ y on lanes[-1] instead of lanes[1]: the same with two lanes, the wrong lane when more are given
# hint: lanes\[1\]|lane 1|second lane|wrong lane|lanes\[-1\]|last lane|which lane
import torch


def run_concurrently(x, y, lanes):
    first, last = lanes[0], lanes[-1]  # "the other lane"
    fx = first.submit(torch.matmul, x, x)
    fy = last.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
