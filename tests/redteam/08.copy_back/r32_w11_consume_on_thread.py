# expect: fail calls consume on a worker thread of its own (a ThreadPoolExecutor) that waits for the event, not on the calling thread
# hint: thread
import torch
from concurrent.futures import ThreadPoolExecutor


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def finish(j, pbuf, pev):
        pev.synchronize()
        consume(j, pbuf)

    ahead = send(batches[0])
    futures = [None, None]
    with ThreadPoolExecutor(max_workers=1) as worker:
        for i in range(n):
            x, copied = ahead
            if i + 1 < n:
                ahead = send(batches[i + 1])
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            slot = i % 2
            if futures[slot] is not None:
                futures[slot].result()  # the buffer is free once its consume has returned
            buf = buffers[slot]
            back_stream.wait_stream(compute_stream)
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buf.copy_(y, non_blocking=True)
                landed = back_stream.record_event()
            futures[slot] = worker.submit(finish, i, buf, landed)


answer = pipelined_to_host
