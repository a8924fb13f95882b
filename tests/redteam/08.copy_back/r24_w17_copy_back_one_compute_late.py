# expect: fail result i's copy back is queued only after compute i + 1, behind a wait_stream that then covers compute i + 1 too: every copy back waits a whole extra compute, and consume runs two batches behind; the values are right, the overlap is lost in part
# hint: late|extra compute|compute i ?\+ ?1|next compute|wait_stream .*(covers|too)|waits? for the (next|newer) compute|one (step|batch) (late|behind)|two (batches )?behind
# name: pipelined_to_host
import torch


def pipelined_to_host(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)
    back_stream = torch.cuda.Stream(device)
    n = len(batches)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    landed = [None] * n
    results = [None] * n

    def send_back(j):
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            results[j].record_stream(back_stream)
            buffers[j % 2].copy_(results[j], non_blocking=True)
            landed[j] = back_stream.record_event()
        results[j] = None

    def hand_over(j):
        landed[j].synchronize()
        consume(j, buffers[j % 2])

    ahead = send(batches[0])
    for i in range(n):
        x, copied = ahead
        if i + 1 < n:
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results[i] = compute(x)
        # keep the copy engine a step behind the SMs: send back the previous result
        if i >= 1:
            send_back(i - 1)
        if i >= 2:
            hand_over(i - 2)
    send_back(n - 1)
    for j in range(max(0, n - 2), n):
        hand_over(j)
