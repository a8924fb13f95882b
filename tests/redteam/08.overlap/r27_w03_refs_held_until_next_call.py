# expect: fail keeps the device batches on the instance instead of record_stream, and drops them only at the start of the next call, with no GPU-side wait: the batches' device memory stays held after the call returns, and the copy stream never waits for the computes that read them
# hint: (held|hold|kept|keep).*(after|between|return|next call)|wait_stream|final wait|copy stream.*wait|record_stream|memory
import torch


class Pipelined:
    def __init__(self):
        self.in_flight = []  # the last call's device batches: alive while its computes may run

    def __call__(self, batches, compute, device):
        self.in_flight.clear()  # the previous call's computes are long finished by now
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)

        def send(b):
            with torch.cuda.stream(copy_stream):
                x = b.to(device, non_blocking=True)
            self.in_flight.append(x)
            return x, copy_stream.record_event()

        results = []
        ahead = send(batches[0])
        for i in range(len(batches)):
            x, landed = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            compute_stream.wait_event(landed)
            results.append(compute(x))
        return results


answer = Pipelined()
