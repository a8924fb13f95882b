# expect: fail copies each result back with y.to('cpu', non_blocking=True), into new pinned memory per result as section 8.8 does, and copies that into the given buffer on the host only after the sync: pinned memory beyond the two buffers, and an extra host copy
# hint: buffer|new pinned|pinned memory|to\(.cpu|\.cpu|allocat|extra copy|host copy
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def send_back(i, y):
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        y.record_stream(back_stream)
        with torch.cuda.stream(back_stream):
            on_host = y.to("cpu", non_blocking=True)  # pinned, returns at once
            landed = back_stream.record_event()
        return i, on_host, landed

    pending = None
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:  # compute i is queued: now the host may wait for result i - 1
            j, on_host, landed = pending
            landed.synchronize()
            buffers[j % 2].copy_(on_host)
            consume(j, buffers[j % 2])
        pending = send_back(i, y)
    j, on_host, landed = pending
    landed.synchronize()
    buffers[j % 2].copy_(on_host)
    consume(j, buffers[j % 2])


answer = pipelined_to_host
