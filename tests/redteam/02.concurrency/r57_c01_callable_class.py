# expect: pass a class instance with __call__: launch on both lanes, then wait for both
# hint:
import torch


class ConcurrentSquares:
    """Callable: (x @ x, y @ y), the first on lanes[0], the second on lanes[1], at once."""

    def __call__(self, x, y, lanes):
        first, second = lanes[0], lanes[1]
        pending_x = first.submit(torch.matmul, x, x)  # returns at once
        pending_y = second.submit(torch.matmul, y, y)  # both in flight now
        return pending_x.result(), pending_y.result()


run_concurrently = ConcurrentSquares()

answer = run_concurrently
