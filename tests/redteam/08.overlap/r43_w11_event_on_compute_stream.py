# expect: fail Records each "copy done" event after leaving the side-stream block, so it marks the current (compute) stream, not the copy; the compute then waits for nothing and may read its batch before the copy lands.
# hint: event|record|copy stream|wait|land|before
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()  # on the current stream: outside the with block
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
