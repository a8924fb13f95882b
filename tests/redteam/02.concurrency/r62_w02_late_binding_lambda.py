# expect: fail submits `lambda: t @ t` in a loop: the closure binds t late, so a lane that starts its work after the loop has moved on computes y @ y for x (right only when the lane runs fn at once)
# hint: closure|late|lambda|binding|wrong (result|value|product)|y ?@ ?y|x ?@ ?x|mismatch|differ
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = []
    for lane, t in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: t @ t))  # t is looked up when the lane runs it
    return tuple(f.result() for f in futures)


answer = run_concurrently
