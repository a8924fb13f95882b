# expect: fail both products are computed in the caller's thread, and the lanes are only handed the finished tensors to return
# hint: caller|lane|submit|not on the lane|own thread|in the function|outside
import torch


def _give(value):
    return value


def run_concurrently(x, y, lanes):
    xx, yy = x @ x, y @ y
    fx = lanes[0].submit(_give, xx)
    fy = lanes[1].submit(_give, yy)
    return fx.result(), fy.result()


answer = run_concurrently
