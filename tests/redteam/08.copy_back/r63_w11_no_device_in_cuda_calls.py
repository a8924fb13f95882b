# expect: fail calls torch.cuda.Stream() and torch.cuda.current_stream() without the device, so with device cuda:1 the streams are the current GPU's
# hint: device|cuda:1|current gpu|current_stream\(device\)|Stream\(device\)|name (it|the device)|another (gpu|device)
# Wrong: the prompt asks to name `device` in torch.cuda's calls (as in exercise 8.1): without it
# they mean the current GPU, and the waits and copies land on cuda:0's streams when given cuda:1.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream()
    copy_stream = torch.cuda.Stream()
    back_stream = torch.cuda.Stream()

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending = (i, back_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
