# expect: fail calls consume on a worker thread of its own (waiting for each event there) instead of on the caller's thread
# hint: (thread)
# name: pipelined_to_host
from concurrent.futures import ThreadPoolExecutor

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    def deliver(j, buf, landed):
        landed.synchronize()
        consume(j, buf)

    n = len(batches)
    ahead = send(batches[0])
    futures = []
    with ThreadPoolExecutor(max_workers=1) as host:
        for i in range(n):
            x, copied = ahead
            if i + 1 < n:
                ahead = send(batches[i + 1])
            compute_stream.wait_event(copied)
            x.record_stream(compute_stream)
            y = compute(x)
            if i >= 2:
                futures[i - 2].result()  # buffer i % 2 is free once result i - 2 is consumed
            buf = buffers[i % 2]
            back_stream.wait_stream(compute_stream)
            with torch.cuda.stream(back_stream):
                y.record_stream(back_stream)
                buf.copy_(y, non_blocking=True)
                landed = back_stream.record_event()
            futures.append(host.submit(deliver, i, buf, landed))
        for f in futures:
            f.result()
