# expect: fail event the host waits on is recorded on the compute stream, not after the copy back: consume reads before the copy landed
# hint: host.{0,40}(read|consum)|consum.{0,60}(before|land)|land.{0,40}(consum|read)|before (a|the) sync|event.{0,60}(after|behind) the cop(y|ies)|record.{0,40}(back|to-host|d2h) stream
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
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
        landed = compute_stream.record_event()  # marks result i as done
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buffer, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)


answer = pipelined_to_host
