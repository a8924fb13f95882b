# expect: fail switches streams with torch.cuda.set_stream and 'goes back' to the default stream, not the caller's current stream: the caller's stream is changed after return and the computes run on the default stream
# hint: current stream|set_stream|default|restore|caller
import torch

def pipelined(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    results = []

    def send(b):
        torch.cuda.set_stream(copy_stream)
        x = b.to(device, non_blocking=True)
        ev = torch.cuda.Event()
        ev.record()
        torch.cuda.set_stream(torch.cuda.default_stream(device))  # back to normal
        return x, ev

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        cur = torch.cuda.current_stream(device)
        cur.wait_event(ev)
        x.record_stream(cur)
        results.append(compute(x))
    return results


answer = pipelined
