# expect: fail references kept instead of record_stream, then released after torch.cuda.synchronize() with no device: for cuda:1 that waits for the current GPU, not the one the computes run on, so the batches' memory is freed while they may still be read (and no GPU-side wait of the copy stream for the compute stream either)
# hint: synchronize\(\)|synchronize\(device\)|without (the|a) device|current GPU|cuda:1|other (GPU|device)|wrong (GPU|device)|name the device|freed|released|references
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, events = [], []

    def send(b):
        with torch.cuda.stream(copy_stream):
            on_device.append(b.to(device, non_blocking=True))
            events.append(copy_stream.record_event())

    if batches:
        send(batches[0])
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(batches[i + 1])
        compute_stream.wait_event(events[i])
        results.append(compute(on_device[i]))
    torch.cuda.synchronize()  # every compute has read its batch: the references may go
    on_device.clear()
    return results


answer = pipelined
