# expect: fail before each compute the host waits for the copy (event.synchronize()) instead of making the GPU wait with wait_event: right values, a host sync per batch
# hint: host|synchron|wait_event|GPU.*wait|sync|event
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
        copied.synchronize()  # batch i is on the device now
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
