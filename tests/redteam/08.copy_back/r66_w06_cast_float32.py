# expect: fail each batch is cast to float32 on its way to the device, so float64 batches lose precision
# hint: dtype|float64|double|float32|its own dtype|as it is|cast|precision
# Wrong: the batches go over "as in exercise 8.1": each batch as it is, in its own dtype; the
# cast makes compute() work in float32 and the float64 buffer gets rounded results.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, torch.float32, non_blocking=True)  # "GPUs want float32"
            return x, copy_stream.record_event()

    ahead = send(batches[0])
    pending = None
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            j, b, e = pending
            e.synchronize()
            consume(j, b)
        pending = (i, buf, landed)
    j, b, e = pending
    e.synchronize()
    consume(j, b)
