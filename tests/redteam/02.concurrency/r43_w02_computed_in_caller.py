# expect: fail Computes x @ x and y @ y in the caller's thread and only hands the finished tensors to the lanes, so the lanes run nothing and the products run one after the other on the caller.
# hint: lane|caller|submit|in flight|thread|compute.*lane|outside
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    xx, yy = x @ x, y @ y  # the work, done here
    fx = lanes[0].submit(lambda t: t, xx)
    fy = lanes[1].submit(lambda t: t, yy)
    return fx.result(), fy.result()
