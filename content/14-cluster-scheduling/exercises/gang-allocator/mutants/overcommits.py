class GangAllocator:
    def __init__(self, free):
        self.free = dict(free)
        self.jobs = {}

    def allocate(self, job, pods, gpus_per_pod):
        fits = [n for n, f in self.free.items() if f >= gpus_per_pod]
        if not fits:
            return None
        node = min(fits, key=lambda n: self.free[n])  # chosen once, from the map as the call found it
        placed = [node] * pods
        for n in placed:
            self.free[n] -= gpus_per_pod
        self.jobs[job] = (placed, gpus_per_pod)
        return placed

    def release(self, job):
        placed, gpus = self.jobs.pop(job)
        for node in placed:
            self.free[node] += gpus
