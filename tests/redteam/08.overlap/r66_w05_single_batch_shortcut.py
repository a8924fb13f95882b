# expect: fail the one-batch shortcut copies with .to(device) without non_blocking=True: a blocking copy, the host waits
# hint: non.?blocking|blocking|host.{0,40}wait|sync|one batch|single batch
# Wrong: with several batches it is section 8.4's pipeline; the "nothing to overlap" shortcut
# for one batch drops non_blocking=True, so the host waits in the copy (prompt: each batch with
# .to(device, non_blocking=True)).
import torch


def pipelined(batches, compute, device):
    if len(batches) == 1:  # nothing to overlap with: keep it simple
        return [compute(batches[0].to(device))]
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
            return x, copy_stream.record_event()

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


answer = pipelined
