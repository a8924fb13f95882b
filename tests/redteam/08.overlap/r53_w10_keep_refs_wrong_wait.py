# expect: fail keeps references instead of record_stream, but at the end makes the compute stream wait for the copy stream, not the copy stream for the compute stream
# hint: record_stream|wait_stream|copy stream.*wait|wait.*compute stream|freed|reus|overwr|reference
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device = []  # references kept: no record_stream needed ... until we return

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            on_device.append(x)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        results.append(compute(x))
    compute_stream.wait_stream(copy_stream)  # slip: the wrong way round
    return results


answer = pipelined
