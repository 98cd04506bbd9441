class GangAllocator:
    """All-or-nothing placement of a job's pods onto nodes' free GPUs (best-fit, pod by pod)."""

    def __init__(self, free):
        self.free = dict(free)  # node -> free GPUs; dict order is node order
        self.jobs = {}  # job -> list of (node, gpus)

    def allocate(self, job, pods, gpus_per_pod):
        taken = []
        for _ in range(pods):
            fits = [n for n, f in self.free.items() if f >= gpus_per_pod]
            if not fits:
                for node, gpus in taken:  # roll back what this job already took
                    self.free[node] += gpus
                return None
            node = min(fits, key=lambda n: self.free[n])  # min keeps the first of equals
            self.free[node] -= gpus_per_pod
            taken.append((node, gpus_per_pod))
        self.jobs[job] = taken
        return [node for node, _ in taken]

    def release(self, job):
        for node, gpus in self.jobs.pop(job):
            self.free[node] += gpus
