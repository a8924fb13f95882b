# expect: fail compute_stream.wait_stream(copy_stream) is called after batch i + 1's copy is queued, so compute i waits for that copy too: no overlap
# hint: wait_stream|wait.{0,40}(next|later|every|all).{0,20}cop|serial|no overlap|overlap|order|event
# WRONG: the values are right and nothing races, but wait_stream covers everything queued on the
# copy stream so far, including the copy of batch i + 1: copy and compute take turns again.
import torch


def answer(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True)

    results, nxt = [], send(batches[0])
    for i in range(len(batches)):
        x = nxt
        if i + 1 < len(batches):
            nxt = send(batches[i + 1])  # prefetch the next batch
        compute_stream.wait_stream(copy_stream)  # batch i has landed (and so has batch i + 1)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results
