# expect: pass
# hint:
# name: run_concurrently
import functools
import operator


def run_concurrently(x, y, lanes):
    """operator.matmul on each lane, bound with functools.partial; launch both, then wait."""
    square_x = functools.partial(operator.matmul, x, x)
    square_y = functools.partial(operator.matmul, y, y)
    futures = (lanes[0].submit(square_x), lanes[1].submit(square_y))
    return futures[0].result(), futures[1].result()
