# expect: fail Primes the pipeline with the copies of batches 0 and 1 before the loop, so a single batch raises IndexError (any number of batches, one included, must work).
# hint: one batch|single|any number|IndexError|len
# name: pipelined_to_host
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
    # two in flight from the start: batch 0 to compute, batch 1 to overlap with it
    queue = [send(batches[0]), send(batches[1])]
    pending = None
    for i in range(n):
        x, copied = queue.pop(0)
        if i + 2 < n:
            queue.append(send(batches[i + 2]))
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_event(compute_stream.record_event())
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, buf, ev = pending
            ev.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    j, buf, ev = pending
    ev.synchronize()
    consume(j, buf)


answer = pipelined_to_host
