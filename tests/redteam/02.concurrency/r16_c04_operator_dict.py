# expect: pass operator.matmul with a dict of named futures, waited in reverse order
# hint: 
import operator


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = {
        "xx": lanes[0].submit(operator.matmul, x, x),
        "yy": lanes[1].submit(operator.matmul, y, y),
    }
    done = {name: futures[name].result() for name in ("yy", "xx")}  # order of waits is free
    return done["xx"], done["yy"]


answer = run_concurrently
