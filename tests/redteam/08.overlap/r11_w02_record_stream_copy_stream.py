# expect: fail record_stream called with the copy stream (the stream x was allocated on, a no-op) instead of the compute stream that reads it
# hint: record_stream|allocat|reus|freed|overwrit|wrong stream
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            x.record_stream(copy_stream)  # mark x as used on the side stream
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results
