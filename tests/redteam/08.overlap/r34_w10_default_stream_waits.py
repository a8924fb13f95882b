# expect: fail the default stream waits and the computes are recorded for the default stream, although the current stream is another (caller inside torch.cuda.stream(s))
# hint: current_stream|default|current stream
import torch

def _send(batch, stream, device):
    with torch.cuda.stream(stream):
        x = batch.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record(stream)
    return x, ev


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    ahead = _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
