# expect: fail takes its two lanes with lanes.pop(0): it mutates the caller's list, so the caller loses both lanes (a second call raises IndexError, and the caller can no longer shut them down)
# hint: pop|mutat|modif|side.?effect|caller'?s list|lanes list|remov|IndexError
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    first = lanes.pop(0)
    second = lanes.pop(0)  # what was lanes[1]
    fx = first.submit(torch.matmul, x, x)
    fy = second.submit(torch.matmul, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
