# expect: fail a module-level list of futures is never cleared: every call waits on and keeps all earlier results
# hint: clear|global|pending|never (cleared|emptied)|grows|leak|keeps|between calls|list of futures
import torch

_pending = []  # futures launched and not yet collected


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    _pending.append(lanes[0].submit(torch.matmul, x, x))
    _pending.append(lanes[1].submit(torch.matmul, y, y))
    results = [future.result() for future in _pending]  # wait for everything in flight
    return results[-2], results[-1]


answer = run_concurrently
