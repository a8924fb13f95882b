# expect: fail calls torch.cuda.synchronize(device) every 16 batches "so the host does not run too far ahead": a host wait in the loop before the last compute is queued, which drains the pipeline each time; it never fires with 16 batches or fewer
# hint: synchroni[sz]e|host wait|every \d+|periodic|in the loop|run ahead
import torch

SYNC_EVERY = 16  # bound how much work the host queues ahead of the GPU


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results = []
    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        results.append(compute(x))
        if (i + 1) % SYNC_EVERY == 0 and i + 1 < len(batches):
            torch.cuda.synchronize(device)
    return results


answer = pipelined
