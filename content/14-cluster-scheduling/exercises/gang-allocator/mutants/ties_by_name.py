class GangAllocator:
    def __init__(self, free):
        self.free = dict(free)
        self.jobs = {}

    def allocate(self, job, pods, gpus_per_pod):
        taken = []
        for _ in range(pods):
            fits = sorted((f, n) for n, f in self.free.items() if f >= gpus_per_pod)  # ties by name
            if not fits:
                for node in taken:
                    self.free[node] += gpus_per_pod
                return None
            node = fits[0][1]
            self.free[node] -= gpus_per_pod
            taken.append(node)
        self.jobs[job] = (taken, gpus_per_pod)
        return taken

    def release(self, job):
        taken, gpus = self.jobs.pop(job)
        for node in taken:
            self.free[node] += gpus
