# expect: pass a class whose bound method is the answer; a deque of results in flight as deep as the buffers (two), each consumed before its buffer takes a new result
# hint:
from collections import deque

import torch


class HostPipeline:
    """Copies in on one side stream, computes on the caller's current stream, copies back
    on another side stream; as many results in flight as there are buffers."""

    def run(self, batches, compute, device, buffers, consume):
        streams = {
            "compute": torch.cuda.current_stream(device),
            "in": torch.cuda.Stream(device),
            "out": torch.cuda.Stream(device),
        }
        in_flight = deque()  # (index, buffer, event after its copy back), oldest first
        ahead = self._send(batches[0], device, streams)
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = self._send(batches[i + 1], device, streams)
            streams["compute"].wait_event(copied)
            x.record_stream(streams["compute"])
            y = compute(x)
            computed = streams["compute"].record_event()
            # a buffer is free only once consume has returned for its last result
            while len(in_flight) >= len(buffers):
                self._deliver(in_flight.popleft(), consume)
            buf = buffers[i % len(buffers)]
            streams["out"].wait_event(computed)
            with torch.cuda.stream(streams["out"]):
                y.record_stream(streams["out"])
                buf.copy_(y, non_blocking=True)
                in_flight.append((i, buf, streams["out"].record_event()))
        while in_flight:
            self._deliver(in_flight.popleft(), consume)

    @staticmethod
    def _send(batch, device, streams):
        with torch.cuda.stream(streams["in"]):
            return batch.to(device, non_blocking=True), streams["in"].record_event()

    @staticmethod
    def _deliver(entry, consume):
        i, buf, landed = entry
        landed.synchronize()
        consume(i, buf)


answer = HostPipeline().run
