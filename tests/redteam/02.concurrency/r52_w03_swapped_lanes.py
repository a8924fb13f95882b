# expect: fail x @ x goes to lanes[1] and y @ y to lanes[0] (zip over reversed lanes)
# hint: lanes?\[0\]|lanes?\[1\]|lane|swap|wrong (lane|device|gpu)
import torch


def run_concurrently(x, y, lanes):
    # "the last lane gets the first job" - launch in reverse so the first one queued finishes first
    futures = [lane.submit(torch.matmul, t, t) for lane, t in zip(reversed(lanes[:2]), (x, y))]
    return [f.result() for f in futures]


answer = run_concurrently
