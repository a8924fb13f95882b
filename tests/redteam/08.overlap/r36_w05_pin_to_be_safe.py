# expect: fail calls pin_memory() on every batch before its copy "to be safe" (the prompt forbids any pin_memory() call: pinned already)
# hint: pin_memory|pin|pinned
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.pin_memory().to(device, non_blocking=True)  # non_blocking needs pinned memory
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
