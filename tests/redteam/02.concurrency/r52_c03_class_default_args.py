# expect: pass a callable class; the lane functions are lambdas binding their input through a default argument
# hint:
import torch


class ConcurrentSquares:
    """Launch every (lane, input) pair, then collect: the products overlap."""

    def __call__(self, x, y, lanes):
        launched = []
        for lane, t in ((lanes[0], x), (lanes[1], y)):
            launched.append(lane.submit(lambda m=t: torch.matmul(m, m)))  # m bound now, not later
        xx, yy = (f.result() for f in launched)  # launched is a full list: both already in flight
        return xx, yy


run_concurrently = ConcurrentSquares()
answer = run_concurrently
