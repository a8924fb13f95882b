# expect: fail Keeps every device batch in a list instead of record_stream, but returns without making the copy stream wait for the compute stream, so once the list is dropped the allocator may reuse a batch's memory for a later copy while its compute still reads it.
# hint: record_stream|wait_stream|reference|before return|memory|reuse
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, events = [], []

    def send(b):
        with torch.cuda.stream(copy_stream):
            on_device.append(b.to(device, non_blocking=True))
            events.append(copy_stream.record_event())

    send(batches[0])
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(batches[i + 1])
        compute_stream.wait_event(events[i])
        results.append(compute(on_device[i]))
    return results  # references dropped here; no copy_stream.wait_stream(compute_stream)
