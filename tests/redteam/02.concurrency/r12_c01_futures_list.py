# expect: pass
# hint:
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y): x's product on lanes[0], y's on lanes[1]; launch both, then wait."""
    pending = [lane.submit(torch.matmul, m, m) for lane, m in zip(lanes[:2], (x, y))]
    return tuple(f.result() for f in pending)
