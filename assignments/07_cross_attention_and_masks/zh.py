"""The Chinese of 07_cross_attention_and_masks's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    "queries 100 times larger (scores in the hundreds) gave nan or inf: use torch.softmax, "
    "which takes each row's largest score off first (a softmax written with torch.exp "
    "overflows)":
        "查询放大 100 倍（分数几百）时出现了 nan 或 inf：请用 torch.softmax，它会先减去每行"
        "最大的分数（直接用 torch.exp 写的 softmax 会溢出）",
    "queries 100 times larger should still give the output of "
    "torch.nn.functional.scaled_dot_product_attention":
        "查询放大 100 倍时，输出仍应等于 torch.nn.functional.scaled_dot_product_attention 的输出",
    "Queries a hundred times larger (scores in the hundreds) still give torch's output":
        "查询放大一百倍（分数几百）时输出仍等于 torch 的输出",
    "scores in the thousands gave nan or inf: use torch.softmax, which takes each row's "
    "largest score off first (a softmax written with torch.exp overflows)":
        "分数上千时出现了 nan 或 inf：请用 torch.softmax，它会先减去每行最大的分数"
        "（直接用 torch.exp 写的 softmax 会溢出）",
    "Scores in the thousands still give finite weights": "分数上千时注意力权重仍是有限的数",
    "scores in the thousands should still give the softmax's weights (clamping the scores "
    "changes them)":
        "分数上千时仍应得到 softmax 的权重（截断分数会改变权重）",
    'causal_mask(1) should be a (1, 1) mask hiding nothing':
        'causal_mask(1) 应是不掩码任何位置的 (1, 1) 掩码',
    'the mask should be a tensor of dtype torch.bool': '掩码应是 dtype 为 torch.bool 的张量',
    'causal_mask({n}) should have shape ({n}, {n})': 'causal_mask({n}) 的形状应为 ({n}, {n})',
    'a position may always look at itself': '每个位置总能关注它自己',
    'the last position may look at every position': '最后一个位置可以关注所有位置',
    'the first position may look at nothing after it': '第一个位置不能关注它后面的任何位置',
    'masked weights should be exactly 0': '被掩码的注意力权重应恰好为 0',
    'a query whose every key is masked gives nan: it should give a row of zeros':
        '所有键都被掩码的查询得到了 nan：它应得到一行 0',
    'a query whose every key is masked should get all zeros':
        '所有键都被掩码的查询，注意力权重应全为 0',
    'random case {number} ({n_query} queries, {n_context} context positions)':
        '随机用例 {number}（{n_query} 个查询，{n_context} 个上下文位置）',
    'with one sequence as both x_query and x_context, cross-attention should be self-attention':
        'x_query 和 x_context 是同一个序列时，交叉注意力应等于自注意力',
    'reordering the rows of x_context should change nothing in the output':
        '打乱 x_context 的行，输出不应有任何变化',
    'reordering the rows of x_query should reorder the output rows in the same way':
        '打乱 x_query 的行，输出的行也应以同样的方式打乱',
    'the output should equal torch.nn.functional.scaled_dot_product_attention on the projected '
    'queries, keys and values':
        '输出应等于对投影后的查询、键和值调用 torch.nn.functional.scaled_dot_product_attention '
        '的结果',
    'under a causal mask, the weights should equal those of '
    'torch.nn.functional.scaled_dot_product_attention':
        '在因果掩码下，注意力权重应与 torch.nn.functional.scaled_dot_product_attention 的相同',
    'four positions': '四个位置',
    '{n} positions': '{n} 个位置',
    'the mask should be True exactly where key > query':
        '掩码应当恰好在键的位置大于查询的位置处为 True',
    'random mask ({n_query} queries, {n_key} keys, d_k = {d_k})':
        '随机掩码（{n_query} 个查询，{n_key} 个键，d_k = {d_k}）',
    'causal mask ({n} positions, d_k = {d_k})': '因果掩码（{n} 个位置，d_k = {d_k}）',
    'batch of {batch}, one causal mask for all ({n} positions, d_k = {d_k})':
        '{batch} 个序列组成的一批，共用一个因果掩码（{n} 个位置，d_k = {d_k}）',
    'padding mask of shape ({n_key},), broadcast over {n_query} queries':
        '形状为 ({n_key},) 的填充掩码，广播到 {n_query} 个查询上',
    'one query with every key masked ({n_query} queries, {n_key} keys)':
        '有一个查询的所有键都被掩码（{n_query} 个查询，{n_key} 个键）',
    'weights of each query (masked ones left out)': '每个查询的注意力权重（被掩码的不计）',
    'queries taken from the context': '查询取自上下文序列',
    'the queries come from x_query (one output row per query); keys and values come from '
    'x_context':
        '查询来自 x_query（每个查询对应输出的一行）；键和值来自 x_context',
    'scale the scores by 1/sqrt(d_k), d_k the size of the keys, before the softmax':
        '在 softmax 之前把注意力分数乘以 1/sqrt(d_k)，d_k 是键的维度',
    'softmax over the queries': '沿查询方向做了 softmax',
    "each query's weights over the context positions sum to 1: normalise along the context axis "
    'of the scores':
        '每个查询在所有上下文位置上的注意力权重之和为 1：应沿注意力分数中上下文所在的轴归一化',
    'causal mask inverted': '因果掩码取反了',
    'True marks what a query must NOT see: the positions after it':
        'True 标出的是查询不能看的位置：也就是它后面的位置',
    'causal mask hides the diagonal': '因果掩码把对角线也掩码掉了',
    'a position may look at itself; only the positions strictly after it are hidden':
        '每个位置可以关注它自己；只有严格在它后面的位置才被掩码',
    'mask of 0/1 floats instead of booleans': '掩码是 0/1 浮点数而不是布尔值',
    'the mask must have dtype torch.bool so that it can select and fill positions':
        '掩码的 dtype 必须是 torch.bool，才能用来选取和填充位置',
    'masked positions must be left out before normalising, so that the weights left in each row '
    'still sum to 1':
        '被掩码的位置必须在归一化之前排除，这样每行剩下的注意力权重之和仍为 1',
    'masked scores set to 0 instead of -inf': '被掩码的分数设成了 0 而不是 -inf',
    'a score of 0 still gets weight, since e^0 = 1; a masked score must give e^score = 0':
        '分数为 0 仍会分到权重，因为 e^0 = 1；被掩码的分数必须使 e^score = 0',
    'nan for a query with every key masked': '所有键都被掩码的查询得到 nan',
    'when every score of a row is -inf the softmax divides 0 by 0; make such rows 0':
        '一行的分数全是 -inf 时，softmax 会算 0 除以 0；要把这样的行设为 0',
    # the hidden properties, in words (their docstrings' first line)
    'Cross-attention of a sequence with itself is self-attention':
        '序列与自身做交叉注意力，就是自注意力',
    'Reordering the context rows changes nothing':
        '打乱上下文序列的行，结果不变',
    'Reordering the query rows reorders the output rows the same way':
        '打乱查询的行，输出行按同样的方式重新排列',
    "The output matches torch's scaled_dot_product_attention on the projected inputs":
        '输出与 torch 的 scaled_dot_product_attention 在投影后的输入上的结果一致',
    'The mask is a bool tensor that hides exactly the future positions':
        '掩码是布尔张量，恰好掩码掉未来的位置',
    "Masked weights are exactly 0 and each query's weights sum to 1":
        '被掩码的注意力权重恰好为 0，每个查询的注意力权重之和为 1',
    'A query whose every key is masked gets a row of zeros':
        '所有键都被掩码的查询得到一行 0',
    "Under a causal mask, the weights match torch's scaled_dot_product_attention":
        '加上因果掩码后，注意力权重与 torch 的 scaled_dot_product_attention 一致',
    # the labels of its figures (figures.py)
    'weights':
        '注意力权重',
    'output':
        '输出',
    'one row per query;\nrows of weights sum to 1':
        '每个查询一行；\n每行注意力权重之和为 1',
    'mask':
        '掩码',
    'scores':
        '注意力分数',
    'fill $-\\infty$':
        '填入 −∞',
    'query':
        '查询',
    'key':
        '键',
    'each row sums to 1':
        '每行之和为 1',
    'allowed (False)':
        '可以看（False）',
    'masked (True)':
        '被掩码（True）',
}
