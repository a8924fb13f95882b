# expect: fail switches streams with torch.cuda.set_stream and never restores the caller's stream: after it returns, the caller's current stream is the back stream, so the caller's later work runs there
# hint: set_stream|restor|current stream.*(after|left|return)|caller'?s (current )?stream|leaves? the
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    pending = None
    torch.cuda.set_stream(copy_stream)
    x = batches[0].to(device, non_blocking=True)
    landed = copy_stream.record_event()
    for i in range(len(batches)):
        torch.cuda.set_stream(copy_stream)
        if i + 1 < len(batches):
            x_next = batches[i + 1].to(device, non_blocking=True)
            landed_next = copy_stream.record_event()
        torch.cuda.set_stream(compute_stream)
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        torch.cuda.set_stream(back_stream)
        back_stream.wait_stream(compute_stream)
        y.record_stream(back_stream)
        buffer = buffers[i % 2]
        buffer.copy_(y, non_blocking=True)
        pending = (i, buffer, back_stream.record_event())
        if i + 1 < len(batches):
            x, landed = x_next, landed_next
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
