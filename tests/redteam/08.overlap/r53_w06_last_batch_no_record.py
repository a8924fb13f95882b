# expect: fail record_stream only inside the "next batch exists" branch: the last batch (and a single batch) never gets it
# hint: record_stream|freed|reus|overwr|memory|last
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
            x.record_stream(compute_stream)  # slip: indented one level too far
        compute_stream.wait_event(copied)
        results.append(compute(x))
    return results


answer = pipelined
