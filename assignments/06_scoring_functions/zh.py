"""The Chinese of 06_scoring_functions's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    '{what} should be a 0-dim tensor (one number), not {kind} of shape {shape}':
        '{what} 应返回 0 维张量（一个数），而不是形状为 {shape} 的 {kind}',
    'random case with keys and queries of one size (d = {d}, d_a = {d_a})':
        '键与查询维度相同的随机用例（d = {d}，d_a = {d_a}）',
    'the additive score should never exceed sum(|v|) in size (tanh lies in [-1, 1])':
        '加性模型分数的绝对值不应超过 sum(|v|)（tanh 的取值在 [-1, 1] 内）',
    "{example}: H as the source's double loop printed it":
        '{example}：资料中双重循环打印的 H',
    'dot_score(k, q) should equal dot_score(q, k)': 'dot_score(k, q) 应等于 dot_score(q, k)',
    'tripling q should triple the dot score': 'q 乘以 3，点积分数也应乘以 3',
    'scaled_dot_score should be k . q / sqrt(d)': 'scaled_dot_score 应等于 k . q / sqrt(d)',
    'vectors 4 times as long (k repeated, q repeated) should double the scaled score':
        '向量长度变为 4 倍（k 和 q 各自重复 4 次）时，缩放点积分数应变为 2 倍',
    'random case {number} (d_k = {d_k}, d_q = {d_q}, d_a = {d_a})':
        '随机用例 {number}（d_k = {d_k}，d_q = {d_q}，d_a = {d_a}）',
    'doubling v should double the additive score': 'v 加倍，加性模型的分数也应加倍',
    'multiplying k by -2 should multiply the bilinear score by -2':
        'k 乘以 -2，双线性模型的分数也应乘以 -2',
    'with W the identity, the bilinear score should be the dot score':
        'W 为单位矩阵时，双线性模型的分数应等于点积分数',
    'random case {number} (d1 = {d1}, N = {n}, d3 = {d3}, d2 = {d2})':
        '随机用例 {number}（d1 = {d1}，N = {n}，d3 = {d3}，d2 = {d2}）',
    'permuting the columns of X should permute the columns of H in the same way':
        '打乱 X 的列，H 的列也应以同样的方式打乱',
    'H should equal torch.nn.functional.scaled_dot_product_attention on the transposed queries, '
    'keys and values, transposed back':
        'H 应等于把查询、键和值转置后交给 '
        'torch.nn.functional.scaled_dot_product_attention、再把结果转置回来所得的矩阵',
    'random case with a square, non-symmetric W (d = {d})': 'W 为非对称方阵的随机用例（d = {d}）',
    'random case {number} (d = {d})': '随机用例 {number}（d = {d}）',
    'random case {number} (d_k = {d_k}, d_q = {d_q})':
        '随机用例 {number}（d_k = {d_k}，d_q = {d_q}）',
    'elementwise product not summed': '逐元素乘积没有求和',
    'k * q multiplies entry by entry; a score is one number, the sum of those products':
        'k * q 是逐元素相乘；分数是一个数，即这些乘积之和',
    'scaled by d instead of sqrt(d)': '除以了 d 而不是 sqrt(d)',
    "divide by the square root of the vectors' length, not by the length itself":
        '应除以向量长度的平方根，而不是长度本身',
    'not scaled': '没有缩放',
    "the scaled dot score divides k . q by the square root of the vectors' length":
        '缩放点积分数要把 k . q 除以向量长度的平方根',
    'W and U swapped': 'W 和 U 用反了',
    'W acts on the key (W is (d_a, d_k)) and U on the query (U is (d_a, d_q))':
        'W 作用于键（W 的形状为 (d_a, d_k)），U 作用于查询（U 的形状为 (d_a, d_q)）',
    'tanh left out': '漏掉了 tanh',
    'the additive model passes W k + U q through tanh before the dot product with v':
        '加性模型先让 W k + U q 经过 tanh，再与 v 做点积',
    'bilinear matrix transposed': '双线性模型的矩阵被转置了',
    'W is (d_k, d_q): it multiplies the query, and the key is dotted with the result':
        'W 的形状是 (d_k, d_q)：先用它乘查询，再让键与结果做点积',
    'query and key indices swapped': '查询和键的下标颠倒了',
    'for output i, score every key j against query i: s(k_j, q_i), then softmax over j':
        '对输出 i，用查询 i 给每个键 j 打分：s(k_j, q_i)，再对 j 做 softmax',
    'outputs stacked as rows': '把输出按行堆叠了',
    "in this notebook's column convention each output h_i is a column: H is (d2, N)":
        '本作业采用列约定，每个输出 h_i 是一列：H 的形状是 (d2, N)',
    'calls scaled_dot_score for each query and key': '对每一对查询和键都调用 scaled_dot_score',
    'this step is the loop over queries and keys, each key scored against each query with '
    'your scaled_dot_score':
        '这一步要写的正是对查询和键的循环，用你写的 scaled_dot_score 给每个键对每个查询打分',
    "each query's weights over the keys must sum to 1; check which axis of your score matrix "
    'holds the keys':
        '每个查询在所有键上的注意力权重之和必须为 1；看看你的分数矩阵中哪一个轴对应键',
    'no 1/sqrt(d)': '缺少 1/sqrt(d)',
    'the loop scores with the scaled dot product: divide by the square root of the query/key size':
        '循环版本用缩放点积打分：要除以查询/键维度的平方根',
    'scaled by the value size': '按值向量的维度做了缩放',
    'd in 1/sqrt(d) is the size of the queries and keys (the rows of W_Q), not of the values':
        '1/sqrt(d) 中的 d 是查询和键的维度（W_Q 的行数），不是值向量的维度',
    'no Python loop': '不用 Python 循环',
    'no work repeated per query': '不为每个查询重复运算',
    'no call to loop_attention or scaled_dot_score': '不调用 loop_attention 或 scaled_dot_score',
    'the point is to replace the loop by matrix products': '这一步的目的正是用矩阵乘法取代循环',
    # the hidden properties, in words (their docstrings' first line)
    'The dot score is symmetric and grows in proportion to q':
        '点积分数对称，并且随 q 成比例变化',
    'The scaled dot score is k · q divided by sqrt(d)':
        '缩放点积分数等于 k · q 除以 sqrt(d)',
    'The additive score grows in proportion to v and stays within sum(|v|)':
        '加性分数随 v 成比例变化，且绝对值不超过 sum(|v|)',
    'The bilinear score is linear in k and is the dot score when W is the identity':
        '双线性分数对 k 是线性的，W 为单位矩阵时就是点积分数',
    'Reordering the columns of X reorders the columns of H the same way':
        '打乱 X 的列，H 的列按同样的方式重新排列',
    "H matches torch's scaled_dot_product_attention":
        'H 与 torch 的 scaled_dot_product_attention 一致',
    # the labels of its figures (figures.py)
    'rows: $x\\,W$':
        '行：x W',
    'columns: $W^\\top X$':
        '列：Wᵀ X',
    'input $i$: row $i$ of $x$, column $i$ of $X$;   $W^\\top X = (x\\,W)^\\top$':
        '输入 i：x 的第 i 行，X 的第 i 列；   Wᵀ X = (x W)ᵀ',
}
