# expect: fail Switches streams with torch.cuda.set_stream and switches "back" to the default stream instead of the caller's current one; inside `with torch.cuda.stream(s)` the computes then run on the default stream (which never waited for the copies) and the caller's current stream is left changed.
# hint: set_stream|current stream|restore|default|put back|stream\(s\)
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        torch.cuda.set_stream(copy_stream)
        x = b.to(device, non_blocking=True)
        copied = copy_stream.record_event()
        torch.cuda.set_stream(torch.cuda.default_stream(device))  # "back"
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
