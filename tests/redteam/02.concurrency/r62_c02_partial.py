# expect: pass functools.partial over a general helper (inputs and op as keywords), jobs submitted as zero-argument partials, results returned as a list
# hint:
import functools
import operator


def _on_lanes(x, y, lanes, op=operator.matmul):
    jobs = [functools.partial(op, x, x), functools.partial(op, y, y)]
    futures = [lanes[i].submit(job) for i, job in enumerate(jobs)]  # both in flight
    return [f.result() for f in futures]


run_concurrently = functools.partial(_on_lanes, op=operator.matmul)
answer = run_concurrently
