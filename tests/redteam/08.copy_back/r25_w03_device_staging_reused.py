# expect: fail copies every result into one device staging tensor on the compute stream and copies back from it: the next result overwrites the staging tensor while the back stream may still be reading the previous one (device memory reused across streams with no wait)
# hint: staging|overwrit|reus|same device (tensor|memory)|while .*(read|copy)|record_stream|race
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)
    staging = None  # one device tensor for every result: no allocation, no record_stream needed

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
        if staging is None:
            staging = torch.empty(y.shape, dtype=y.dtype, device=device)
        staging.copy_(y)  # on the compute stream, after compute i
        if pending is not None:
            j, buffer, copied = pending
            copied.synchronize()
            consume(j, buffer)
        back_stream.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            buffer.copy_(staging, non_blocking=True)
            pending = (i, buffer, back_stream.record_event())
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
