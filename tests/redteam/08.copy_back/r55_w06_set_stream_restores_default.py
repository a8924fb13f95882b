# expect: fail switches streams with set_stream and "restores" the default stream, not the caller's current one
# hint: current stream|set_stream|stream.*(chang|put back|restor|left|differ)|(chang|put back|restor).*stream
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        torch.cuda.set_stream(copy_stream)
        x = b.to(device, non_blocking=True)
        event = copy_stream.record_event()
        torch.cuda.set_stream(compute_stream)
        return x, event

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
            j, buf, done = pending
            done.synchronize()
            consume(j, buf)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        torch.cuda.set_stream(back_stream)
        y.record_stream(back_stream)
        buf.copy_(y, non_blocking=True)
        done = back_stream.record_event()
        torch.cuda.set_stream(compute_stream)
        pending = (i, buf, done)
    j, buf, done = pending
    done.synchronize()
    consume(j, buf)
    torch.cuda.set_stream(torch.cuda.default_stream(device))  # leave the default stream current
