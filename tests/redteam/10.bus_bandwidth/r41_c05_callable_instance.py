# expect: pass a callable class instance assigned to the name, with a ValueError subclass and extra input checks
# hint: 
# name: bandwidths


class UnknownCollective(ValueError):
    pass


class _Bandwidths:
    halves = {"all_reduce": 2, "all_gather": 1, "reduce_scatter": 1}

    def __call__(self, nbytes, seconds, world_size, collective):
        if collective == "broadcast":
            factor = 1.0
        elif collective in self.halves:
            factor = self.halves[collective] * (1 - 1 / world_size)
        else:
            raise UnknownCollective(f"no bus bandwidth factor for {collective!r}")
        if seconds <= 0:
            raise ValueError("seconds must be positive")
        algbw = (nbytes * 1e-9) / seconds
        return (algbw, algbw * factor)


bandwidths = _Bandwidths()
