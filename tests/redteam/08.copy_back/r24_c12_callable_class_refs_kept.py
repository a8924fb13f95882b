# expect: pass callable class; wait_stream for both cross-stream orders; no record_stream: each result is kept referenced until the host has synchronized with its copy back, device batches are kept and the copy-in stream waits for the compute stream before they go; host waits one batch late
# hint: 
# name: pipelined_to_host
import torch


class ToHost:
    def __call__(self, batches, compute, device, buffers, consume):
        compute_stream = torch.cuda.current_stream(device)
        copy_in = torch.cuda.Stream(device)
        copy_out = torch.cuda.Stream(device)
        n = len(batches)
        inputs = []
        in_flight = []  # (index, result kept alive, landed event)

        def fetch(j):
            with torch.cuda.stream(copy_in):
                inputs.append(batches[j].to(device, non_blocking=True))

        def hand_over():
            j, _y, landed = in_flight.pop(0)
            landed.synchronize()  # host waits for copy back j only; _y may go after this
            consume(j, buffers[j % 2])

        if n:
            fetch(0)
        for i in range(n):
            compute_stream.wait_stream(copy_in)  # covers copies up to batch i
            if i + 1 < n:
                fetch(i + 1)
            y = compute(inputs[i])
            copy_out.wait_stream(compute_stream)  # covers compute i
            with torch.cuda.stream(copy_out):
                buffers[i % 2].copy_(y, non_blocking=True)
            in_flight.append((i, y, copy_out.record_event()))
            if len(in_flight) == 2:
                hand_over()  # result i - 1, with compute i queued
        while in_flight:
            hand_over()
        copy_in.wait_stream(compute_stream)  # before the device batches go
        inputs.clear()


pipelined_to_host = ToHost()
