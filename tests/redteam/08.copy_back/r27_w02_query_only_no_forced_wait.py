# expect: fail consumes only results whose copy back query() says has landed, and never makes the host wait in the loop: when result i - 2 has not landed yet (the host runs ahead, or copies back are slower than computes) copy back i is still queued into its buffer, overwriting a result before consume has read it
# hint: (buffer|result).*(overwrit|reus|before (it was )?consum)|query|not (yet )?consumed|two buffers|free
import collections

import torch


def answer(batches, compute, device, buffers, consume):
    compute_stream = torch.cuda.current_stream(device)
    copy_in, back = torch.cuda.Stream(device), torch.cuda.Stream(device)
    in_flight = collections.deque()  # (i, buffer, event after its copy back), oldest first

    def send(b):
        with torch.cuda.stream(copy_in):
            x = b.to(device, non_blocking=True)
        return x, copy_in.record_event()

    ahead = send(batches[0])
    for i in range(len(batches)):
        x, landed = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(landed)
        x.record_stream(compute_stream)
        y = compute(x)
        # consume whatever has landed: query() never blocks, so the host never stalls the GPU
        while in_flight and in_flight[0][2].query():
            j, buffer, _ = in_flight.popleft()
            consume(j, buffer)
        back.wait_stream(compute_stream)
        buffer = buffers[i % 2]
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffer.copy_(y, non_blocking=True)
        in_flight.append((i, buffer, back.record_event()))
    for j, buffer, copied in in_flight:
        copied.synchronize()
        consume(j, buffer)
