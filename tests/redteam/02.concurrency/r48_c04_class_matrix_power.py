# expect: pass a small helper class holding the in-flight futures; torch.linalg.matrix_power(t, 2) (one product t @ t) as the work
# hint:
import torch


class _InFlight:
    def __init__(self):
        self.futures = []

    def launch(self, lane, fn, *args):
        self.futures.append(lane.submit(fn, *args))
        return self

    def gather(self):
        return tuple(f.result() for f in self.futures)


def run_concurrently(x, y, lanes):
    flight = _InFlight()
    flight.launch(lanes[0], torch.linalg.matrix_power, x, 2).launch(lanes[1], torch.linalg.matrix_power, y, 2)
    return flight.gather()


answer = run_concurrently
