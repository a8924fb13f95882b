# expect: fail copy of batch i+1 queued at the end of the iteration, after the host waited for result i-1: copies no longer run ahead
# hint: ahead|(copy|copies) (of|to the device).{0,60}(before|during|while).{0,30}comput|overlap|prefetch|slow|serial|quarter|timeline|too long|host wait.{0,80}(copy|next batch)
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    n = len(batches)
    ahead = send(batches[0])
    pending = None  # (index, buffer, event after its copy back)
    for i in range(n):
        x, copied = ahead
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buffer, landed)
        if i + 1 < n:
            ahead = send(batches[i + 1])  # prefetch the next batch
    j, b, e = pending
    e.synchronize()
    consume(j, b)


answer = pipelined_to_host
