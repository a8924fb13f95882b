# expect: fail a shortcut for a single batch copies it with a blocking .to(device): the host waits for the copy
# hint: non_blocking|blocking|host.*wait|sync|one batch|single
import torch


def pipelined(batches, compute, device):
    if len(batches) == 1:  # nothing to overlap with: keep it simple
        return [compute(batches[0].to(device))]
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
        results.append(compute(x))
    return results


answer = pipelined
