# expect: fail pops each host batch off the caller's list once its copy is queued, to free host memory as it goes: the caller's `batches` is empty after the call (its input changed), which the prompt never allows
# hint: pop|empt|mutat|modif|caller.?s (list|batches)|input (list|changed)|in place
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send():
        b = batches.pop(0)  # the host copy is no longer needed once its copy is queued
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send()
    while ahead is not None:
        x, landed = ahead
        ahead = send() if batches else None
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
