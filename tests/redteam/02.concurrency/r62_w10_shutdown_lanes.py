# expect: fail shuts the lanes down after collecting the results ("clean up"): the caller's lanes are unusable afterwards, so a second call (the benchmark) cannot submit
# hint: shut ?down|close|clean|reus|second call|again|cannot schedule|lane.*(unusable|closed|dead)|repeat
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    xx, yy = fx.result(), fy.result()
    for lane in lanes[:2]:
        shutdown = getattr(lane, "shutdown", None)
        if shutdown is not None:  # free the lane's worker thread
            shutdown(wait=False)
    return xx, yy


answer = run_concurrently
