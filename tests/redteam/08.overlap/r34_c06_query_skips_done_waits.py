# expect: pass asks ev.query() (non-blocking) and only queues a GPU wait when the copy has not landed yet; host never blocks
# hint: 
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
        if not ev.query():  # non-blocking: has the copy landed already?
            compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
