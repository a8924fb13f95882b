# expect: fail record_stream names the copy stream (the tensor's own) instead of the compute stream: memory freed while the compute reads it
# hint: record_stream|freed|reus|overwr|memory
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            x.record_stream(torch.cuda.current_stream(device))  # slip: this is copy_stream
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results


answer = pipelined
