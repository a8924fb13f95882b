# expect: fail keeps references in a local list instead of record_stream but returns without making the copy stream wait for the compute stream: the list dies at return while computes may still run
# hint: record_stream|wait_stream|reference|return
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
    keep = []
    ahead = _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
        compute_stream.wait_event(ev)
        keep.append(x)
        results.append(compute(x))
    return results


answer = pipelined
