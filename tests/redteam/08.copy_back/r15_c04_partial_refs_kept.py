# expect: pass functools.partial helpers, explicit Event objects, references kept instead of record_stream
# hint: 
import functools

import torch


def _to_device(batch, stream, device):
    with torch.cuda.stream(stream):
        x = batch.to(device, non_blocking=True)
        done = torch.cuda.Event()
        done.record(stream)
    return x, done


def _to_host(y, buffer, after, stream):
    stream.wait_event(after)
    with torch.cuda.stream(stream):
        buffer.copy_(y, non_blocking=True)
        landed = torch.cuda.Event()
        landed.record()  # the current stream here is `stream`
    return landed


def pipelined_to_host(batches, compute, device, buffers, consume):
    main = torch.cuda.current_stream(device)
    up, down = torch.cuda.Stream(device), torch.cuda.Stream(device)
    send = functools.partial(_to_device, stream=up, device=device)
    back = functools.partial(_to_host, stream=down)
    on_device = []  # every input kept until the end: no record_stream needed
    waiting = []  # [i, buffer, event, result kept until its copy back has landed]
    upcoming = send(batches[0])
    for i, _ in enumerate(batches):
        x, copied = upcoming
        on_device.append(x)
        if i + 1 < len(batches):
            upcoming = send(batches[i + 1])
        main.wait_event(copied)
        y = compute(x)
        computed = torch.cuda.Event()
        computed.record(main)
        buf = buffers[i % 2]
        waiting.append([i, buf, back(y, buf, computed), y])
        del y
        if len(waiting) == 2:
            j, b, landed, _ = waiting.pop(0)
            landed.synchronize()
            consume(j, b)  # result j's device tensor is dropped only now, its copy landed
    for j, b, landed, _ in waiting:
        landed.synchronize()
        consume(j, b)
    waiting.clear()
    up.wait_stream(main)  # before the inputs go back to the copy stream's pool


answer = pipelined_to_host
