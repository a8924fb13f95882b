# expect: pass functools.partial over a pipeline with an option; batch 0 copied on the current stream, the rest on a side stream; compute_stream.wait_stream(copy_stream) (placed before the next copy is queued) instead of events
# hint:
import functools

import torch


def _pipeline(batches, compute, device, *, first_on_current_stream):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def copy(batch, side):
        if side:
            with torch.cuda.stream(copy_stream):
                return batch.to(device, non_blocking=True), True
        return batch.to(device, non_blocking=True), False

    ahead = copy(batches[0], side=not first_on_current_stream)
    results = []
    for i in range(len(batches)):
        x, on_side = ahead
        if on_side:
            # copy i is the last thing on copy_stream: wait for it before queuing copy i + 1,
            # so that this wait does not cover the next copy too
            compute_stream.wait_stream(copy_stream)
            x.record_stream(compute_stream)
        if i + 1 < len(batches):
            ahead = copy(batches[i + 1], side=True)
        results.append(compute(x))
    return results


pipelined = functools.partial(_pipeline, first_on_current_stream=True)
answer = pipelined
