# expect: fail turns autograd off for the pipeline with torch.set_grad_enabled(False) and never turns it back on
# hint: grad
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    torch.set_grad_enabled(False)  # an inference pipeline: no graph
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
            ahead = send(batches[i + 1])  # runs during compute i
        compute_stream.wait_event(copied)  # the GPU waits, not the host
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
