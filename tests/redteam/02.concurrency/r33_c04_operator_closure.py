# expect: pass operator.matmul submitted with no-arg closures bound through functools.partial
# hint:
import functools
import operator


def run_concurrently(x, y, lanes):
    jobs = {
        "xx": lanes[0].submit(functools.partial(operator.matmul, x, x)),
        "yy": lanes[1].submit(functools.partial(operator.matmul, y, y)),
    }
    done = {k: f.result() for k, f in jobs.items()}
    return done["xx"], done["yy"]


answer = run_concurrently
