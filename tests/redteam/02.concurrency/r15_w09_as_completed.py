# expect: fail collects results with concurrent.futures.as_completed: completion order (can swap the pair), and not a lane future's result()
# hint: as_completed|concurrent\.futures|completion|order|swap|raised|error|exception|attributeerror|future|result\(\)
from concurrent.futures import as_completed

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
    results = [f.result() for f in as_completed(futures)]  # take each as soon as it is ready
    return results[0], results[1]


answer = run_concurrently
