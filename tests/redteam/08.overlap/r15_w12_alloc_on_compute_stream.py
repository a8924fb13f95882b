# expect: fail device tensor allocated on the compute stream and filled by copy_ on the side stream with no wait for the compute stream's earlier work
# hint: allocat|wait_stream|pool|memory.*(still|may)|before the allocation|race
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        x = torch.empty(batch.shape, dtype=batch.dtype, device=device)
        with torch.cuda.stream(copy_stream):
            x.copy_(batch, non_blocking=True)
            done = copy_stream.record_event()
        return x, done  # x belongs to the compute stream: no record_stream needed

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, done = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(done)
        results.append(compute(x))
    return results


answer = pipelined
