# expect: fail uses torch.cuda.synchronize(device) one batch late, a wait that covers the newest compute while batches remain
# hint: synchroni[sz]e\(\)|device.wide|whole (gpu|device)|covers? (the )?(newest|latest|last|current) compute|waits? for (all|every|compute \d+|the newest)|newest compute
# Wrong: "no wait that covers the newest compute queued while batches remain". The host waits
# for result i - 1 after queuing compute i, but synchronize() also waits for compute i.
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
        if previous is not None:
            torch.cuda.synchronize(device)  # the copy back of result i - 1 has landed (and compute i too)
            consume(previous, buffers[previous % 2])
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buffers[i % 2].copy_(y, non_blocking=True)
        previous = i
    torch.cuda.synchronize(device)
    consume(previous, buffers[previous % 2])
