# expect: fail only y @ y goes to a lane; x @ x is computed on the calling thread while lane 1 works
# hint: lanes?\W*0|first lane|not on (a|the|any) lane|no lane|caller|calling thread|host thread|main thread|outside|off the lane|submitted? (only )?(once|one)|one submi|ran (here|on the host)
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fy = lanes[1].submit(torch.matmul, y, y)  # lane 1 works on y @ y ...
    xx = x @ x  # ... while this thread does x @ x: both in flight at once
    return xx, fy.result()


answer = run_concurrently
