# expect: pass a loop over (lane, tensor) pairs submitting a module-level helper (torch.mm for 2-D, torch.matmul otherwise), then a second loop of waits
# hint:
import torch


def _square(m):
    return torch.mm(m, m) if m.dim() == 2 else torch.matmul(m, m)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    launched = []
    for lane, m in ((lanes[0], x), (lanes[1], y)):
        launched.append(lane.submit(_square, m))  # the tensor goes as an argument: bound now
    xx, yy = (f.result() for f in launched)
    return xx, yy


answer = run_concurrently
