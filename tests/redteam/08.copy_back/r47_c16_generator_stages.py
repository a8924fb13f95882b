# expect: pass a generator queues copies and computes (re-entering the captured current stream explicitly) and yields each result; the caller's loop copies back and consumes one result late
# hint:
import torch


def _computed(batches, compute, device, compute_stream):
    """Yield (i, compute(batch i)) as each compute is queued, batch i + 1's copy already queued."""
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device=device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        with torch.cuda.stream(compute_stream):  # the caller's current stream, named
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            event = compute_stream.record_event()
        yield i, y, event


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    back = torch.cuda.Stream(device)
    last = None
    for i, y, computed in _computed(batches, compute, device, compute_stream):
        if last is not None:
            j, buf, landed = last
            landed.synchronize()
            consume(j, buf)
        buf = buffers[i & 1]
        back.wait_event(computed)
        with torch.cuda.stream(back):
            y.record_stream(back)
            buf.copy_(y, non_blocking=True)
            last = (i, buf, back.record_event())
    j, buf, landed = last
    landed.synchronize()
    consume(j, buf)


answer = pipelined_to_host
