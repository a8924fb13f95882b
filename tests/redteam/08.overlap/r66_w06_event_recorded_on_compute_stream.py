# expect: fail the event is recorded after leaving the copy stream's block, so on the compute stream: the compute waits for nothing and reads batches before their copies land
# hint: event.{0,60}(record|stream)|record.{0,40}(copy|side) stream|before.{0,40}(copy|cop(y|ies)).{0,30}(land|finish|end|done)|wait.{0,40}copy|stale|race
# Wrong: Event().record() with no stream records on the current stream, which after the `with`
# block is the compute stream again; wait_event on it orders nothing (chapter 8.8's race).
import torch


def pipelined(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            x = b.to(device, non_blocking=True)
        copied = torch.cuda.Event()
        copied.record()  # "after the copy"
        return x, copied

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
