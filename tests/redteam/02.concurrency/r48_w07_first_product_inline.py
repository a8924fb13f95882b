# expect: fail only y @ y goes to a lane; x @ x runs on the caller while it is in flight ("the caller is a lane too"), lanes[0] is unused
# hint: lanes\[0\]|lane 0|first lane|not on|caller|unused|never (used|submitted)|x ?@ ?x
import torch


def run_concurrently(x, y, lanes):
    fy = lanes[1].submit(torch.matmul, y, y)  # in flight...
    xx = x @ x  # ...while this thread does the other one
    return xx, fy.result()


answer = run_concurrently
