# expect: fail dispatches with getattr(self, "_" + collective), so an unknown collective raises AttributeError (or TypeError for names such as "_call__"), not ValueError.
# hint: getattr|attributeerror|valueerror|dispatch|(unknown|invalid|other) (collective|name)
class Bandwidths:
    GB = 1e9

    def _all_reduce(self, n):
        return 2 * (n - 1) / n

    def _all_gather(self, n):
        return (n - 1) / n

    def _reduce_scatter(self, n):
        return (n - 1) / n

    def _broadcast(self, n):
        return 1.0

    def __call__(self, nbytes, seconds, world_size, collective):
        factor = getattr(self, "_" + collective)(world_size)
        algbw = nbytes / seconds / self.GB
        return algbw, algbw * factor


answer = Bandwidths()
