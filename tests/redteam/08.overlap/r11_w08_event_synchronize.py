# expect: fail the host waits for each copy with event.synchronize() instead of making the compute stream wait on the GPU (wait_event / wait_stream)
# hint: host|synchroni[sz]e|sync point|wait_event|wait_stream|gpu.{0,20}wait
# name: pipelined
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    if not batches:
        return results
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        copied.synchronize()  # batch i has landed before its compute is queued
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
