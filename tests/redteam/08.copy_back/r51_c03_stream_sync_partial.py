# expect: pass wait_stream for the compute's wait, a deque of device batches, back_stream.synchronize() before the next copy back is queued (covers only result i - 1), functools.partial for consume
# hint:
import collections
import functools

import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    on_device = collections.deque()

    def queue_copy(k):
        with torch.cuda.stream(copy_stream):
            on_device.append(batches[k].to(device, non_blocking=True))

    queue_copy(0)
    last = None  # functools.partial(consume, i - 1, its buffer), once its copy back is queued
    for i in range(len(batches)):
        compute_stream.wait_stream(copy_stream)  # covers copy i: copy i + 1 is not queued yet
        if i + 1 < len(batches):
            queue_copy(i + 1)  # runs during compute i
        x = on_device.popleft()
        x.record_stream(compute_stream)
        y = compute(x)
        if last is not None:
            back_stream.synchronize()  # holds only the copy back of result i - 1 (and its wait)
            last()
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
        last = functools.partial(consume, i, buf)
    back_stream.synchronize()
    last()


answer = pipelined_to_host
