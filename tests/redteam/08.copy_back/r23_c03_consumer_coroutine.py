# expect: pass the one-late host side is a coroutine (generator.send) that holds the previous copy back and consumes it when the next arrives, on the caller's thread; GPU-side waits with wait_event on events from record_event
# hint:
import torch


def _lagging_consumer(consume):
    """Send (i, buffer, landed) after queueing copy back i: consumes copy back i - 1."""
    held = None
    while True:
        item = yield
        if held is not None:
            i, buf, landed = held
            landed.synchronize()
            consume(i, buf)
        held = item
        if item is None:
            return


def answer(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_in, copy_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    sink = _lagging_consumer(consume)
    next(sink)

    def stage(b):
        with torch.cuda.stream(copy_in):
            return b.to(device, non_blocking=True), copy_in.record_event()

    staged = stage(batches[0])
    for i in range(len(batches)):
        x, copied = staged
        if i + 1 < len(batches):
            staged = stage(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        copy_out.wait_event(computed)
        with torch.cuda.stream(copy_out):
            y.record_stream(copy_out)
            buffers[i % 2].copy_(y, non_blocking=True)
            landed = copy_out.record_event()
        # buffer i % 2 held result i - 2, consumed when copy back i - 1 was sent in
        sink.send((i, buffers[i % 2], landed))
    try:
        sink.send(None)  # the last one
    except StopIteration:
        pass
