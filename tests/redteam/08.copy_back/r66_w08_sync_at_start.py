# expect: fail a torch.cuda.synchronize(device) at the start, "to begin from a clean GPU": the host waits with no compute of its own queued
# hint: synchroni[sz]e|host.{0,30}wait|sync point|start|begin|idle|no compute queued|caller'?s (work|stream)
# Wrong: "whenever the host waits, the GPU must have the next batch's compute queued"; this
# wait holds the host for the caller's earlier work while nothing of the pipeline is queued.
import torch


def answer(batches, compute, device, buffers, consume):
    torch.cuda.synchronize(device)  # "start from an idle GPU so the buffers are safe"
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
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
