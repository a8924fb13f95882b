# expect: fail the GPU wait is put on default_stream(device), but the computes run on the current stream (a caller's stream): they never wait for their copies
# hint: current.?stream|default.?stream|caller.?s stream|stream of its own|wrong stream|(did|does) not wait|before (its|the) copy|race|stale|landed
# WRONG: default stream == current stream only when the caller has not entered a stream of its own;
# inside `with torch.cuda.stream(s)` the computes on s wait for nothing and read unfilled memory.
import torch


def answer(batches, compute, device):
    copy_stream = torch.cuda.Stream(device)
    gpu_queue = torch.cuda.default_stream(device)  # "the" compute stream

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        gpu_queue.wait_event(copied)
        x.record_stream(gpu_queue)
        results.append(compute(x))
    return results
