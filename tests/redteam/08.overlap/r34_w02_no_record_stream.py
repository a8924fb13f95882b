# expect: fail no record_stream and no references kept: x rebinds each batch, its memory can be reused by the next copy while compute still reads it
# hint: record_stream|reference
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
        compute_stream.wait_event(ev)
        results.append(compute(x))
    return results


answer = pipelined
