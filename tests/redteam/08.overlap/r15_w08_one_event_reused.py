# expect: fail a single Event re-recorded for every copy, so compute i waits for copy i + 1 too (copies no longer overlap the computes)
# hint: overlap|serial|one after another|wait.*(next|too much|later|every)|event.*(reus|re-?record|same|once)|slower|faster|timeline
import torch


def pipelined(batches, compute, device):
    """[compute(b on device) for b in batches], copying batch i + 1 during compute i."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    copied = torch.cuda.Event()  # one marker, recorded again after each copy

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
        copied.record(copy_stream)
        return x

    results, x_next = [], send(batches[0])
    for i in range(len(batches)):
        x = x_next
        if i + 1 < len(batches):
            x_next = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
