# expect: fail the host waits for each copy with event.synchronize() instead of the GPU waiting (wait_event)
# hint: host.*(wait|sync)|synchroni[sz]e|sync point|wait_event|wait_stream|the gpu.*wait
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # batch i + 1's copy is already queued
        copied.synchronize()  # only batch i's copy has to be done before its compute
        x.record_stream(torch.cuda.current_stream(device))
        results.append(compute(x))
    return results


answer = pipelined
