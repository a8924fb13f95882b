# expect: pass Launches both with a list comprehension over zip(lanes, inputs), then waits for each future in a second pass and returns a tuple.
# hint: 
# name: run_concurrently
import torch


def run_concurrently(x, y, lanes):
    if len(lanes) < 2:
        raise ValueError("run_concurrently needs two lanes")
    futures = [lane.submit(torch.matmul, m, m) for lane, m in zip(lanes[:2], (x, y))]
    return tuple(f.result() for f in futures)  # only now wait: both are in flight
