# expect: pass two comprehensions over zip(lanes, inputs): a list of futures first (eager), then their results
# hint:
import torch


def run_concurrently(x, y, lanes):
    futures = [lane.submit(torch.matmul, t, t) for lane, t in zip(lanes[:2], (x, y))]  # both launched
    return [future.result() for future in futures]  # then both awaited


answer = run_concurrently
