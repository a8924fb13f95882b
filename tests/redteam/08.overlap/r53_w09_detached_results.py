# expect: fail returns compute(x).detach(): equal values, but a new tensor object, not the tensor compute returned
# hint: the tensor compute returned|same tensor|same object|identity|detach|\bis\b
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x).detach())  # "no graph kept": a new tensor object
    return results


answer = pipelined
