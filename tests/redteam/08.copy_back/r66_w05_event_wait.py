# expect: fail Event.wait() used to "wait" for the copy back: it makes a stream wait on the GPU, not the host, so consume reads the buffer before the copy has landed
# hint: host.{0,40}(wait|sync)|before.{0,30}(land|sync)|landed|event\.synchroni[sz]e|wait\(\).{0,40}(stream|gpu|host)|not.{0,20}host
# Wrong: consume must run "only once the host knows that the copy into it has landed"; e.wait()
# only queues a wait on the current (compute) stream and returns at once.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
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
        if pending is not None:
            j, b, e = pending
            e.wait()  # "wait for the copy back of result j"
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.wait()
    consume(j, b)
