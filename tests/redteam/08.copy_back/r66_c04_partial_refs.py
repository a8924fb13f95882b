# expect: pass
# hint:
# Right: functools.partial of a general pipeline; no record_stream: references to the device
# tensors are kept until their streams' work is known done (the prompt's other way).
import functools

import torch


def _pipeline(batches, compute, device, buffers, consume, *, lag=1):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    inputs = []  # every device batch, kept until the copy stream waits for the computes

    def send(i):
        with torch.cuda.stream(copy_stream):
            inputs.append(batches[i].to(device, non_blocking=True))
            return copy_stream.record_event()

    events = {0: send(0)}
    queue = []  # (index, buffer, event, result kept alive until its copy back has landed)
    for i in range(len(batches)):
        if i + 1 < len(batches):
            events[i + 1] = send(i + 1)
        compute_stream.wait_event(events.pop(i))
        y = compute(inputs[i])
        back_stream.wait_stream(compute_stream)
        buf = buffers[i % len(buffers)]
        with torch.cuda.stream(back_stream):
            buf.copy_(y, non_blocking=True)
        queue.append((i, buf, back_stream.record_event(), y))
        while len(queue) > lag:
            j, b, e, _ = queue.pop(0)
            e.synchronize()
            consume(j, b)
    while queue:
        j, b, e, _ = queue.pop(0)
        e.synchronize()
        consume(j, b)
    copy_stream.wait_stream(compute_stream)  # the inputs' memory is free only after the computes


answer = functools.partial(_pipeline, lag=1)
