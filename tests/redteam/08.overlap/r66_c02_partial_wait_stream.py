# expect: pass
# hint:
# Right: a functools.partial (binding the side stream's priority) over a pipeline that orders
# each compute with wait_stream, issued before the next copy is queued, so it covers copy i only.
import functools

import torch


def _pipelined(batches, compute, device, *, priority):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device, priority=priority)
    with torch.cuda.stream(copy_stream):
        x_next = batches[0].to(device, non_blocking=True)
    results = []
    for i in range(len(batches)):
        x = x_next
        compute_stream.wait_stream(copy_stream)  # the GPU waits for copy i (nothing later yet)
        if i + 1 < len(batches):
            with torch.cuda.stream(copy_stream):
                x_next = batches[i + 1].to(device, non_blocking=True)  # runs during compute i
        x.record_stream(compute_stream)  # x came from copy_stream's pool
        results.append(compute(x))
    return results


answer = functools.partial(_pipelined, priority=-1)
