# expect: fail submits lambdas that close over the loop variable (late binding): a lane that runs the lambda after the loop moved on squares y, not x
# hint: x ?@ ?x|y ?@ ?y|value|closure|late|bind|wrong result|differ|expected
import torch


def run_concurrently(x, y, lanes):
    futures = []
    for lane, t in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: t @ t))  # t is looked up when the lambda runs
    return tuple(f.result() for f in futures)


answer = run_concurrently
