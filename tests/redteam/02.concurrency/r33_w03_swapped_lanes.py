# expect: fail puts x @ x on lanes[1] and y @ y on lanes[0], the lanes swapped
# hint: lanes\[0\]|lanes\[1\]|lane|swap|wrong lane
import torch


def run_concurrently(x, y, lanes):
    fy = lanes[0].submit(torch.matmul, y, y)
    fx = lanes[1].submit(torch.matmul, x, x)
    return fx.result(), fy.result()


answer = run_concurrently
