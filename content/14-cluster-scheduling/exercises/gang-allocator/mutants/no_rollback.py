class GangAllocator:
    def __init__(self, free):
        self.free = dict(free)
        self.jobs = {}

    def allocate(self, job, pods, gpus_per_pod):
        placed = []
        for _ in range(pods):
            fits = [n for n, f in self.free.items() if f >= gpus_per_pod]
            if not fits:
                return None  # the GPUs of the pods placed so far stay taken
            node = min(fits, key=lambda n: self.free[n])
            self.free[node] -= gpus_per_pod
            placed.append(node)
        self.jobs[job] = (placed, gpus_per_pod)
        return placed

    def release(self, job):
        placed, gpus = self.jobs.pop(job)
        for node in placed:
            self.free[node] += gpus
