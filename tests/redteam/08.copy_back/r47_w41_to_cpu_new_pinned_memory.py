# expect: fail copies each result back with y.to('cpu', non_blocking=True) into new pinned memory, then copies that into the buffer on the host
# hint: buffer|pinned|new (pinned )?memory|into one of|to\(.?cpu|\.cpu|device.{0,30}buffer|allocat
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    """consume(i, a buffer holding compute(batch i)) for each batch in order; copies to the
    device, computes and copies back to the host overlap."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    pending = None  # (index, buffer, event after its copy back)
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        if pending is not None:  # compute i is queued: now the host may wait for result i - 1
            j, buf, landed, y_host = pending
            landed.synchronize()
            buf.copy_(y_host)  # host to host, into the caller's buffer
            consume(j, buf)
        buf = buffers[i % 2]  # free: its last result, i - 2, was consumed
        back_stream.wait_event(computed)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            y_host = y.to("cpu", non_blocking=True)  # pinned, returns at once
            pending = (i, buf, back_stream.record_event(), y_host)
    j, buf, landed, y_host = pending
    landed.synchronize()
    buf.copy_(y_host)
    consume(j, buf)


answer = pipelined_to_host
