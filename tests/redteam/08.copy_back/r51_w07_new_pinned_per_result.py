# expect: fail each result goes back with y.to("cpu", non_blocking=True) into new pinned memory, then the host copies it into a buffer: not into one of the given buffers, and pinned memory per result
# hint: new pinned|pinned memory|allocat|one of (the|them|the buffers)|into (a|the) buffer|to\(.?cpu|\.cpu|buffers?
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def receive(pending):
        j, on_host, landed = pending
        landed.synchronize()
        buf = buffers[j % 2]
        buf.copy_(on_host)  # a host-to-host copy of pinned memory: the copy back has landed
        consume(j, buf)

    n = len(batches)
    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            receive(pending)
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            on_host = y.to("cpu", non_blocking=True)  # pinned, filled by the copy engine
            pending = (i, on_host, back_stream.record_event())
    receive(pending)


answer = pipelined_to_host
