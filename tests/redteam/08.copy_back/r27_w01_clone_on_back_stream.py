# expect: fail instead of y.record_stream(back), each result is cloned on the back stream "into that stream's own pool" and the copy back reads the clone: the clone itself reads y on the back stream, and y is dropped with no record_stream, so the next compute's allocations may overwrite y under the clone (a race); each batch also costs an extra device copy and its memory
# hint: record_stream|clone|extra (device )?copy|race|reuse|freed|pool
import torch


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
            snapshot = y.clone()  # lives in the back stream's pool: nothing crosses streams
            buffer.copy_(snapshot, non_blocking=True)
            pending = (i, buffer, back.record_event())
        del y
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
