# expect: pass uses only one of the two pinned buffers: result i is copied into it once consume has returned for result i - 1
# hint:
import torch


def answer(batches, compute, device, buffers, consume):
    buffer = buffers[0]  # one is enough: the host reads result i - 1 before copy i is queued
    here = torch.cuda.current_stream(device)
    copies_in, copies_out = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def to_device(b):
        with torch.cuda.stream(copies_in):
            x = b.to(device, non_blocking=True)
        event = torch.cuda.Event()
        event.record(copies_in)
        return x, event

    nxt = to_device(batches[0])
    landed = None
    for i in range(len(batches)):
        x, event = nxt
        if i < len(batches) - 1:
            nxt = to_device(batches[i + 1])
        here.wait_event(event)
        x.record_stream(here)
        y = compute(x)
        if landed is not None:
            landed.synchronize()
            consume(i - 1, buffer)
        copies_out.wait_stream(here)
        y.record_stream(copies_out)
        with torch.cuda.stream(copies_out):
            buffer.copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record(copies_out)
    landed.synchronize()
    consume(len(batches) - 1, buffer)
