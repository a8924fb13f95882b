# expect: fail keeps references to the device batches instead of record_stream, but returns without making the copy stream wait for the compute stream, so the memory goes back to the copy stream's pool while computes may still read it
# hint: wait_stream|copy stream.{0,40}wait|before return|record_stream|reus|allocat|freed|references?
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    on_device, copied, results = [], [], []

    def send(batch):
        with torch.cuda.stream(copy_stream):
            on_device.append(batch.to(device, non_blocking=True))  # kept alive until we return
            copied.append(copy_stream.record_event())

    if batches:
        send(batches[0])
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(batches[i + 1])
        compute_stream.wait_event(copied[i])
        results.append(compute(on_device[i]))
    return results
