# expect: fail events kept in a mutable default argument, so later calls wait on the first call's old events (state between calls)
# hint: state|between calls|previous call|earlier call|mutable default|old event|wait_event|wait for (its|the) copy|before (its|the) copy|copy.*(landed|finished|ended)|stale|read.*before
import torch


def pipelined(batches, compute, device, _events=[]):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    tensors = []

    def prefetch(i):
        with torch.cuda.stream(copy_stream):
            tensors.append(batches[i].to(device, non_blocking=True))
            _events.append(copy_stream.record_event())

    results = []
    prefetch(0)
    for i in range(len(batches)):
        if i + 1 < len(batches):
            prefetch(i + 1)
        compute_stream.wait_event(_events[i])
        tensors[i].record_stream(compute_stream)
        results.append(compute(tensors[i]))
    return results


answer = pipelined
