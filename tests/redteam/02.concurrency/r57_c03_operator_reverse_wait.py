# expect: pass operator.matmul on the lanes, waiting for the second lane's result before the first's
# hint:
# name: run_concurrently
import operator


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    on_x, on_y = lanes[0], lanes[1]
    fut_x = on_x.submit(operator.matmul, x, x)
    fut_y = on_y.submit(operator.matmul, y, y)
    # both are queued; the order of the waits does not matter
    yy = fut_y.result()
    xx = fut_x.result()
    return xx, yy
