# expect: fail hands each result to a worker thread that waits for its copy and calls consume, so consume runs on a thread of its own, not on the caller's thread
# hint: thread|caller|main thread|calling thread
from concurrent.futures import ThreadPoolExecutor

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

    def deliver(j, buffer, landed):
        landed.synchronize()  # this thread waits, the loop goes on queueing
        consume(j, buffer)

    reader, done = ThreadPoolExecutor(max_workers=1), []  # one worker: in order
    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        if i >= 2:
            done[i - 2].result()  # buffers[i % 2] is free once result i - 2 was consumed
        done.append(reader.submit(deliver, *send_back(i, y)))
    for future in done:
        future.result()
    reader.shutdown()


answer = pipelined_to_host
