# expect: fail shuts the caller's lanes down after use (ThreadPoolExecutor.shutdown), leaving them unusable for the next call
# hint: shutdown
import torch


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    out = fx.result(), fy.result()
    for lane in lanes:
        if hasattr(lane, "shutdown"):
            lane.shutdown(wait=True)  # clean up the threads
    return out


answer = run_concurrently
