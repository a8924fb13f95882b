# expect: pass
# hint:
# Right: every batch's copy is queued up front (the prompt says copies queued further ahead
# pass); Event.wait(stream) for the GPU waits; an event recorded on the compute stream orders
# the copy back; the host waits one batch late.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    arrived = []
    with torch.cuda.stream(copy_stream):
        for batch in batches:
            x = batch.to(device, non_blocking=True)
            arrived.append((x, copy_stream.record_event()))
    last = None
    for i in range(len(batches)):
        x, copied = arrived[i]
        arrived[i] = None
        copied.wait(compute_stream)  # the compute stream waits on the GPU
        x.record_stream(compute_stream)
        y = compute(x)
        del x
        done = compute_stream.record_event()
        back_stream.wait_event(done)
        out = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            out.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        del y
        if last is not None:
            last[2].synchronize()
            consume(last[0], last[1])
        last = (i, out, landed)
    last[2].synchronize()
    consume(last[0], last[1])
