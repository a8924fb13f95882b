# expect: fail waits for each result's copy back and consumes it in the same iteration, so the host waits while the newest compute is queued and no next compute is (no one-batch lag)
# hint: newest compute|next compute|one batch late|lag|host wait|stall|idle|covers
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def send_back(i, y):
        computed = compute_stream.record_event()
        back_stream.wait_event(computed)
        y.record_stream(back_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back_stream):
            buffer.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        return i, buffer, landed

    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        j, buffer, landed = send_back(i, y)
        landed.synchronize()  # the copy has landed: the buffer may be read
        consume(j, buffer)


answer = pipelined_to_host
