# expect: fail calls torch.cuda.set_device(device) first and never restores it: after the call the caller's current GPU is the one given, so the caller's later unqualified CUDA calls go to that GPU; shows when device is not the current GPU (cuda:1)
# hint: set_device|current (gpu|device)|restor|global|side effect|changed
import torch


def answer(batches, compute, device, buffers, consume):
    torch.cuda.set_device(device)  # so that nothing below can land on another GPU
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
    j, buffer, copied = pending
    copied.synchronize()
    consume(j, buffer)
