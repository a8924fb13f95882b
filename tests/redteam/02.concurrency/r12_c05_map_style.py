# expect: pass
# hint:
# name: run_concurrently
import torch


def _launch(lane, m):
    return lane.submit(torch.matmul, m, m)


def run_concurrently(x, y, lanes):
    """map() launches both (eagerly, into a list) before any result is read."""
    futures = list(map(_launch, (lanes[0], lanes[1]), (x, y)))
    xx, yy = [f.result() for f in futures]
    return xx, yy
