# expect: fail casts each result with .float() before the copy back ("the buffers are float32"): an extra kernel and device tensor per batch, and for float64 batches the buffers (float64, the results' shape and dtype) get values rounded to float32; with float32 results it does nothing
# hint: float32|\.float\(\)|cast|dtype|precision|round
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
        y = compute(x).float()  # pinned result buffers are float32
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
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
