# expect: pass copies kept two batches ahead in a deque fed from an iterator; torch.cuda.Event objects recorded on the copy stream and waited on by the compute stream; record_stream for each device batch
# hint: 
import collections
import itertools

import torch

DEPTH = 2  # copies in flight ahead of the compute


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    queued = collections.deque()
    source = iter(batches)

    def enqueue(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        event = torch.cuda.Event()
        event.record(copy_stream)
        queued.append((x, event))

    for b in itertools.islice(source, DEPTH):
        enqueue(b)
    results = []
    while queued:
        x, event = queued.popleft()
        following = next(source, None)
        if following is not None:
            enqueue(following)
        event.wait(compute_stream)  # the GPU waits for this batch's copy, the host does not
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
