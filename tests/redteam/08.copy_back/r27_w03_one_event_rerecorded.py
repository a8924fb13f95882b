# expect: fail one torch.cuda.Event is made once and re-recorded after every copy back; the host synchronizes on it for result i - 1 only after it was re-recorded behind copy back i, so it waits for compute i, the newest compute, while batches remain (the GPU runs dry at each wait)
# hint: (one|same|single|reus).*event|re-?record|newest|latest|covers? compute|stall|idle
import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)
    copied = torch.cuda.Event()  # made once, recorded again after each copy back

    def send(b):
        with torch.cuda.stream(copy_in):
            x = b.to(device, non_blocking=True)
        return x, copy_in.record_event()

    pending = None  # (index, buffer) of the result copied back last
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        back.wait_stream(compute_stream)
        buffer = buffers[i % 2]  # result i - 2, its previous content, was consumed last step
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffer.copy_(y, non_blocking=True)
        copied.record(back)
        if pending is not None:
            copied.synchronize()  # the copies back run in order: result i - 1 has landed
            consume(*pending)
        pending = (i, buffer)
    copied.synchronize()
    consume(*pending)
