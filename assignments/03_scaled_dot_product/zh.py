"""The Chinese of 03_scaled_dot_product's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    'projecting all rows at once should give, in row i, the projection of row i alone':
        '一次投影所有行时，结果的第 i 行应等于单独投影第 i 行的结果',
    "adding the same number to all of one query's scores should not change its weights":
        '给同一个查询的所有注意力分数加上同一个数，不应改变它的注意力权重',
    'Scores in the thousands still give finite weights': '分数上千时注意力权重仍是有限的数',
    "scores in the thousands must still give the softmax's weights (clamping the scores "
    "changes them): subtract each query's largest score instead":
        "分数上千时仍应得到 softmax 的权重（截断分数会改变权重）：请改为减去每个查询最大的分数",
    "scores in the thousands must give finite weights (no nan, no inf): subtract each query's "
    'largest score before torch.exp, as in assignment 1':
        '分数上千时注意力权重也必须是有限的数（不能有 nan 或 inf）：'
        '在 torch.exp 之前先减去每个查询的最大分数，和作业 1 一样',
    "the context should equal torch.nn.functional.scaled_dot_product_attention's output":
        '上下文向量应与 torch.nn.functional.scaled_dot_product_attention 的输出相同',
    'with a causal mask the context should equal '
    "torch.nn.functional.scaled_dot_product_attention's output (whose bool mask is True where "
    'allowed)':
        '加上因果掩码后，上下文向量应与 torch.nn.functional.scaled_dot_product_attention '
        '的输出相同（注意它的布尔掩码在允许关注的位置为 True）',
    'every masked weight should be exactly 0': '每个被掩码的注意力权重都应恰好为 0',
    'a query with every key masked should give zeros, not nan':
        '所有键都被掩码的查询应得到 0，而不是 nan',
    'a query with every key masked should get all-zero weights and a zero context':
        '所有键都被掩码的查询，注意力权重应全为 0，上下文向量也应为零向量',
    'random case {number} ({seq}x{d_in} @ {d_in}x{d_out})':
        '随机用例 {number}（{seq}x{d_in} @ {d_in}x{d_out}）',
    "{example}: query 3's scores, project(query_3, keys.T)":
        '{example}：查询 3 的注意力分数，project(query_3, keys.T)',
    "{example}: query 2's score against word 5, project(q_2, keys[4:5].T)":
        '{example}：查询 2 对第 5 个词的注意力分数，project(q_2, keys[4:5].T)',
    "{example}: query 2's scores, project(q_2, keys.T)":
        '{example}：查询 2 的注意力分数，project(q_2, keys.T)',
    'a square weight': '方阵形式的权重矩阵',
    'a batch of sequences': '一批序列',
    'a single row': '单独一行',
    "{example}: query {query}'s weights (d_k = {d_k})":
        '{example}：查询 {query} 的注意力权重（d_k = {d_k}）',
    "{example}: query {query}'s weights, a saturated softmax (d_k = {d_k})":
        '{example}：查询 {query} 的注意力权重，softmax 已饱和（d_k = {d_k}）',
    'random batched case (d_k = {d_k})': '随机的批量用例（d_k = {d_k}）',
    "one query's scores (d_k = {d_k})": '单个查询的注意力分数（d_k = {d_k}）',
    'weights of each query': '每个查询的注意力权重',
    "{example}: query {query}'s context and weights":
        '{example}：查询 {query} 的上下文向量和注意力权重',
    'one query (1-d)': '单个查询（一维）',
    'a batch of {batch}': '{batch} 个序列组成的一批',
    'a mask with one row fully masked': '有一整行全为 True 的掩码',
    'a batch of {batch} with a mask per sequence':
        '{batch} 个序列组成的一批，每个序列各有一个掩码',
    'a padding mask of shape (seq,), the same for every query':
        '形状为 (seq,) 的填充掩码，所有查询共用',
    'weights of each query under a causal mask': '因果掩码下每个查询的注意力权重',
    'random case {number} ({n} queries, {seq} keys, d_k = {d_k})':
        '随机用例 {number}（{n} 个查询，{seq} 个键，d_k = {d_k}）',
    'weight applied from the left': '权重矩阵乘在了左边',
    'in the row convention the input comes first and W is (d_in, d_out): multiply x by W in that '
    'order, with W as it is':
        '在行约定下输入在前，W 的形状是 (d_in, d_out)：按 x 在前、W 在后的顺序相乘，W 不要转置',
    'd_k instead of sqrt(d_k)': '除以了 d_k 而不是 sqrt(d_k)',
    'the scores are divided by the square root of d_k, not by d_k itself':
        '注意力分数要除以 d_k 的平方根，而不是 d_k 本身',
    "each query's scores lie along the last dim: normalise along dim=-1":
        '每个查询的注意力分数排在最后一维上：应沿 dim=-1 归一化',
    'multiplied by sqrt(d_k)': '乘以了 sqrt(d_k)',
    'the scaling makes the scores smaller: divide by sqrt(d_k), do not multiply':
        '缩放是为了让注意力分数变小：应除以 sqrt(d_k)，而不是乘以它',
    'the scale comes from the size of the keys (and queries), keys.shape[-1], not from the values':
        '缩放因子由键（和查询）的维度 keys.shape[-1] 决定，与值向量无关',
    'divide the scores by sqrt(d_k) before the softmax (scaled_softmax does it)':
        '在 softmax 之前把注意力分数除以 sqrt(d_k)（scaled_softmax 会替你做）',
    'hide the masked scores before the softmax (set them to -inf), so the weights that remain '
    'still sum to 1':
        '在 softmax 之前把被掩码的注意力分数设为 -inf，这样剩下的注意力权重之和仍为 1',
    'fully masked row gives nan': '整行被掩码时得到 nan',
    'a query whose keys are all masked has softmax(-inf, ..., -inf) = nan; set its masked '
    'weights to exactly 0 after the softmax':
        '某个查询的键全被掩码时，softmax(-inf, ..., -inf) = nan；请在 softmax '
        '之后把被掩码的注意力权重设为恰好 0',
    # the hidden properties, in words (their docstrings' first line)
    "Projecting all rows at once gives each row's own projection":
        '一次投影所有行，与逐行单独投影的结果相同',
    "Each query's weights sum to 1":
        '每个查询的注意力权重之和为 1',
    "Adding one number to all of a query's scores leaves its weights unchanged":
        '给一个查询的所有注意力分数加上同一个数，它的注意力权重不变',
    "The context matches torch's scaled_dot_product_attention on fresh random inputs":
        '在新的随机输入上，上下文向量与 torch 的 scaled_dot_product_attention 一致',
    "With a causal mask, the context matches torch's scaled_dot_product_attention":
        '加上因果掩码后，上下文向量与 torch 的 scaled_dot_product_attention 一致',
    "Each query's weights sum to 1, with and without a causal mask":
        '无论有没有因果掩码，每个查询的注意力权重之和都为 1',
    'Every masked weight is exactly 0':
        '每个被掩码的注意力权重都恰好为 0',
    'A query with every key masked gets zero weights and a zero context':
        '所有键都被掩码的查询得到全零的注意力权重和零上下文向量',
    # the labels of its figures (figures.py)
    '$d_k = {d_k}$: scores span {spread:.0f}':
        'dₖ = {d_k}：分数跨度 {spread:.0f}',
    'key $j$':
        '键 j',
}
