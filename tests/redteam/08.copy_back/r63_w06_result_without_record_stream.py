# expect: fail the result tensor, made on the compute stream and read by the copy back on another stream, gets no record_stream and no kept reference
# hint: record_stream|reference|freed|allocator|caching|memory (may be )?reused|still (be )?(read|use)
# Wrong: "A tensor made on one stream and read on another needs record_stream (or a reference kept
# until that stream's work is done) ... now the results too". y is rebound at the next compute
# while its copy back may still read it. The inputs do get record_stream.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    y = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)  # drops result i - 1, whose copy back may still be running
        if pending is not None:
            j, ev = pending
            ev.synchronize()
            consume(j, buffers[j % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            buffers[i % 2].copy_(y, non_blocking=True)
            pending = (i, back_stream.record_event())
    j, ev = pending
    ev.synchronize()
    consume(j, buffers[j % 2])
