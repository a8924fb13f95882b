# expect: pass canonical pipeline plus torch.cuda.synchronize(device) after the last compute is queued (allowed by the prompt)
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
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x))
    torch.cuda.synchronize(device)  # results ready for the caller
    return results


answer = pipelined
