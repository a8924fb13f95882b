# expect: fail wait_stream in the wrong direction: copy_stream.wait_stream(compute_stream) instead of the compute stream waiting for the copy
# hint: wait|direction|compute stream
import torch

def _send(batch, stream, device):
    with torch.cuda.stream(stream):
        x = batch.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record(stream)
    return x, ev


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    ahead = _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
        copy_stream.wait_stream(compute_stream)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
