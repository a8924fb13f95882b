# expect: pass a class with __call__: submits one product per lane in a loop, keeps the futures, then collects them in a second loop
# hint:
import torch


class ConcurrentSquares:
    """Callable: (x @ x, y @ y), the i-th input squared on lanes[i], all launched before any wait."""

    def __init__(self, product=torch.matmul):
        self.product = product

    def __call__(self, x, y, lanes):
        pending = []
        for lane, t in zip(lanes, (x, y)):  # launch everything ...
            pending.append(lane.submit(self.product, t, t))
        return tuple(future.result() for future in pending)  # ... then wait for everything


run_concurrently = ConcurrentSquares()
answer = run_concurrently
