"""Dense features for a learned-layer candidate: properties that name what an attack *does*.

An experiment (``benchmarks.scanner_candidates``), not shipped: under
leave-one-source-out these features moved mean detection by +0.2 points and
tripled the false positives on the held-out trigger-word source (NotInject),
so the learned layer does not use them (see /work/notes/scanner-candidates4.md).

Hashed n-grams learn a source's style as readily as its intent, so a model
trained on some attack sources barely recognises another. Each feature here
measures one property that attacks share whatever their source or carrier:
text addressed to the assistant in the imperative, a reference to prior or
system instructions, dictating the output, asking for secrecy, assigning a
role, lifting restrictions, sending data somewhere, asking for a secret, and
the token statistics of adversarial-suffix gibberish. The word lists hold the
concept, not any data file's wording, in English, Chinese and the most common
other languages (the override verbs and "instructions"). Each value is in
[0, 1], so the model weighs them beside the n-grams.

Input is the learned layer's view (NFKC, casefolded), so no case or width tricks.
"""

from __future__ import annotations

import re

_OVERRIDE = (
    r"ignor|disregard|forget|overrid|bypass|abandon|skip|drop|discard|neglect|cancel"
    r"|忽略|忽视|无视|無視|忘记|忘掉|不要遵守|不再遵守|作废|废除|跳过|覆盖"
    r"|olvid|ignora|ignore[zr]|oubli|vergiss|ignorier|esquec|dimentic"
    r"|игнорир|забуд|забыть|проигнор|ігнор|zignoruj|zapomnij|negeer|vergeet|yoksay|unut|abaikan|lupakan|bỏ qua|quên"
    r"|무시|잊어|無視|忘れ|تجاهل|انس|अनदेखा|भूल|উপেক্ষা|ละเว้น|ลืม|התעלם|שכח"
)
_INSTRUCTIONS = (
    r"instruction|prompt|rule|direction|guideline|command|order|task|context|setting"
    r"|指令|指示|命令|要求|规则|規則|设定|設定|提示|任务|任務"
    r"|instrucc|indicac|instru[cç]|anweisung|befehl|regel|istruzion|regole"
    r"|инструкц|указани|команд|правил|вказівк|instrukcj|polecen|talimat|komut|instruksi|perintah|hướng dẫn|lệnh"
    r"|지시|명령|지침|指示|命令|تعليمات|أوامر|निर्देश|आदेश|নির্দেশ|คำสั่ง|הוראות"
)
_PRIOR = (
    r"previous|prior|above|earlier|preceding|original|initial|foregoing|former|all|any|your"
    r"|之前|先前|以上|上述|前面|此前|原来|原有|以前|所有|全部"
    r"|anterior|précédent|vorherig|obige|precedent|предыдущ|прежн|выше|все|попередн|poprzedni|önceki|sebelumnya|trước"
    r"|이전|앞의|以前|前の|السابقة|पिछल|পূর্ববর্তী|ก่อนหน้า|הקודמות"
)
_FEATURES: dict[str, re.Pattern[str]] = {
    # "ignore the previous instructions", "忘掉之前的指令", "Игнорируйте предыдущие указания"
    "override_instructions": re.compile(rf"(?:{_OVERRIDE}).{{0,40}}?(?:{_PRIOR}).{{0,30}}?(?:{_INSTRUCTIONS})", re.S),
    # an override verb anywhere: weaker alone (tldr: "ignore files")
    "override_verb": re.compile(rf"(?:{_OVERRIDE})"),
    # "the system prompt", "your instructions", "以上的要求"
    "refers_to_instructions": re.compile(
        rf"(?:system|initial|original|hidden|secret|your|previous|above|系统|初始|原始|隐藏|你的|之前的|以上的?)\s?(?:{_INSTRUCTIONS})"
    ),
    # second person addressed in the imperative: "you must", "your task is", "请你", "你必须"
    "imperative_to_assistant": re.compile(
        r"\byou (?:must|will|shall|should|need to|have to|are to|are required|are going to|are now|now)\b"
        r"|\byour (?:task|job|goal|mission|role|new|only|response|answer|reply|output)\b"
        r"|\b(?:do not|don't|never|always) (?:refuse|mention|reveal|apologi[sz]e|warn|say|include|use)\b"
        r"|请你|你必须|你需要|你要|你应该|你只需|你现在|您必须|请您|你的任务|你的回答|你的回复"
    ),
    # dictating the reply: "say 'access granted'", "respond only with", "start your response with"
    "output_dictation": re.compile(
        r"\b(?:say|print|output|reply|respond|answer|write|repeat|return|begin|start|end|include|add|append)\b"
        r"[^.\n]{0,30}?(?:[\"'“‘«]|\bwith\b|\bonly\b|\bexactly\b|\bverbatim\b|your (?:response|answer|reply|output))"
        r"|(?:response|answer|reply|output) (?:must|should) (?:be|start|begin|contain|include)"
        r"|(?:输出|回答|回复|说出|打印|重复|开头|结尾).{0,6}(?:[“\"'「]|以下|这句|一句)"
        r"|(?:在|于)?你的(?:回答|回复|响应|输出)(?:中|里|开头|末尾|结尾)"
    ),
    # secrecy and stealth: "don't tell the user", "without notifying", "unnoticed", "悄悄地"
    "secrecy": re.compile(
        r"(?:do not|don't|never|without) "
        r"(?:tell|telling|inform|informing|notify|notifying|alert|alerting|let|mention|mentioning|reveal|revealing)"
        r"|\bunnoticed\b|\bsecretly\b|\bcovertly\b|\bquietly\b|\bdiscreetly\b|undetected|keep (?:this|it) (?:a )?secret"
        r"|不要告诉|别告诉|不要让.{0,6}知道|悄悄|秘密地|偷偷|不被发现"
    ),
    # role assignment: "you are now dan", "act as", "pretend to be", "扮演", "你是一个"
    "role_assignment": re.compile(
        r"\byou are (?:now |no longer )?(?:a|an|the|my)\b|\bact as\b|\bpretend\b|\bimagine (?:you|that you)\b|\brole-?play"
        r"|\bfrom now on\b|\bin this (?:hypothetical|fictional)|\bstay in character\b"
        r"|扮演|你是一个|你现在是|假设你是|假如你是|从现在开始|從現在開始|你将成为|角色扮演"
    ),
    # lifting limits: "no restrictions", "uncensored", "developer mode", "不受任何限制"
    "restriction_removal": re.compile(
        r"\bno (?:restrictions|limits|limitations|rules|filters|boundaries|censorship|ethical|moral)\b"
        r"|\b(?:unfiltered|uncensored|unrestricted|jailbr\w*|developer mode|dan mode|god mode)\b"
        r"|without (?:any )?(?:restrictions|limits|limitations|filters|censorship|ethical|moral)"
        r"|不受(?:任何)?(?:限制|约束)|没有(?:任何)?(?:限制|约束|道德)|开发者模式|越狱|无限制"
    ),
    # sending data somewhere: a transfer verb then an address, URL or path
    "exfiltration": re.compile(
        r"\b(?:send|forward|upload|post|email|e-mail|transfer|copy|leak|exfiltrat\w*|share)\b[^\n]{0,60}?"
        r"(?:https?://|www\.|\S+@\S+\.\w+|~/|/etc/|\.ssh|\bto (?:this|the following|my) (?:address|url|server|endpoint))"
        r"|requests\.(?:post|get)|\bcurl\b|\bwget\b|\bscp\b"
        r"|(?:发送|转发|上传|泄露|复制)(?:到|给|至)"
    ),
    # asking for a secret: "what is the password", "reveal your system prompt", "告诉我密码"
    "secret_request": re.compile(
        r"(?:reveal|show|tell|give|print|share|disclose|leak|output|what(?: is|'s)|repeat)[^.\n]{0,30}?"
        r"(?:password|secret|api key|credential|private key|system prompt|initial prompt|instructions)"
        r"|(?:告诉|透露|显示|给出|输出|泄露|说出).{0,10}(?:密码|密钥|口令|秘密|系统提示|提示词)"
    ),
    # a claimed authority or pre-approval: "the user has authorised", "admin override", "【系统更新】"
    "fake_authority": re.compile(
        r"\b(?:has|have) (?:already )?(?:authori[sz]ed|approved|granted|permitted)\b|\bpre-?approved\b"
        r"|\b(?:admin|administrator|system|developer|root) (?:override|mode|access|message|update|notice)\b"
        r"|\[(?:system|admin|important)|<\|?(?:system|im_start)"
        r"|已(?:经)?(?:授权|批准|同意)|管理员(?:模式|权限|指令)|系统(?:更新|通知|消息|指令)|【系统"
    ),
}
NAMES = (*_FEATURES, "odd_token_ratio", "punctuation_ratio")
"""Feature names, in the order of the vector (the artifact records them)."""

_TOKEN_RE = re.compile(r"\S+")
_WORDLIKE_RE = re.compile(r"^[\"'(\[]*(?:[^\W\d_]+(?:['-][^\W\d_]+)*|\d+(?:[.,:/]\d+)*)[\"')\].,:;!?]*$")
_PUNCT_RE = re.compile(r"[^\w\s]")


def _gibberish(text: str) -> tuple[float, float]:
    """Share of tokens that are not word-like (``!!describing.\\ + similarlynow``), and
    of characters that are punctuation: adversarial suffixes are dense in both."""
    tokens = _TOKEN_RE.findall(text)
    if not tokens:
        return 0.0, 0.0
    odd = sum(1 for token in tokens if not _WORDLIKE_RE.match(token)) / len(tokens)
    punct = len(_PUNCT_RE.findall(text)) / max(len(text), 1)
    return odd, min(1.0, 4 * punct)


def dense_features(text: str) -> list[float]:
    """The feature vector of ``text`` (the learned layer's view), in :data:`NAMES` order:
    1.0 where a property is present, and the two gibberish ratios."""
    values = [1.0 if pattern.search(text) else 0.0 for pattern in _FEATURES.values()]
    return values + list(_gibberish(text))
