# expect: fail Calls pin_memory() on each batch "to be sure" before its copy: forbidden in the function (a no-op for a pinned batch, a host copy that holds the loop for a pageable one).
# hint: pin_memory|pinned|pin
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        if not b.is_pinned():
            b = b.pin_memory()
        with torch.cuda.stream(copy_stream):
            x = b.pin_memory().to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
