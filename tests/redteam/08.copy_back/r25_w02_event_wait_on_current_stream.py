# expect: fail makes the copy back "wait" with computed.wait() called outside the back stream's block: Event.wait() without a stream makes the current (compute) stream wait, so the back stream never waits for the compute and copies the result before it exists
# hint: wait\(\)|current stream|back stream.*wait|wait.*back stream|never waits|before (the|its) compute|wait_event|wait_stream
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        computed = torch.cuda.Event()
        computed.record(compute_stream)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        computed.wait()  # the copy back below waits for compute i (so I thought)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            pending = (i, buffer, back_stream.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
