# expect: fail sets each entry of the caller's batches list to None once its copy is queued, to free host memory as it goes: the caller's list is changed by the call (all None afterwards), an input the prompt only lends
# hint: none|mutat|modif|clear|caller.?s (list|batches)|input (list|changed)|in place
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(i):
        with torch.cuda.stream(copy_in):
            x = batches[i].to(device, non_blocking=True)
        batches[i] = None  # the host batch can go: far more batches than memory, as in the prompt
        return x, copy_in.record_event()

    pending = None
    ahead = send(0)
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(i + 1)
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
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
