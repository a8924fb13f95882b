# expect: fail each compute is ordered after its copy by making the host wait (event.synchronize()) instead of the GPU (wait_event), a sync point in the loop
# hint: host wait|host waited|synchroni[sz]e|sync point|wait_event|the GPU wait
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])  # the next copy is queued before we wait
        copied.synchronize()  # batch i has landed
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
