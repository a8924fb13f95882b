# expect: pass functools.partial binds each lane's submit to torch.mm; map over the futures
# hint: 
import functools

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    square_on = [functools.partial(lane.submit, torch.mm) for lane in lanes[:2]]
    pending = [launch(t, t) for launch, t in zip(square_on, (x, y))]  # both in flight
    return tuple(map(lambda future: future.result(), pending))


answer = run_concurrently
