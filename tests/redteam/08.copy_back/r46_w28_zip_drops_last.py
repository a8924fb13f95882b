# expect: fail pairs each batch with the next via zip(batches, batches[1:]): zip stops at the shorter list, so the last batch is never copied, computed or consumed (with one batch, nothing is)
# hint: last|every batch|each batch|all batches|once per batch|one batch|missing|count
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i, (_, upcoming) in enumerate(zip(batches, batches[1:])):
        x, copied = ahead
        ahead = send(upcoming)  # batch i + 1, during compute i
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, buf, event = pending
            event.synchronize()
            consume(j, buf)
        pending = (i, buffer, landed)
    if pending is not None:
        j, buf, event = pending
        event.synchronize()
        consume(j, buf)


answer = pipelined_to_host
