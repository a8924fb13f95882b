# expect: fail each result is returned as compute(x).detach(), a new tensor object (same values, same memory) rather than the tensor compute returned, which the prompt asks for
# hint: detach|the tensor compute returned|same (tensor|object)|identity|new tensor|as it (is|was) returned
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(ev)
        x.record_stream(compute_stream)
        results.append(compute(x).detach())  # results only, no autograd graph kept alive
    return results


answer = pipelined
