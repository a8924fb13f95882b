# expect: fail collects the results with concurrent.futures.as_completed, in finishing order: the pair can come back swapped (and a CudaFuture is not a concurrent.futures.Future)
# hint: order|swap|as_completed|finish|complet|x ?@ ?x|y ?@ ?y|wrong (value|result|product)|differ|not (equal|close)|mismatch
from concurrent.futures import as_completed

import torch


def run_concurrently(x, y, lanes):
    futures = [lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.matmul, y, y)]
    return tuple(f.result() for f in as_completed(futures))  # whichever is done first


answer = run_concurrently
