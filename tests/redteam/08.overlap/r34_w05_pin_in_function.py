# expect: fail calls pin_memory() on each batch 'to be safe' before the copy
# hint: pin_memory
import torch

def _send(batch, stream, device):
    with torch.cuda.stream(stream):
        x = batch.pin_memory().to(device, non_blocking=True)
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
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
