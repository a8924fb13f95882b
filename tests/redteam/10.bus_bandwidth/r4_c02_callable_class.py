# expect: pass a callable object with a table of (numerator multiplier, subtract) rules; GB via 1e-9
# hint: 
class Bandwidths:
    RULES = {"all_reduce": 2, "all_gather": 1, "reduce_scatter": 1}

    def __call__(self, nbytes, seconds, world_size, collective):
        if collective == "broadcast":
            factor = 1
        elif collective in self.RULES:
            factor = self.RULES[collective] * (world_size - 1) / world_size
        else:
            raise ValueError(collective)
        algbw = nbytes * 1e-9 / seconds
        return (algbw, algbw * factor)


answer = Bandwidths()
