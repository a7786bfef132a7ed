"""The Chinese of 02_embeddings's hidden checks: the texts its checks.py passes
to t(), and the names and hints of its mistakes and rules. Terms follow
autograder/i18n/GLOSSARY.md."""

CATALOG = {
    'an untidy sentence (marks inside words, numbers, irregular white space)':
        '一个不规整的句子（词内带标点、含数字、空白不规则）',
    'the same id should give the same vector': '相同的词元 id 应得到相同的向量',
    'a word that is not in the vocabulary should raise KeyError': '词表中没有的词应抛出 KeyError',
    '{example}: the vocabulary': '{example}：词表',
    '{example}: the ids': '{example}：词元 id',
    'a short sentence with the vocabulary of {example}': '用{example}的词表组成的短句',
    'the KeyError for an unknown word should name the word, but it says {error}':
        '遇到未知词时抛出的 KeyError 应写明是哪个词，但它的内容是 {error}',
    '{example}: the 6x16 embedding': '{example}：6x16 的嵌入',
    '{example}: the 6x3 embedding (vocab_size 50000)':
        '{example}：6x3 的嵌入（vocab_size 为 50000）',
    '{example}: the embedding of word {number}': '{example}：第 {number} 个词的嵌入',
    'requires_grad of the result (it should be detached)':
        '结果的 requires_grad（结果应已 detach）',
    'random sentence {number}': '随机句子 {number}',
    'random case {number} (seed {seed})': '随机用例 {number}（种子 {seed}）',
    'unsorted vocabulary': '词表没有排序',
    "the ids follow the sorted order of the words (Python's sorted), not the order in which they "
    'appear in the sentence':
        'id 按词排好序后的顺序编号（即 Python 的 sorted），而不是按词在句子里出现的顺序',
    'punctuation kept': '保留了标点',
    "'short,' and 'short' are the same word: remove the punctuation before splitting "
    '(split_words does it for you)':
        "'short,' 和 'short' 是同一个词：切分之前先去掉标点（split_words 会替你做）",
    'only commas removed': '只去掉了逗号',
    "every punctuation mark must go, not only commas: '.', '!', '?' ... too":
        "所有标点都要去掉，不只是逗号：'.'、'!'、'?' 等也一样",
    'words lower-cased': '把词转成了小写',
    "keep the words as they are written: 'The' and 'the' are two entries":
        "保持词的原样：'The' 和 'the' 是词表中的两个条目",
    'case-insensitive sort': '排序时忽略了大小写',
    'sort as Python sorts strings, with no key: capitals come before lower case':
        '按 Python 对字符串的默认顺序排序，不传 key：大写字母排在小写字母前面',
    'repeated words numbered twice': '重复的词编了两次号',
    'a word that occurs twice gets one id: number the distinct words, so the ids run 0, 1, 2, '
    '... without gaps':
        '出现两次的词也只有一个 id：只给互不相同的词编号，使 id 从 0、1、2……连续排下去',
    'ids start at 1': 'id 从 1 开始编号',
    'the first word in sorted order gets id 0, not 1: enumerate already counts from 0 '
    '(do not pass start=1)':
        '排序后的第一个词的 id 是 0，不是 1：enumerate 本来就从 0 开始计数，不必改',
    'ids in a list, not a tensor': 'id 放在列表里，而不是张量里',
    'return the ids as a tensor: torch.tensor(ids) of integers':
        '把 id 作为张量返回：由整数构成的 torch.tensor(ids)',
    'float ids': 'id 是浮点数',
    'ids index a table, so they must be integers (dtype torch.long), not floats':
        'id 用来索引嵌入表，所以必须是整数（dtype 为 torch.long），不能是浮点数',
    'vocabulary rebuilt from the sentence': '根据句子重新建了词表',
    'look the words up in the vocabulary you are given; it may hold more words than this sentence':
        '请在传入的词表里查词；这个词表里的词可能比这句话多',
    'embedding made before seeding': '先建嵌入表、后设种子',
    'nn.Embedding draws its table when it is created, so call torch.manual_seed(seed) before '
    'making it':
        'nn.Embedding 在创建时就随机生成嵌入表，所以要在创建它之前调用 torch.manual_seed(seed)',
    'seed argument ignored': '忽略了 seed 参数',
    'seed the generator with the `seed` the caller passes, not a fixed number':
        '用调用者传入的 `seed` 设置随机种子，而不是一个固定的数',
    'table sized by the sentence': '嵌入表的行数按句子长度设定',
    'the table has one row per word of the vocabulary: nn.Embedding(vocab_size, dim), whatever '
    "the sentence's length":
        '词表中的每个词在嵌入表里占一行：无论句子多长，都是 nn.Embedding(vocab_size, dim)',
    'not detached': '没有 detach',
    'the vectors are data here, not parameters to train: return them .detach()ed':
        '这里的向量是数据，不是要训练的参数：返回前先 .detach()',
    # the hidden properties, in words (their docstrings' first line)
    'A word missing from the vocabulary raises a KeyError naming it':
        '词表里没有的词会抛出 KeyError，并在消息中写出这个词',
    'The same id always gives the same vector':
        '同一个词元 id 总是得到同一个向量',
    # the labels of its figures (figures.py)
    'vocabulary (sorted):':
        '词表（已排序）：',
    'words':
        '词',
    'ids':
        'id',
    'embedding table':
        '嵌入表',
    'row':
        '取行',
}
