# expect: fail prints the buffer on the host right after queuing its non-blocking copy back (a debug print that reads the pinned buffer before the copy landed); consume is right.
# hint: the\ host\ read\ a\ buffer\ while\ the\ copy\ of\ result\ 0\ into\ it\ may\ still\ run\ \(outside\ consume
# name: pipelined_to_host

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = None  # (i, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        print('result', i, 'head', buf.flatten()[:2].tolist())
        if pending is not None:
            j, pbuf, pev = pending
            pev.synchronize()
            consume(j, pbuf)
        pending = (i, buf, landed)
    j, pbuf, pev = pending
    pev.synchronize()
    consume(j, pbuf)
