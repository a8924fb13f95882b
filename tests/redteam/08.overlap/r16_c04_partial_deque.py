# expect: pass functools.partial stage function and a deque as the one-batch lookahead
# hint: 
from collections import deque
from functools import partial

import torch


def _stage(batch, *, stream, device):
    with torch.cuda.stream(stream):
        return batch.to(device, non_blocking=True), stream.record_event()


def _run(x, ready, *, stream, compute):
    stream.wait_event(ready)
    x.record_stream(stream)
    return compute(x)


def answer(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    stage = partial(_stage, stream=torch.cuda.Stream(device), device=device)
    run = partial(_run, stream=torch.cuda.current_stream(device), compute=compute)
    window, results = deque(), []
    for b in batches:
        window.append(stage(b))
        if len(window) == 2:  # batch i + 1's copy is queued: now compute i
            results.append(run(*window.popleft()))
    while window:
        results.append(run(*window.popleft()))
    return results
