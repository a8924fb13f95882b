# expect: pass operator.matmul submitted per lane from a dict of futures, results unpacked into a tuple
# hint:
import operator


def _square(a):
    return operator.matmul(a, a)


def run_concurrently(x, y, lanes):
    pending = {"xx": lanes[0].submit(_square, x), "yy": lanes[1].submit(_square, y)}
    done = {key: future.result() for key, future in pending.items()}
    return done["xx"], done["yy"]


answer = run_concurrently
