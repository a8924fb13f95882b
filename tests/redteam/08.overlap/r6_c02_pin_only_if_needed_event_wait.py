# expect: pass
# hint:
import torch
def answer(batches, compute, device):
    """Pins only a batch that is not pinned (never the case here), Event.wait() with no argument
    outside the side block (so on the current stream), record_stream."""
    side = torch.cuda.Stream(device)
    def send(b):
        if not b.is_pinned():
            b = b.pin_memory()
        ev = torch.cuda.Event()
        with torch.cuda.stream(side):
            x = b.to(device, non_blocking=True)
            ev.record()
        return x, ev
    out, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        ev.wait()
        x.record_stream(torch.cuda.current_stream(device))
        out.append(compute(x))
    return out
