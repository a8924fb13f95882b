# expect: fail back_stream.synchronize() comes after back_stream.wait_stream(compute) for result i, so the host waits for the newest compute
# hint: covers? (the )?(newest|latest|last|current) compute|newest compute|waits? for compute|wait_stream|stream.synchroni[sz]e|(host|sync).*(compute \d+|newest)|keep the gpu busy
# Wrong: the copy-back stream is told to wait for compute i, then the host synchronizes that
# stream to read result i - 1: the sync covers compute i (the newest), which the prompt forbids.
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead = send(batches[0])
    previous = None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        back_stream.wait_stream(compute_stream)  # order the copy back after compute i ...
        if previous is not None:
            back_stream.synchronize()  # ... then wait for copy back i - 1: this now waits for compute i too
            consume(previous, buffers[previous % 2])
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
        previous = i
    back_stream.synchronize()
    consume(previous, buffers[previous % 2])
