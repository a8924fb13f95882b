# expect: pass a generator function yields the two futures; tuple() drains it, so both products are launched before the first result() is read, and the results come back in x, y order
# hint: 
import operator


def _launch(x, y, lanes):
    yield lanes[0].submit(operator.matmul, x, x)
    yield lanes[1].submit(operator.matmul, y, y)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = tuple(_launch(x, y, lanes))  # both in flight from here
    return tuple(f.result() for f in futures)


answer = run_concurrently
