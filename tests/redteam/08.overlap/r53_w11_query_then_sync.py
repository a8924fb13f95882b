# expect: fail on the host, asks the copy's event query() and synchronizes it when not done, before each compute: a host wait, not a GPU-side one
# hint: host|query|sync|wait_event|wait_stream
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
        if not copied.query():  # "only wait when the copy is not done yet"
            copied.synchronize()  # ... which is the host waiting, every time it matters
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
