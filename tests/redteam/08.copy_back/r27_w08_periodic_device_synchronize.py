# expect: fail calls torch.cuda.synchronize(device) every 8 batches to keep the host from queueing too far ahead: with more than 8 batches that host wait covers the newest compute while batches remain, and the GPU runs dry; it never fires with 8 batches or fewer
# hint: synchroni[sz]e|every \d+|periodic|host wait|newest|in the loop|run(s)? ahead
import torch

SYNC_EVERY = 8


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_in):
            x = b.to(device, non_blocking=True)
        return x, copy_in.record_event()

    pending = None
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffer.copy_(y, non_blocking=True)
            pending = (i, buffer, back.record_event())
        if (i + 1) % SYNC_EVERY == 0 and i + 1 < len(batches):
            torch.cuda.synchronize(device)  # let the GPU catch up now and then
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
