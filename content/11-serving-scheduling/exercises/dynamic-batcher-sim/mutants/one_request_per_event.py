def dynamic_batches(requests, max_batch_size, preferred_batch_size=(), max_queue_delay_us=0):
    """The batches Triton's dynamic batcher forms from a timestamped trace: [(dispatch time in us, [request ids])]."""
    preferred = set(preferred_batch_size) or {max_batch_size}  # Triton's default: the max batch size
    max_preferred = max(preferred)
    queue, out, i = [], [], 0
    now = requests[0][0] if requests else 0
    while i < len(requests) or queue:
        if i < len(requests) and requests[i][0] <= now:
            queue.append(i)
            i += 1
        wake = None
        while queue:
            pending = count = best_count = best_size = 0
            full = False
            for rid in queue:
                size = requests[rid][1]
                if count:
                    if pending + size > max_preferred and not best_size:
                        best_size, best_count = pending, count  # it can no longer reach a preferred size
                    if pending + size > max_batch_size:
                        full = True
                        break
                pending += size
                count += 1
                if pending in preferred:
                    best_size, best_count = pending, count
            oldest = requests[queue[0]][0]
            exceeded = max_queue_delay_us > 0 and now - oldest >= max_queue_delay_us
            if best_size and not exceeded:
                take = best_count
            elif full or pending >= max_preferred or exceeded or max_queue_delay_us == 0:
                take = count
            else:
                wake = oldest + max_queue_delay_us
                break
            out.append((now, queue[:take]))
            queue = queue[take:]
        arrival = requests[i][0] if i < len(requests) else None
        now = min(t for t in (wake, arrival) if t is not None) if queue or arrival is not None else now
    return out
