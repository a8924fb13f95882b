# expect: fail switches with set_stream to the copy stream and back to the default stream instead of the caller's current stream: called inside `with torch.cuda.stream(s)`, the computes run on the default stream, not on s, and s is left replaced
# hint: default.stream|current.stream|caller|set_stream|restor
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.default_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        torch.cuda.set_stream(copy_stream)
        x = batch.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()  # on the copy stream, the current one here
        torch.cuda.set_stream(compute_stream)  # back to the compute stream
        return x, copied

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
