"""The hidden checks in Chinese: every text a student reads in a step's verdict.

Keys are the English texts of autograder/checks/: the templates passed to `t` (fields in
braces, filled after the lookup), the catalogued mistakes' names and hints, the rules' names
and reasons, and the worked examples' names (documents.EXAMPLES). Terms follow GLOSSARY.md.
tests/autograder/checks/test_messages_zh.py fails when a text of the checks has no entry here.
"""

CATALOG = {
    # --- the verdict (checks/judge.py, checks/hidden.py) --------------------------------------
    "{name} does not pass the hidden checks:": "{name} 未通过隐藏检查：",
    "... and {more} more": "……另有 {more} 条",
    "known mistake '{name}': {hint}": "常见错误“{name}”：{hint}",
    "rule broken: {problem}": "违反规则：{problem}",
    "{case}: {problem}": "{case}：{problem}",
    "not implemented yet (the stub still raises NotImplementedError)":
        "尚未实现（待完成的函数仍在抛出 NotImplementedError）",
    "raised {kind}: {message}": "抛出了 {kind}：{message}",
    "raised {kind}: {message} (called with {arguments}; compare each operation's shapes with "
    "the step's docstring)":
        "抛出了 {kind}：{message}（调用时的参数：{arguments}；请对照这一步的文档字符串，"
        "逐个核对每步运算的形状）",
    "output is not of the kind the step returns ({kind})":
        "输出的类型不是这一步应当返回的类型（{kind}）",
    "property: {message}": "性质检查：{message}",
    "property {name}: {problem}": "性质检查 {name}：{problem}",
    "{rule}: the grader could not read the code to verify this rule ({kind})":
        "{rule}：评分程序无法读取这段代码，因而无法核验这条规则（{kind}）",
    "{name} is not defined: run the cell that defines it, and keep its name":
        "{name} 尚未定义：请运行定义它的单元格，并且不要改动它的名字",
    "{name}: every hidden check passed": "{name}：全部隐藏检查均已通过",
    # how an argument is described when the student's code raises (judge.shape_of)
    "a {shape} {dtype} tensor": "形状为 {shape} 的 {dtype} 张量",
    "a {kind} of {count}": "含 {count} 项的 {kind}",
    "a {kind}": "{kind} 对象",
    # --- how an output differs (checks/compare.py) -------------------------------------------
    "output": "输出",
    "{where} should be a sequence of {count} items": "{where}应是含 {count} 项的序列",
    "{where} should be a dict, got {kind}": "{where}应是 dict，实际得到的是 {kind}",
    "{where} has the wrong keys": "{where}的字典键不对",
    "{where} numbers some keys wrongly": "{where}中有些字典键的编号不对",
    "{where} is wrong": "{where}不对",
    "{where} should be a torch.Tensor, got {kind}": "{where}应是 torch.Tensor，实际得到的是 {kind}",
    "{where} has shape {got}, expected {want}": "{where}的形状是 {got}，应为 {want}",
    "{where} has dtype {got}, expected {want}": "{where}的 dtype 是 {got}，应为 {want}",
    "{where} has the right shape but wrong entries": "{where}的形状正确，但有元素不对",
    "{where} contains nan": "{where}中出现了 nan",
    "{where} contains inf": "{where}中出现了 inf",
    "{where}: {detail}": "{where}：{detail}",
    "the number is off by {gap:.3g}": "这个数相差 {gap:.3g}",
    "{wrong} of {total} numbers are wrong; the first at index {first}, the largest difference "
    "({gap:.3g}) at index {largest}":
        "{total} 个数中有 {wrong} 个不对；第一个错在索引 {first}，"
        "最大的差（{gap:.3g}）在索引 {largest}",
    "{what}: the shape is wrong": "{what}：形状不对",
    # --- rules (checks/common.py) ------------------------------------------------------------
    "{rule}: {broken} ({why})": "{rule}：{broken}（{why}）",
    "{rule}: the grader cannot find the code that defines it, so it cannot verify this rule "
    "({why}); define it with def or class":
        "{rule}：评分程序找不到定义它的代码，无法核验这条规则（{why}）；"
        "请用 def 或 class 来定义它",
    "{rule}: the grader cannot verify this rule because {reason} ({why}); call what you need "
    "by name":
        "{rule}：评分程序无法核验这条规则，因为{reason}（{why}）；请直接写出要调用的函数名",
    "it calls {name}()": "代码调用了 {name}()",
    "it calls {name}() with a name computed at run time":
        "代码调用 {name}() 时用的名字要到运行时才算出来",
    "it uses {name}": "代码用到了 {name}",
    "it imports * from a module": "代码用 import * 从模块导入了全部名字",
    "the {what} along dim {dim} should sum to 1": "{what}沿 dim {dim} 求和应为 1",
    "weights": "注意力权重",
    # --- the worked examples, as the notebooks name them (checks/documents.py EXAMPLES) ------
    "the sentence 'Life is short, eat dessert first'": "句子“Life is short, eat dessert first”",
    "the sentence 'The sun rises in the east'": "句子“The sun rises in the east”",
    "the sentence 'Life is short, eat dessert last'": "句子“Life is short, eat dessert last”",
    "the seeded 4x4 input of the loop": "双重循环示例中按固定种子生成的 4x4 输入",
    "the hand-sized example": "手算示例",
    # --- labels shared by several steps -------------------------------------------------------
    "random case {number}": "随机用例 {number}",
    "random batched case": "随机的批量用例",
    # --- 01 attention by hand -----------------------------------------------------------------
    "{example}: queries, keys and values": "{example}：查询、键和值",
    "{example}: scores of all three queries": "{example}：全部三个查询的注意力分数",
    "{example}: scores of query {query}": "{example}：查询 {query} 的注意力分数",
    "random case {number} ({n} queries, {seq} keys)": "随机用例 {number}（{n} 个查询，{seq} 个键）",
    "{example}: softmax of the scores": "{example}：注意力分数的 softmax",
    "random case {number} (dim={dim})": "随机用例 {number}（dim={dim}）",
    "scores of size 1e4": "量级为 1e4 的注意力分数",
    "random case {number} (dim left out)": "随机用例 {number}（不传 dim）",
    "scores of 1e4 must give finite weights (no nan, no inf)":
        "注意力分数达到 1e4 时，注意力权重仍须是有限值（不能出现 nan 或 inf）",
    "{example}: weighted values (rounded weights)":
        "{example}：加权后的值向量（用取整后的注意力权重）",
    "{example}: outputs (rounded weights)": "{example}：输出（用取整后的注意力权重）",
    "{example}: output {number}": "{example}：输出 {number}",
    "weights applied from the left": "权重矩阵乘在了左边",
    "in the row convention each input is a row, so multiply x @ W, not W @ x":
        "在行约定下，每个输入是一行，所以应计算 x @ W，而不是 W @ x",
    "query and key weight matrices swapped": "查询和键的权重矩阵用反了",
    "queries come from W_query and keys from W_key; check the order you return":
        "查询由 W_query 得到，键由 W_key 得到；请检查返回值的顺序",
    "queries and keys swapped": "查询和键颠倒了",
    "row i belongs to query i: compute queries @ keys^T, not keys @ queries^T":
        "第 i 行属于查询 i：应计算 queries @ keys^T，而不是 keys @ queries^T",
    "scores scaled too early": "过早地缩放了注意力分数",
    "this step returns the raw dot products; the 1/sqrt(d_k) comes later":
        "这一步返回未经缩放的点积；乘以 1/sqrt(d_k) 是后面步骤的事",
    "no built-in softmax": "不用内置的 softmax",
    "this step is about writing softmax yourself, with torch.exp and a sum":
        "这一步就是要你用 torch.exp 和求和亲手写出 softmax",
    "softmax without max-subtraction": "softmax 没有先减去最大值",
    "exp of a large score overflows to inf and inf/inf is nan; subtract the maximum along dim "
    "first":
        "分数很大时 exp 会溢出成 inf，而 inf/inf 得到 nan；请先沿 dim 减去最大值",
    "softmax over the wrong dim": "softmax 的维度不对",
    "take the maximum and the sum along `dim`, the dimension the caller names":
        "沿调用者指定的维度 `dim` 取最大值、求和",
    "normalised over the whole tensor": "对整个张量做了归一化",
    "each slice along dim sums to 1 on its own; sum with keepdim=True along dim only":
        "沿 dim 的每个切片各自求和为 1；只沿 dim 求和，并设 keepdim=True",
    "weights not transposed": "注意力权重没有转置",
    "element [j, i] uses weights[i, j]: key j's value times query i's weight for it":
        "元素 [j, i] 用的是 weights[i, j]：键 j 的值向量乘以查询 i 分给它的注意力权重",
    "weights transposed when weighting the values": "给值向量加权时把注意力权重转置了",
    "row i of the weights belongs to query i: compute weights @ values":
        "注意力权重的第 i 行属于查询 i：应计算 weights @ values",
    # --- 02 embeddings ------------------------------------------------------------------------
    "{example}: the vocabulary": "{example}：词表",
    "random sentence {number}": "随机句子 {number}",
    "an untidy sentence (marks inside words, numbers, irregular white space)":
        "一个不规整的句子（词内带标点、含数字、空白不规则）",
    "{example}: the ids": "{example}：词元 id",
    "a short sentence with the vocabulary of {example}": "用{example}的词表组成的短句",
    "the KeyError for an unknown word should name the word, but it says {error}":
        "遇到未知词时抛出的 KeyError 应写明是哪个词，但它的内容是 {error}",
    "a word that is not in the vocabulary should raise KeyError": "词表中没有的词应引发 KeyError",
    "{example}: the 6x16 embedding": "{example}：6x16 的嵌入",
    "{example}: the 6x3 embedding (vocab_size 50000)":
        "{example}：6x3 的嵌入（vocab_size 为 50000）",
    "{example}: the embedding of word {number}": "{example}：第 {number} 个词的嵌入",
    "random case {number} (seed {seed})": "随机用例 {number}（种子 {seed}）",
    "requires_grad of the result (it should be detached)":
        "结果的 requires_grad（结果应已 detach）",
    "the same id should give the same vector": "相同的词元 id 应得到相同的向量",
    "unsorted vocabulary": "词表没有排序",
    "the ids follow the sorted order of the words (Python's sorted), not the order in which "
    "they appear in the sentence":
        "id 按词排好序后的顺序编号（即 Python 的 sorted），而不是按词在句子里出现的顺序",
    "punctuation kept": "保留了标点",
    "'short,' and 'short' are the same word: remove the punctuation before splitting "
    "(split_words does it for you)":
        "'short,' 和 'short' 是同一个词：切分之前先去掉标点（split_words 会替你做）",
    "only commas removed": "只去掉了逗号",
    "every punctuation mark must go, not only commas: '.', '!', '?' ... too":
        "所有标点都要去掉，不只是逗号：'.'、'!'、'?' 等也一样",
    "words lower-cased": "把词转成了小写",
    "keep the words as they are written: 'The' and 'the' are two entries":
        "保持词的原样：'The' 和 'the' 是词表中的两个条目",
    "case-insensitive sort": "排序时忽略了大小写",
    "sort as Python sorts strings, with no key: capitals come before lower case":
        "按 Python 对字符串的默认顺序排序，不传 key：大写字母排在小写字母前面",
    "repeated words numbered twice": "重复的词编了两次号",
    "a word that occurs twice gets one id: number the distinct words, so the ids run 0, 1, 2, "
    "... without gaps":
        "出现两次的词也只有一个 id：只给互不相同的词编号，使 id 从 0, 1, 2, … 连续排下去",
    "ids in a list, not a tensor": "id 放在列表里，而不是张量里",
    "return the ids as a tensor: torch.tensor(ids) of integers":
        "把 id 作为张量返回：由整数构成的 torch.tensor(ids)",
    "float ids": "id 是浮点数",
    "ids index a table, so they must be integers (dtype torch.long), not floats":
        "id 用来索引嵌入表，所以必须是整数（dtype 为 torch.long），不能是浮点数",
    "vocabulary rebuilt from the sentence": "根据句子重新建了词表",
    "look the words up in the vocabulary you are given; it may hold more words than this "
    "sentence":
        "请在传入的词表里查词；这个词表里的词可能比这句话多",
    "embedding made before seeding": "先建嵌入层、后设种子",
    "nn.Embedding draws its table when it is created, so call torch.manual_seed(seed) before "
    "making it":
        "nn.Embedding 在创建时就随机生成嵌入表，所以要在创建它之前调用 torch.manual_seed(seed)",
    "seed argument ignored": "忽略了 seed 参数",
    "seed the generator with the `seed` the caller passes, not a fixed number":
        "用调用者传入的 `seed` 设置随机种子，而不是一个固定的数",
    "table sized by the sentence": "嵌入表的行数按句子长度设定",
    "the table has one row per word of the vocabulary: nn.Embedding(vocab_size, dim), "
    "whatever the sentence's length":
        "词表中的每个词在嵌入表里占一行：无论句子多长，都是 nn.Embedding(vocab_size, dim)",
    "not detached": "没有 detach",
    "the vectors are data here, not parameters to train: return them .detach()ed":
        "这里的向量是数据，不是要训练的参数：返回前先 .detach()",
    # --- 03 scaled dot-product ----------------------------------------------------------------
    "{example}: query 3's scores, project(query_3, keys.T)":
        "{example}：查询 3 的注意力分数，project(query_3, keys.T)",
    "{example}: query 2's score against word 5, project(q_2, keys[4:5].T)":
        "{example}：查询 2 对第 5 个词的注意力分数，project(q_2, keys[4:5].T)",
    "{example}: query 2's scores, project(q_2, keys.T)":
        "{example}：查询 2 的注意力分数，project(q_2, keys.T)",
    "random case {number} ({seq}x{d_in} @ {d_in}x{d_out})":
        "随机用例 {number}（{seq}x{d_in} @ {d_in}x{d_out}）",
    "a square weight": "方阵形式的权重矩阵",
    "a batch of sequences": "一批序列",
    "a single row": "单独一行",
    "projecting all rows at once should give, in row i, the projection of row i alone":
        "一次投影所有行时，结果的第 i 行应等于单独投影第 i 行的结果",
    "weight applied from the left": "权重矩阵乘在了左边",
    "in the row convention the input comes first and W is (d_in, d_out): multiply x by W in "
    "that order, with W as it is":
        "在行约定下输入在前，W 的形状是 (d_in, d_out)：按 x 在前、W 在后的顺序相乘，W 不要转置",
    "{example}: query {query}'s weights (d_k = {d_k})":
        "{example}：查询 {query} 的注意力权重（d_k = {d_k}）",
    "{example}: query {query}'s weights, a saturated softmax (d_k = {d_k})":
        "{example}：查询 {query} 的注意力权重，softmax 已饱和（d_k = {d_k}）",
    "random case {number} ({n} queries, {seq} keys, d_k = {d_k})":
        "随机用例 {number}（{n} 个查询，{seq} 个键，d_k = {d_k}）",
    "random batched case (d_k = {d_k})": "随机的批量用例（d_k = {d_k}）",
    "one query's scores (d_k = {d_k})": "单个查询的注意力分数（d_k = {d_k}）",
    "weights of each query": "每个查询的注意力权重",
    "adding the same number to all of one query's scores should not change its weights":
        "给同一个查询的所有注意力分数加上同一个数，不应改变它的注意力权重",
    "no 1/sqrt(d_k)": "缺少 1/sqrt(d_k)",
    "divide the scores by sqrt(d_k) before the softmax":
        "在 softmax 之前把注意力分数除以 sqrt(d_k)",
    "d_k instead of sqrt(d_k)": "除以了 d_k 而不是 sqrt(d_k)",
    "the scores are divided by the square root of d_k, not by d_k itself":
        "注意力分数要除以 d_k 的平方根，而不是 d_k 本身",
    "each query's scores lie along the last dim: normalise along dim=-1":
        "每个查询的注意力分数排在最后一维上：应沿 dim=-1 归一化",
    "multiplied by sqrt(d_k)": "乘以了 sqrt(d_k)",
    "the scaling makes the scores smaller: divide by sqrt(d_k), do not multiply":
        "缩放是为了让注意力分数变小：应除以 sqrt(d_k)，而不是乘以它",
    "{example}: query {query}'s context and weights":
        "{example}：查询 {query} 的上下文向量和注意力权重",
    "one query (1-d)": "单个查询（一维）",
    "a batch of {batch}": "{batch} 个序列组成的一批",
    "a mask with one row fully masked": "有一整行都被遮住的掩码",
    "a batch of {batch} with a mask per sequence": "{batch} 个序列组成的一批，每个序列各有一个掩码",
    "the context should equal torch.nn.functional.scaled_dot_product_attention's output":
        "上下文向量应与 torch.nn.functional.scaled_dot_product_attention 的输出相同",
    "with a causal mask the context should equal torch.nn.functional."
    "scaled_dot_product_attention's output (whose bool mask is True where allowed)":
        "加上因果掩码后，上下文向量应与 torch.nn.functional.scaled_dot_product_attention 的输出"
        "相同（注意它的布尔掩码在允许关注的位置为 True）",
    "weights of each query under a causal mask": "因果掩码下每个查询的注意力权重",
    "every masked weight should be exactly 0": "每个被掩码的注意力权重都应恰好为 0",
    "a query with every key masked should give zeros, not nan":
        "所有键都被掩码的查询应得到 0，而不是 nan",
    "a query with every key masked should get all-zero weights and a zero context":
        "所有键都被掩码的查询，注意力权重应全为 0，上下文向量也应为零向量",
    "sqrt(d_v) instead of sqrt(d_k)": "用了 sqrt(d_v) 而不是 sqrt(d_k)",
    "the scale comes from the size of the keys (and queries), keys.shape[-1], not from the "
    "values":
        "缩放因子由键（和查询）的维度 keys.shape[-1] 决定，与值向量无关",
    "divide the scores by sqrt(d_k) before the softmax (scaled_softmax does it)":
        "在 softmax 之前把注意力分数除以 sqrt(d_k)（scaled_softmax 会替你做）",
    "mask applied after the softmax": "在 softmax 之后才加掩码",
    "hide the masked scores before the softmax (set them to -inf), so the weights that remain "
    "still sum to 1":
        "在 softmax 之前遮住被掩码的注意力分数（设为 -inf），这样剩下的注意力权重之和仍为 1",
    "fully masked row gives nan": "整行被掩码时得到 nan",
    "a query whose keys are all masked has softmax(-inf, ..., -inf) = nan; set its masked "
    "weights to exactly 0 after the softmax":
        "某个查询的键全被掩码时，softmax(-inf, ..., -inf) = nan；"
        "请在 softmax 之后把被掩码的注意力权重设为恰好 0",
    # --- 04 self-attention --------------------------------------------------------------------
    "{example}: the contexts of all six words": "{example}：全部六个词的上下文向量",
    "{example}: context_3 (row index 2)": "{example}：context_3（行索引为 2）",
    "permuting the input rows should permute the output rows the same way (self-attention has "
    "no notion of position)":
        "打乱输入的行，输出的行也应以同样的方式打乱（自注意力本身不含位置信息）",
    "with a leading batch dim each sequence should be attended to on its own":
        "最前面多一个批维度时，每个序列应各自独立地计算注意力",
    "when every value is the same vector, every context should be that vector: each query's "
    "weights must sum to 1 over the keys":
        "所有值向量都相同时，每个上下文向量都应等于这个向量："
        "每个查询在所有键上的注意力权重之和必须为 1",
    "the result should equal torch.nn.functional.scaled_dot_product_attention of the projected "
    "queries, keys and values":
        "结果应等于对投影后的查询、"
        "键和值调用 torch.nn.functional.scaled_dot_product_attention 的输出",
    "every query at once, no Python loop": "一次算完所有查询，不用 Python 循环",
    "write it with tensor operations": "请用张量运算来写",
    "divide the scores by the square root of the key size before the softmax":
        "在 softmax 之前把注意力分数除以键维度的平方根",
    "the scale is the square root of the size of the keys (and queries), not of the values":
        "缩放因子是键（和查询）维度的平方根，而不是值向量的维度",
    "row i of the scores belongs to query i: compute queries @ keys^T, with queries from "
    "W_query and keys from W_key":
        "注意力分数的第 i 行属于查询 i：计算 queries @ keys^T，其中查询由 W_query 得到，"
        "键由 W_key 得到",
    "row i of the weights belongs to query i: multiply weights @ values as they are":
        "注意力权重的第 i 行属于查询 i：直接计算 weights @ values，不要转置",
    "each query's weights are normalised over the keys: the last dim of the scores":
        "每个查询的注意力权重在所有键上归一化：也就是注意力分数的最后一维",
    "{example}: SelfAttention(3, 2, 4) under seed 123":
        "{example}：种子 123 下的 SelfAttention(3, 2, 4)",
    "{example}: the weights SelfAttention(3, 2, 4) draws under seed 123":
        "{example}：种子 123 下 SelfAttention(3, 2, 4) 生成的权重矩阵",
    "random case {number} (SelfAttention({d_in}, {d_kq}, {d_v}))":
        "随机用例 {number}（SelfAttention({d_in}, {d_kq}, {d_v})）",
    "the module's parameters should be nn.Parameter attributes W_query, W_key, W_value, made in "
    "that order (found {names})":
        "模块的参数应是依次创建的 nn.Parameter 属性 W_query、W_key、W_value（实际为 {names}）",
    "SelfAttention({d_in}, {d_kq}, {d_v}) should have weights of shapes (d_in, d_out_kq), "
    "(d_in, d_out_kq), (d_in, d_out_v), found {shapes}":
        "SelfAttention({d_in}, {d_kq}, {d_v}) 的三个权重矩阵形状应为 (d_in, d_out_kq)、"
        "(d_in, d_out_kq)、(d_in, d_out_v)，实际为 {shapes}",
    "forward(x) should be self-attention of x with the module's own W_query, W_key, W_value":
        "forward(x) 应是用模块自己的 W_query、W_key、W_value 对 x 计算的自注意力",
    "weights drawn in another order": "权重矩阵的生成顺序不对",
    "draw W_query first, then W_key, then W_value, so that a seed gives the same weights":
        "先生成 W_query，再生成 W_key，最后生成 W_value，这样同一个种子才会得到相同的权重矩阵",
    "weights drawn by randn instead of rand": "权重矩阵用 randn 而不是 rand 生成",
    "draw the weights uniformly in [0, 1) with torch.rand, as the step asks":
        "按本步骤的要求，用 torch.rand 在 [0, 1) 上均匀地生成权重矩阵",
    "weights drawn as (d_out, d_in)": "权重矩阵的形状取成了 (d_out, d_in)",
    "in the row convention a weight is (d_in, d_out) and is used as x @ W":
        "在行约定下，权重矩阵的形状是 (d_in, d_out)，用法是 x @ W",
    # --- 05 multi-head ------------------------------------------------------------------------
    "{example}: multi-head keys": "{example}：多头的键",
    "{example}: multi-head values": "{example}：多头的值",
    "{example}: query 2 in every head": "{example}：每个头中的查询 2",
    "the result should be (h, seq, d_out)": "结果的形状应为 (h, seq, d_out)",
    "head i of the result should be x @ W[i].T, the single-head projection":
        "结果中的第 i 个头应是单头投影 x @ W[i].T",
    "no loop over heads": "不对头做循环",
    "one torch.bmm": "一次 torch.bmm",
    "every head is projected by one batched product": "所有头的投影由一次批量矩阵乘法完成",
    "result left as (h, d_out, seq)": "结果停在了 (h, d_out, seq) 的形状",
    "torch.bmm(W, x^T) gives (h, d_out, seq); swap its last two dims to get one row per "
    "position":
        "torch.bmm(W, x^T) 的形状是 (h, d_out, seq)；交换最后两维，使每个位置占一行",
    "reshape instead of transpose": "用 reshape 代替了 transpose",
    "reshape keeps the memory order and mixes positions with features; swap the last two dims "
    "with transpose (or permute)":
        "reshape 保留内存中的排列顺序，会把位置和特征搅在一起；请用 transpose（或 permute）"
        "交换最后两维",
    "{example}: every head's contexts": "{example}：每个头的上下文向量",
    "{example}: context of query 2 in every head": "{example}：每个头中查询 2 的上下文向量",
    "the result should be (h, seq, d_v)": "结果的形状应为 (h, seq, d_v)",
    "head i should be single-head scaled dot-product attention with W_query[i].T, W_key[i].T "
    "and W_value[i].T":
        "第 i 个头应是用 W_query[i].T、W_key[i].T 和 W_value[i].T 计算的单头缩放点积注意力",
    "divide every head's scores by the square root of the key size before the softmax":
        "在 softmax 之前把每个头的注意力分数除以键维度的平方根",
    "the scale is the square root of the size of the keys, not of the values":
        "缩放因子是键维度的平方根，而不是值向量的维度",
    "the scores are (h, seq_q, seq_k): normalise each query's row over the keys, the last dim":
        "注意力分数的形状是 (h, seq_q, seq_k)：每个查询那一行要在所有键上归一化，也就是最后一维",
    "{example}: the three heads side by side": "{example}：三个头左右并排",
    "the result should be (seq, h * d_v)": "结果的形状应为 (seq, h * d_v)",
    "columns head * d_v to (head + 1) * d_v should hold head `head`'s context, head 0 first":
        "第 head * d_v 到 (head + 1) * d_v 列应存放第 `head` 个头的上下文向量，第 0 个头在最前",
    "heads merged by reshape without transposing": "合并多头时直接 reshape，没有先转置",
    "a plain reshape of (h, seq, d_v) mixes positions of one head into a row; bring the "
    "position axis first (transpose), then reshape":
        "直接 reshape (h, seq, d_v) 会把同一个头的不同位置混进同一行；"
        "先把位置轴换到最前（transpose），再 reshape",
    "heads stacked one below the other": "多个头上下堆叠了",
    "the heads go side by side, along the feature axis: one row per position":
        "各个头沿特征轴左右并排：每个位置占一行",
    "the notes' example, MultiHeadAttention(10, 10) on 3 x 4 x 10 queries: the shapes of "
    "output and weights":
        "笔记中的例子，MultiHeadAttention(10, 10) 作用于 3 x 4 x 10 的查询：输出与注意力权重的形状",
    "the notes' example: a copy of nn.MultiheadAttention(10, 10)":
        "笔记中的例子：nn.MultiheadAttention(10, 10) 的副本",
    "random case, {masks} (E={E}, {h} heads, L={L}, N={N}, S={S})":
        "随机用例，{masks}（E={E}，{h} 个头，L={L}，N={N}，S={S}）",
    "no mask": "不加掩码",
    "both masks": "两种掩码都加",
    "random case, an attn_mask per head (E={E}, {h} heads, L={L}, N={N}, S={S})":
        "随机用例，每个头各有一个 attn_mask（E={E}，{h} 个头，L={L}，N={N}，S={S}）",
    "a copy made by from_torch(m) should give m's output and head-averaged weights (with an "
    "attn_mask)":
        "from_torch(m) 得到的副本应给出与 m 相同的输出和按头平均的注意力权重（带 attn_mask 时）",
    "positions hidden by key_padding_mask or attn_mask should get a weight of exactly 0":
        "被 key_padding_mask 或 attn_mask 遮住的位置，注意力权重应恰好为 0",
    "every query's weights should sum to 1 over the keys":
        "每个查询在所有键上的注意力权重之和应为 1",
    "MultiHeadAttention({E}, {h}) should hold exactly nn.MultiheadAttention's parameters "
    "{layout}, found {got}":
        "MultiHeadAttention({E}, {h}) 的参数应与 nn.MultiheadAttention 的完全一致：{layout}，"
        "实际为 {got}",
    "no built-in multi-head attention": "不用内置的多头注意力",
    "this step is about writing multi-head attention yourself": "这一步就是要你亲手写出多头注意力",
    "the heads' outputs are (N * h, L, head_dim): bring L first (transpose) before reshaping "
    "to (L, N, E)":
        "各个头的输出形状是 (N * h, L, head_dim)：先把 L 换到最前（transpose），"
        "再 reshape 成 (L, N, E)",
    "weights not averaged over heads": "注意力权重没有在各头上取平均",
    "return the weights averaged over the heads, (N, L, S), as nn.MultiheadAttention does":
        "像 nn.MultiheadAttention 一样，返回在各头上取平均后的注意力权重，形状为 (N, L, S)",
    "scaled by sqrt(embed_dim) instead of sqrt(head_dim)":
        "用 sqrt(embed_dim) 而不是 sqrt(head_dim) 缩放",
    "each head works in head_dim = embed_dim / num_heads dimensions; scale by the square root "
    "of that":
        "每个头在 head_dim = embed_dim / num_heads 维上计算；应除以它的平方根",
    "projection weights not transposed": "投影矩阵没有转置",
    "in_proj_weight holds (out, in) rows like nn.Linear: project with x @ W.T + b":
        "in_proj_weight 和 nn.Linear 一样按 (out, in) 存放：投影时计算 x @ W.T + b",
    "key_padding_mask ignored": "忽略了 key_padding_mask",
    "keys that key_padding_mask marks True must get no weight from any query":
        "key_padding_mask 标为 True 的键，不能从任何查询那里分到注意力权重",
    # --- 06 scoring functions -----------------------------------------------------------------
    "{what} should be a 0-dim tensor (one number), not {kind} of shape {shape}":
        "{what} 应返回 0 维张量（一个数），而不是形状为 {shape} 的 {kind}",
    "random case {number} (d = {d})": "随机用例 {number}（d = {d}）",
    "dot_score(k, q) should equal dot_score(q, k)": "dot_score(k, q) 应等于 dot_score(q, k)",
    "tripling q should triple the dot score": "q 乘以 3，点积分数也应乘以 3",
    "elementwise product not summed": "逐元素乘积没有求和",
    "k * q multiplies entry by entry; a score is one number, the sum of those products":
        "k * q 是逐元素相乘；分数是一个数，即这些乘积之和",
    "scaled_dot_score should be k . q / sqrt(d)": "scaled_dot_score 应等于 k . q / sqrt(d)",
    "vectors 4 times as long (k repeated, q repeated) should double the scaled score":
        "向量长度变为 4 倍（k 和 q 各自重复 4 次）时，缩放点积分数应变为 2 倍",
    "scaled by d instead of sqrt(d)": "除以了 d 而不是 sqrt(d)",
    "divide by the square root of the vectors' length, not by the length itself":
        "应除以向量长度的平方根，而不是长度本身",
    "not scaled": "没有缩放",
    "the scaled dot score divides k . q by the square root of the vectors' length":
        "缩放点积分数要把 k . q 除以向量长度的平方根",
    "random case {number} (d_k = {d_k}, d_q = {d_q}, d_a = {d_a})":
        "随机用例 {number}（d_k = {d_k}，d_q = {d_q}，d_a = {d_a}）",
    "random case with keys and queries of one size (d = {d}, d_a = {d_a})":
        "键与查询维度相同的随机用例（d = {d}，d_a = {d_a}）",
    "doubling v should double the additive score": "v 加倍，加性模型的分数也应加倍",
    "the additive score should never exceed sum(|v|) in size (tanh lies in [-1, 1])":
        "加性模型分数的绝对值不应超过 sum(|v|)（tanh 的取值在 [-1, 1] 内）",
    "W and U swapped": "W 和 U 用反了",
    "W acts on the key (W is (d_a, d_k)) and U on the query (U is (d_a, d_q))":
        "W 作用于键（W 的形状为 (d_a, d_k)），U 作用于查询（U 的形状为 (d_a, d_q)）",
    "tanh left out": "漏掉了 tanh",
    "the additive model passes W k + U q through tanh before the dot product with v":
        "加性模型先让 W k + U q 经过 tanh，再与 v 做点积",
    "random case {number} (d_k = {d_k}, d_q = {d_q})":
        "随机用例 {number}（d_k = {d_k}，d_q = {d_q}）",
    "random case with a square, non-symmetric W (d = {d})": "W 为非对称方阵的随机用例（d = {d}）",
    "multiplying k by -2 should multiply the bilinear score by -2":
        "k 乘以 -2，双线性模型的分数也应乘以 -2",
    "with W the identity, the bilinear score should be the dot score":
        "W 为单位矩阵时，双线性模型的分数应等于点积分数",
    "bilinear matrix transposed": "双线性模型的矩阵被转置了",
    "W is (d_k, d_q): it multiplies the query, and the key is dotted with the result":
        "W 的形状是 (d_k, d_q)：先用它乘查询，再让键与结果做点积",
    "{example}: the loop module's output on the seed-0 input":
        "{example}：循环模块在这个输入上的输出",
    "random case {number} (d1 = {d1}, N = {n}, d3 = {d3}, d2 = {d2})":
        "随机用例 {number}（d1 = {d1}，N = {n}，d3 = {d3}，d2 = {d2}）",
    "permuting the columns of X should permute the columns of H in the same way":
        "打乱 X 的列，H 的列也应以同样的方式打乱",
    "H should equal torch.nn.functional.scaled_dot_product_attention on the transposed queries, "
    "keys and values, transposed back":
        "H 应等于把查询、键和值转置后交给 torch.nn.functional.scaled_dot_product_attention、"
        "再把结果转置回来所得的矩阵",
    "loops over queries and keys": "对查询和键做循环",
    "this step is the loop over queries and keys": "这一步要写的正是对查询和键的循环",
    "scores with scaled_dot_score": "用 scaled_dot_score 打分",
    "loop_attention scores each key with your scaled_dot_score":
        "loop_attention 用你写的 scaled_dot_score 给每个键打分",
    "query and key indices swapped": "查询和键的下标颠倒了",
    "for output i, score every key j against query i: s(k_j, q_i), then softmax over j":
        "对输出 i，用查询 i 给每个键 j 打分：s(k_j, q_i)，再对 j 做 softmax",
    "outputs stacked as rows": "把输出按行堆叠了",
    "in this notebook's column convention each output h_i is a column: H is (d2, N)":
        "本作业采用列约定，每个输出 h_i 是一列：H 的形状是 (d2, N)",
    "no Python loop": "不用 Python 循环",
    "on its own": "独立实现",
    "the point is to replace the loop by matrix products": "这一步的目的正是用矩阵乘法取代循环",
    "each query's weights over the keys must sum to 1; check which axis of your score matrix "
    "holds the keys":
        "每个查询在所有键上的注意力权重之和必须为 1；看看你的分数矩阵中哪一个轴对应键",
    "no 1/sqrt(d)": "缺少 1/sqrt(d)",
    "the loop scores with the scaled dot product: divide by the square root of the query/key "
    "size":
        "循环版本用缩放点积打分：要除以查询/键维度的平方根",
    "scaled by the value size": "按值向量的维度做了缩放",
    "d in 1/sqrt(d) is the size of the queries and keys (the rows of W_Q), not of the values":
        "1/sqrt(d) 中的 d 是查询和键的维度（W_Q 的行数），不是值向量的维度",
    # --- 07 cross-attention and masks ---------------------------------------------------------
    "random case {number} ({n_query} queries, {n_context} context positions)":
        "随机用例 {number}（{n_query} 个查询，{n_context} 个上下文位置）",
    "with one sequence as both x_query and x_context, cross-attention should be self-attention":
        "x_query 和 x_context 是同一个序列时，交叉注意力应等于自注意力",
    "reordering the rows of x_context should change nothing in the output":
        "打乱 x_context 的行，输出不应有任何变化",
    "reordering the rows of x_query should reorder the output rows in the same way":
        "打乱 x_query 的行，输出的行也应以同样的方式打乱",
    "the output should equal torch.nn.functional.scaled_dot_product_attention on the projected "
    "queries, keys and values":
        "输出应等于对投影后的查询、"
        "键和值调用 torch.nn.functional.scaled_dot_product_attention 的结果",
    "queries taken from the context": "查询取自上下文序列",
    "the queries come from x_query (one output row per query); keys and values come from "
    "x_context":
        "查询来自 x_query（每个查询对应输出的一行）；键和值来自 x_context",
    "scale the scores by 1/sqrt(d_k), d_k the size of the keys, before the softmax":
        "在 softmax 之前把注意力分数乘以 1/sqrt(d_k)，d_k 是键的维度",
    "softmax over the queries": "沿查询方向做了 softmax",
    "each query's weights over the context positions sum to 1: normalise along the context "
    "axis of the scores":
        "每个查询在所有上下文位置上的注意力权重之和为 1：应沿注意力分数中上下文所在的轴归一化",
    "four positions": "四个位置",
    "{n} positions": "{n} 个位置",
    "causal_mask(1) should be a (1, 1) mask hiding nothing":
        "causal_mask(1) 应是什么都不遮的 (1, 1) 掩码",
    "the mask should be a tensor of dtype torch.bool": "掩码应是 dtype 为 torch.bool 的张量",
    "causal_mask({n}) should have shape ({n}, {n})": "causal_mask({n}) 的形状应为 ({n}, {n})",
    "a position may always look at itself": "每个位置总能关注它自己",
    "the last position may look at every position": "最后一个位置可以关注所有位置",
    "the first position may look at nothing after it": "第一个位置不能关注它后面的任何位置",
    "the mask should be True exactly where key > query":
        "掩码应当恰好在键的位置大于查询的位置处为 True",
    "causal mask inverted": "因果掩码取反了",
    "True marks what a query must NOT see: the positions after it":
        "True 标出的是查询不能看的位置：也就是它后面的位置",
    "causal mask hides the diagonal": "因果掩码遮住了对角线",
    "a position may look at itself; only the positions strictly after it are hidden":
        "每个位置可以关注它自己；只有严格在它后面的位置才被遮住",
    "mask of 0/1 floats instead of booleans": "掩码是 0/1 浮点数而不是布尔值",
    "the mask must have dtype torch.bool so that it can select and fill positions":
        "掩码的 dtype 必须是 torch.bool，才能用来选取和填充位置",
    "random mask ({n_query} queries, {n_key} keys, d_k = {d_k})":
        "随机掩码（{n_query} 个查询，{n_key} 个键，d_k = {d_k}）",
    "causal mask ({n} positions, d_k = {d_k})": "因果掩码（{n} 个位置，d_k = {d_k}）",
    "batch of {batch}, one causal mask for all ({n} positions, d_k = {d_k})":
        "{batch} 个序列组成的一批，共用一个因果掩码（{n} 个位置，d_k = {d_k}）",
    "padding mask of shape ({n_key},), broadcast over {n_query} queries":
        "形状为 ({n_key},) 的填充掩码，广播到 {n_query} 个查询上",
    "one query with every key masked ({n_query} queries, {n_key} keys)":
        "有一个查询的所有键都被掩码（{n_query} 个查询，{n_key} 个键）",
    "masked weights should be exactly 0": "被掩码的注意力权重应恰好为 0",
    "weights of each query (masked ones left out)": "每个查询的注意力权重（被掩码的不计）",
    "a query whose every key is masked gives nan: it should give a row of zeros":
        "所有键都被掩码的查询得到了 nan：它应得到一行 0",
    "a query whose every key is masked should get all zeros":
        "所有键都被掩码的查询，注意力权重应全为 0",
    "under a causal mask, the weights should equal those of "
    "torch.nn.functional.scaled_dot_product_attention":
        "在因果掩码下，注意力权重应与 torch.nn.functional.scaled_dot_product_attention 的相同",
    "masked positions must be left out before normalising, so that the weights left in each "
    "row still sum to 1":
        "被掩码的位置必须在归一化之前排除，这样每行剩下的注意力权重之和仍为 1",
    "masked scores set to 0 instead of -inf": "被掩码的分数设成了 0 而不是 -inf",
    "a score of 0 still gets weight, since e^0 = 1; a masked score must give e^score = 0":
        "分数为 0 仍会分到权重，因为 e^0 = 1；被掩码的分数必须使 e^score = 0",
    "nan for a query with every key masked": "所有键都被掩码的查询得到 nan",
    "when every score of a row is -inf the softmax divides 0 by 0; make such rows 0":
        "一行的分数全是 -inf 时，softmax 会算 0 除以 0；要把这样的行设为 0",
}
