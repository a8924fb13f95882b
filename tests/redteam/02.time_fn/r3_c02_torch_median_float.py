# expect: pass a class with __call__, statistics.median of a generator of pairs
# hint: 
import statistics, time
class Timer:
    def __call__(self, work, sync, clock=time.perf_counter, repeats=5):
        work(); sync()
        def one():
            a = clock(); work(); sync(); return clock() - a
        return float(statistics.median([one() for _ in range(repeats)]))
answer = Timer()
