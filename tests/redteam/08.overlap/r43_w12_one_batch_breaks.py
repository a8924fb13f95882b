# expect: fail Prefetches batches[0] and batches[1] before the loop unconditionally, so a list of one batch raises IndexError (the list is never empty, but it may hold one).
# hint: one batch|single|1 batch|IndexError|any number|length
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    current, ahead = send(batches[0]), send(batches[1])
    results = []
    for i in range(len(batches)):
        x, copied = current
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
        current = ahead
        if i + 2 < len(batches):
            ahead = send(batches[i + 2])
    return results
