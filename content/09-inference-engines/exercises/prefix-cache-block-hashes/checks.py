"""Block keys judged by what they must tell apart (a block's whole prefix and the salt), and a reference allocator
that keys blocks by that prefix itself."""

from quiz.grader.say import say


class Model:
    """Keys a full block by (salt, every token up to the block's end): what a chained hash stands for."""

    def __init__(self, block_size):
        self.bs, self.cached, self.next_id = block_size, {}, 0

    def keys(self, tokens, salt=None):
        return [(salt, tuple(tokens[: (i + 1) * self.bs])) for i in range(len(tokens) // self.bs)]

    def allocate(self, tokens, salt=None):
        keys = self.keys(tokens, salt)
        ids = []
        for key in keys[: (len(tokens) - 1) // self.bs]:
            if key not in self.cached:
                break
            ids.append(self.cached[key])
        hit = len(ids) * self.bs
        for i in range(len(ids), -(-len(tokens) // self.bs)):
            ids.append(self.next_id)
            if i < len(keys):
                self.cached.setdefault(keys[i], self.next_id)
            self.next_id += 1
        return ids, hit


def _keys(cache, tokens, salt=None, bs=4):
    got = cache.block_hashes(tokens) if salt is None else cache.block_hashes(tokens, salt=salt)
    assert isinstance(got, (list, tuple)), say(f"block_hashes should return a list, got {type(got).__name__}",
                                               f"block_hashes 应返回列表，实际是 {type(got).__name__}")
    for k in got:
        assert isinstance(k, (str, int)) and not isinstance(k, bool), say(
            f"each block key should be a str (a hex digest) or an int, got {type(k).__name__}",
            f"每个块的 key 应是 str（十六进制摘要）或 int，实际是 {type(k).__name__}")
    want = len(tokens) // bs
    assert len(got) == want, say(
        f"{len(tokens)} tokens with block_size {bs} make {want} full block(s), so {want} key(s); got {len(got)}"
        + (". A partial block has no key: its contents are not final, and hashing it would let a later request "
           "share a block that is still being filled" if len(got) > want else ""),
        f"{len(tokens)} 个 token、block_size 为 {bs} 时有 {want} 个满块，所以应有 {want} 个 key；实际有 {len(got)} 个"
        + ("。未满的块没有 key：它的内容还没定下来，给它算 hash 会让后来的请求共享一个仍在写入的块" if len(got) > want else ""))
    return list(got)


A = list(range(100, 110))  # 10 tokens: blocks [100..103], [104..107] and a partial [108, 109]


def test_only_full_blocks_get_keys(entry):
    cache = entry(4)
    for n in (10, 8, 3, 4, 0):
        _keys(cache, A[:n])


def test_equal_prefixes_get_equal_keys(entry):
    cache = entry(4)
    first = _keys(cache, A)
    again = _keys(cache, list(A))
    assert first == again, say("block_hashes gave different keys for the same tokens twice: keys must be deterministic",
                               "同样的 token 两次调用 block_hashes 得到了不同的 key：key 必须是确定的")
    other = _keys(cache, A[:8] + [7, 7, 7, 7, 7])
    assert other[:2] == first[:2], say(
        "two prompts share their first 8 tokens (2 full blocks of 4), so their first 2 keys must be equal; "
        f"got {other[:2]} and {first[:2]}",
        f"两个 prompt 的前 8 个 token（2 个 4-token 满块）相同，所以前 2 个 key 必须相等；实际是 {other[:2]} 和 {first[:2]}")


def test_keys_chain_through_the_prefix(entry):
    cache = entry(4)
    x = _keys(cache, [1, 2, 3, 4, 9, 9, 9, 9])
    y = _keys(cache, [5, 6, 7, 8, 9, 9, 9, 9])
    assert x[1] != y[1], say(
        "[1, 2, 3, 4, 9, 9, 9, 9] and [5, 6, 7, 8, 9, 9, 9, 9]: block 1 holds the same tokens but follows a different "
        "block 0, and its KV depends on everything before it. Its key must differ: hash the parent block's key "
        "together with the block's tokens",
        "[1, 2, 3, 4, 9, 9, 9, 9] 与 [5, 6, 7, 8, 9, 9, 9, 9]：块 1 的 token 相同，但前面的块 0 不同，而它的 KV "
        "取决于之前的所有 token。它的 key 必须不同：把父块的 key 和本块的 token 一起 hash")


def test_a_change_reaches_every_later_key(entry):
    cache = entry(4)
    base = list(range(16))
    changed = list(base)
    changed[5] = 99  # inside block 1
    a, b = _keys(cache, base), _keys(cache, changed)
    assert a[0] == b[0], say("changing token 5 must not change block 0's key (tokens 0-3)",
                             "修改第 5 个 token 不能改变块 0（token 0-3）的 key")
    same = [i for i in (1, 2, 3) if a[i] == b[i]]
    assert not same, say(
        f"changing token 5 (in block 1) must change the keys of blocks 1, 2 and 3, but block(s) {same} kept theirs: "
        "each key must depend on the whole prefix, through the parent's key",
        f"修改第 5 个 token（在块 1 中）必须改变块 1、2、3 的 key，但块 {same} 的 key 没变："
        "每个 key 都必须通过父块的 key 依赖整个前缀")


def test_salt_separates_tenants(entry):
    cache = entry(4)
    plain = _keys(cache, A)
    one, two = _keys(cache, A, "tenant-1"), _keys(cache, A, "tenant-2")
    again = _keys(cache, A, "tenant-1")
    assert one == again, say("the same tokens with the same salt must give the same keys",
                             "相同的 token 加相同的 salt 必须得到相同的 key")
    clash = [i for i in range(len(plain)) if len({plain[i], one[i], two[i]}) < 3]
    assert not clash, say(
        f"no salt, salt 'tenant-1' and salt 'tenant-2' must give different keys for every block, but block(s) {clash} "
        "share one: put the salt into the first block's hash, and the chain carries it to every later block "
        "(what vLLM's cache_salt does, keeping cache reuse inside one tenant)",
        f"不加 salt、salt 'tenant-1'、salt 'tenant-2' 三者的每个块都必须得到不同的 key，但块 {clash} 的 key 相同："
        "把 salt 放进第一个块的 hash，链式 hash 会把它带到后面每个块（vLLM 的 cache_salt 就是这样，"
        "把缓存复用限制在同一租户之内）")


def _allocate(cache, model, tokens, note, salt=None):
    got = cache.allocate(tokens) if salt is None else cache.allocate(tokens, salt=salt)
    want = model.allocate(tokens, salt)
    assert isinstance(got, (list, tuple)) and len(got) == 2, say("allocate should return (block_ids, num_cached_tokens)",
                                                                 "allocate 应返回 (block_ids, num_cached_tokens)")
    ids, hit = got
    ids = list(ids) if isinstance(ids, (list, tuple)) else ids
    if (ids, hit) != (list(want[0]), want[1]):
        en, zh = note
        extra = ("", "")
        n = len(tokens)
        if n % model.bs == 0 and hit == want[1] + model.bs and want[1] == (n // model.bs - 1) * model.bs:
            extra = (" Every block hit, but at most len(tokens) - 1 tokens may come from the cache: the last token must "
                     "still run through the model to produce the logits, so vLLM caps the hit at num_tokens - 1 and "
                     "recomputes the whole last block.",
                     "每个块都命中了，但最多只能有 len(tokens) - 1 个 token 来自缓存：最后一个 token 仍要经过模型才能得到"
                     " logits，所以 vLLM 把命中上限设为 num_tokens - 1，并重算整个最后一块。")
        k = want[1] // model.bs
        if hit == want[1] and k and isinstance(ids, list) and ids[:k] != want[0][:k]:
            extra = (f" The hit is counted, but the first {k} block(s) must be the cached blocks {want[0][:k]} themselves: "
                     "reusing the block ids is what saves the memory and the prefill.",
                     f"命中数算对了，但前 {k} 个块必须就是已缓存的块 {want[0][:k]}：复用块 id 才真正省下显存和 prefill。")
        raise AssertionError(say(
            f"{en}: allocate({len(tokens)} tokens) should return ({want[0]}, {want[1]}), got ({ids}, {hit!r}).{extra[0]}",
            f"{zh}：allocate({len(tokens)} 个 token) 应返回 ({want[0]}, {want[1]})，实际是 ({ids}, {hit!r})。{extra[1]}"))


def test_allocate_shares_a_common_prefix(entry):
    cache, model = entry(4), Model(4)
    _allocate(cache, model, A, ("the first request (nothing cached yet)", "第一个请求（还没有任何缓存）"))
    _allocate(cache, model, A[:8] + [1, 2, 3], ("a request sharing the first 8 tokens",
                                                 "一个与前者共享前 8 个 token 的请求"))
    _allocate(cache, model, [5] + A[1:], ("a request that differs in its first token",
                                          "一个第一个 token 就不同的请求"))
    _allocate(cache, model, A[:8] + [1, 2, 3, 4, 0], ("a third request that shares 11 tokens with the second",
                                                     "第三个请求，与第二个共享 11 个 token"))


def test_a_full_hit_still_computes_the_last_token(entry):
    cache, model = entry(4), Model(4)
    _allocate(cache, model, A[:8], ("8 tokens, the first time", "8 个 token，第一次"))
    _allocate(cache, model, A[:8], ("the same 8 tokens again", "同样的 8 个 token 再来一次"))
    _allocate(cache, model, A[:9], ("the same 8 tokens and one more", "同样的 8 个 token 再加一个"))


def test_salted_requests_do_not_share(entry):
    cache, model = entry(4), Model(4)
    _allocate(cache, model, A, ("tenant-1's request", "tenant-1 的请求"), salt="tenant-1")
    _allocate(cache, model, A, ("the same prompt from tenant-2", "tenant-2 发来的相同 prompt"), salt="tenant-2")
    _allocate(cache, model, A, ("the same prompt from tenant-1 again", "tenant-1 再次发来相同 prompt"), salt="tenant-1")
