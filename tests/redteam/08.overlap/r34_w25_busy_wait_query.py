# expect: fail the host polls ev.query() in a loop until the copy lands (a host wait per batch, just spelled differently)
# hint: host|query|wait_event|poll
import torch

def _send(b, copy_stream, device):
    with torch.cuda.stream(copy_stream):
        x = b.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record(copy_stream)
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
        for _ in range(10**6):  # wait until the copy has landed
            if ev.query():
                break
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
