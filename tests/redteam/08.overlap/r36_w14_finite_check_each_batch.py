# expect: fail checks each result with assert torch.isfinite(y).all() as it is computed: a host read (sync) every batch, before the last compute is queued
# hint: host read|bool|assert|isfinite|item|sync|synchron|host
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0]) if batches else None
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        assert torch.isfinite(y).all(), f"batch {i} gave inf or nan"
        results.append(y)
    return results


answer = pipelined
