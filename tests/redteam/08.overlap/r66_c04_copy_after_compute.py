# expect: pass
# hint:
# Right: the next copy is queued right after compute i instead of before it (chapter 8.7: "fine
# while the host runs ahead"); with no host wait it still runs during compute i on the GPU.
import torch


def _send(batch, copy_stream, device):
    with torch.cuda.stream(copy_stream):
        return batch.to(device, non_blocking=True), copy_stream.record_event()


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    results = []
    ahead = _send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, copied = ahead
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
        if i + 1 < len(batches):
            ahead = _send(batches[i + 1], copy_stream, device)
    return results


answer = pipelined
