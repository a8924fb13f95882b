# expect: pass
# hint:
# Right: a callable class instance; it holds no device list and asks try_all_gpus() inside every
# call, then deals the workers out in turn with i % len(devices).
import d2lgpu


class RoundRobinPlacer:
    """Deal workers out over whatever devices the machine has at call time."""

    def __init__(self, devices_of_machine=d2lgpu.try_all_gpus):
        self.devices_of_machine = devices_of_machine  # the function, not its result

    def __call__(self, n_workers):
        devices = self.devices_of_machine()
        return [devices[i % len(devices)] for i in range(n_workers)]


place_workers = RoundRobinPlacer()
answer = place_workers
