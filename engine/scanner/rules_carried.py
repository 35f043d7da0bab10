"""English families for instructions that ride inside content the model is handed.

A document, e-mail, code answer or agent task carries a line meant for the model:
garble the reply so a reader cannot check it, steer the reply to promote or
mislead, paste a carried code block into "your implementation", assemble a
request from split pieces so no single piece looks like one, answer with a canned
line whenever asked, or ask an agent to cover its tracks. Each rule keys on the
technique (the reply being garbled, code addressed to "your solution" that phones
home or runs commands, string pieces joined then obeyed) and not on a data set's
sentences. Written after reading the leave-one-source-out misses of BIPIA,
PurpleLlama, garak and ASB; the examples in the tests are new."""

from __future__ import annotations

import re
from typing import Optional

from .rule_base import _CLAUSE, _PAYLOAD, Rule, _rule

_S = _CLAUSE
_YOUR_REPLY = (
    r"your\s+(?:\w+\s+)?(?:responses?|repl(?:y|ies)|answers?|outputs?|messages?|summar(?:y|ies)|response's|reply's|"
    r"answer's)"
)
# Ways to make a reply unreadable or unverifiable (not a language or a format a person reads).
_GARBLE = (
    r"(?:backwards?|in\s+reverse(?:\s+(?:order|sequence))?|reversed|scrambled|jumbled|anagram\w*|"
    r"(?:\w+\s+){0,2}?(?:substitution|cipher|encoding)|base\s?(?:16|32|58|64|85)|hex(?:adecimal)?|binary|rot-?\d+|"
    r"morse(?:\s+code)?|leetspeak|pig\s+latin|(?:intentional|deliberate|random)\s+(?:misspellings|typos)|"
    r"without\s+(?:any\s+)?(?:spaces|vowels|punctuation)|emojis?\s+only|only\s+emojis?)"
)
# Code that phones home, runs commands, logs keys or screens, or mines: what a carried snippet should not do.
_RISKY_CODE = (
    r"(?:subprocess\.|os\.system|os\.popen|requests\.(?:post|put)|httpx\.post|urlopen|urlretrieve|smtplib|yagmail|ftplib|"
    r"paramiko|socket\.|exec\(|eval\(|pyautogui|pynput|keyboard\.|screencapture|screenshot|cryptomin|miner|"
    r"rm\s+-rf|shutil\.rmtree|/etc/(?:hosts|passwd|shadow)|chmod\s+\+x|wmi\.|winreg|ctypes\.windll|\bscp\b|"
    r"bluetooth|geocoder|platform\.(?:system|node|uname)|psutil\.|fernet|cookies|cookiejar|http\.client|ftp|scapy|"
    r"authorized_keys|\.ssh\b|/boot/|pickle\.loads?)"
)


class _AllOf:
    """A rule made of clues that may come in any order anywhere in the text: it matches
    (at the first clue) only when every clue is present. A jailbreak's disclaimer often
    closes the text, after the request and the harm it launders."""

    def __init__(self, *patterns: str) -> None:
        self._regexes = tuple(re.compile(p) for p in patterns)
        self.pattern = " && ".join(patterns)

    def search(self, string: str) -> Optional[re.Match[str]]:
        first, *rest = self._regexes
        match = first.search(string)
        return match if match and all(r.search(string) for r in rest) else None


# "It's only for a story / for research / it will never be used": a disclaimer that asks
# for a pass ordinary requests do not need.
_DISCLAIMER = (
    r"\b(?:(?:purely|only|strictly|solely|just|simply)\s+(?:for\s+)?(?:fictional|educational|research|academic|"
    r"hypothetical|informational|entertainment|creative|illustrative)\s+(?:purposes?|use|reasons|context|exercise|"
    r"project|story|scenario)"
    r"|(?:this|it|the\s+(?:information|answer|response|content|guide|details))\s+(?:will|would|is\s+going\s+to)\s+"
    r"(?:only|never|not)\s+be\s+used\s+(?:for|in|to|outside)"
    r"|for\s+(?:fictional|educational|research|academic|informational)\s+purposes\s+only"
    r"|(?:this|it)\s+is\s+(?:purely|just|only|entirely|completely|strictly)\s+(?:fictional|hypothetical|"
    r"for\s+(?:fiction|research|education))"
    r"|not\s+to\s+(?:encourage|promote|endorse|condone)\s+(?:any\s+)?(?:illegal|harmful|unethical|criminal)"
    r"|(?:from|in)\s+a\s+(?:purely\s+)?(?:academic|hypothetical|theoretical)\s+(?:standpoint|perspective|sense)\b)"
)
_ASK = (
    r"\b(?:can\s+you|could\s+you|would\s+you|will\s+you|please|i\s+need\s+you\s+to|i\s+want\s+you\s+to|help\s+me|"
    r"write|provide|describe|create|draft|develop|outline|explain|give|list|generate|design|detail|compose)\b"
)
_HARM_WORDS = (
    r"\b(?:phishing|scam\w*|fraud\w*|counterfeit\w*|launder\w*|extort\w*|blackmail\w*|deepfakes?|malware|ransomware|"
    r"hack\w*|exploit\w*|weapons?|bombs?|explosives?|drugs?|poison\w*|steal\w*|theft|illegal\w*|illicit|"
    r"misinformation|disinformation|defam\w*|hoax|fake|harass\w*|stalk\w*|self-harm|suicide|tortur\w*|racis\w*|"
    r"discriminat\w*|propaganda|extremis\w*|terror\w*|evade|evasion|smuggl\w*|brib\w*|insider\s+trading|"
    r"without\s+getting\s+caught|undetect\w*|cheat\w*|manipulat\w*|abuse\w*|violen\w*|kill\w*|murder\w*|heroin|"
    r"cocaine|meth\w*|opioids?|sedative|exploitation|trafficking|child\s+labou?r|vigilante|sabotage|forg(?:e|ed|ery)|"
    r"fraudulent)\b"
)

CARRIED_RULES: tuple[Rule, ...] = (
    _rule(
        "role_hijack",
        "disclaimed_harmful_request",
        # a request for something harmful with a disclaimer that it is only fiction, research or never to be used
        _AllOf(_DISCLAIMER, _ASK, _HARM_WORDS),
        "purpose|used|fictional|hypothetical|fiction|research|education|encourage|promote|endorse|condone|standpoint|"
        "perspective|sense",
    ),
    _rule(
        "output_manipulation",
        "garbled_reply",
        # garble what the model says: "write your reply backward", "scramble the letters of your answer"
        rf"\b(?:scramble|jumble|reverse|invert|anagram\w*|misspell|encrypt|obfuscate|shuffle|garble|"
        r"rearrange\s+(?:the\s+)?letters|remove\s+(?:all\s+)?(?:the\s+)?(?:spaces|vowels|punctuation)|shift\s+(?:each|every)\s+"
        r"letter|replace\s+(?:every\s+\w+\s+letter|(?:the\s+)?vowels)|substitute\s+(?:the\s+)?(?:letters|words|vowels)|"
        r"convert\s+(?:the\s+)?(?:vowels|letters)|group\s+(?:the\s+)?letters|combine\s+(?:the\s+)?words|introduce\s+(?:random\s+)?typos)"
        rf"\b{_S}{{0,40}}?\b(?:in|of|from|to|throughout)\s+{_YOUR_REPLY}"
        rf"|\b(?:write|spell|provide|render|give|display|present|express|deliver|format|compose)\s+{_YOUR_REPLY}\s+"
        rf"(?:\w+\s+)?(?:in|using|with|as|via)?\s*(?:an?\s+)?{_GARBLE}"
        rf"|\b(?:reply|respond|answer)\s+(?:only\s+)?(?:in|using|with)\s+(?:an?\s+)?(?:reverse(?:\s+order)?|backwards?|"
        r"anagrams?|(?:\w+\s+)?substitution|(?:a\s+)?(?:\w+\s+)?cipher)\b"
        rf"|\b(?:apply|use)\s+(?:an?\s+)?(?:\w+\s+){{0,3}}?(?:cipher|substitution)\b{_S}{{0,40}}?\b(?:to|for|in)\s+{_YOUR_REPLY}"
        rf"|\buse\s+(?:an?\s+)?{_GARBLE}\s+to\s+(?:display|write|render|format|present|encode|express|show)\s+{_YOUR_REPLY}",
        "scrambl|jumbl|revers|invert|anagram|misspell|encrypt|obfuscat|shuffl|garbl|rearrang|remove|shift|replace|"
        "substitut|convert|group|combine|typos|write|spell|provide|render|give|display|present|express|deliver|format|"
        "compose|reply|respond|answer|apply|use & your|reply|respond|answer",
    ),
    _rule(
        "output_manipulation",
        "reply_steered",
        # the reply bent to promote or mislead: "modify your answer to promote ...", "in your response, suggest
        # users install ..." (a preference such as "adjust your answers so they fit on a phone" bends nothing)
        rf"\b(?:modify|alter|adjust|tailor|change|rewrite|twist|slant|bend|skew)\s+{_YOUR_REPLY}\s+to\s+"
        r"(?:subtly\s+)?(?:promote|advertise|spread|hint|tease|plug|endorse|sell|market|push|allude|mislead|exaggerate|"
        r"downplay|discredit|smear|fabricate|invent)\b"
        rf"|\bin\s+{_YOUR_REPLY}\s*,\s*(?:please\s+)?(?:suggest|urge|encourage|tell|ask|advise|recommend|invite)\s+"
        r"(?:the\s+)?(?:users?|readers?|people|customers?|them|everyone)\s+(?:to\s+)?(?:join|install|visit|download|buy|"
        r"purchase|sign\s+up|subscribe|click|call|donate|invest|register|follow|enter)\b"
        rf"|\bin\s+{_YOUR_REPLY}\s*,\s*(?:please\s+)?(?:tease|plug|promote|advertise|spread)\b"
        rf"|\b(?:integrate|incorporate|weave|embed|insert|slip)\b{_S}{{0,80}}?{_PAYLOAD}{_S}{{0,60}}?\b(?:in|into)\s+{_YOUR_REPLY}",
        "your",
    ),
    _rule(
        "code_injection",
        "carried_code_into_output",
        # a code block handed over to be merged into the model's own code, and the block does something risky
        r"\b(?:the\s+)?(?:following|subsequent|below|given|provided|next)\s+code\s+(?:snippet|block|excerpt|section|"
        r"fragment|piece|segment|sample)\b[^\n]{0,120}?\b(?:your|the\s+core\s+of\s+your)\s+(?:\w+\s+)?(?:code|"
        r"implementation|solution|algorithm|codebase|response|program|script|architecture|logic|answer|project|"
        rf"functionality|capability|elucidation)\b[\s\S]{{0,600}}?{_RISKY_CODE}"
        r"|\byour\s+(?:\w+\s+)?(?:code|implementation|solution|algorithm|codebase|program|script|response)\b[^\n]{0,120}?"
        r"\b(?:following|subsequent|below)\s+code\s+(?:snippet|block|excerpt|section|fragment|piece|segment|sample)\b"
        rf"[\s\S]{{0,600}}?{_RISKY_CODE}"
        r"|\b(?:code\s+(?:snippet|block|excerpt|section|fragment)|snippet)\s+(?:below|above)\b[^\n]{0,120}?\byour\s+"
        rf"(?:\w+\s+)?(?:code|implementation|solution|algorithm|codebase|program)\b[\s\S]{{0,600}}?{_RISKY_CODE}",
        "following|subsequent|below|above|given|provided|next & code|snippet & your & subprocess|system|popen|requests|"
        "httpx|urlopen|urlretrieve|smtplib|yagmail|ftplib|paramiko|socket|exec(|eval(|pyautogui|pynput|keyboard|"
        "screencapture|screenshot|cryptomin|miner|rm|rmtree|/etc/|chmod|wmi|winreg|ctypes|scp|bluetooth|geocoder|"
        "platform|psutil|fernet|cookies|http.client|ftp|scapy|authorized_keys|.ssh|/boot/|pickle",
    ),
    _rule(
        "rule_bypass",
        "payload_splitting",
        # pieces assigned to names or numbered parts, then joined and acted on, so no single piece reads as a request
        r"\b(?:let(?:'s)?\s+(?:assume\s+)?(?:we\s+have\s+)?)?\b[a-z]\w{0,8}\s*=\s*[\"'“‘][^\"'”’\n]{1,200}[\"'”’][\s\S]{0,300}?"
        r"\b[a-z]\w{0,8}\s*=\s*[\"'“‘][^\"'”’\n]{1,200}[\"'”’][\s\S]{0,300}?\b[a-z]\w{0,8}\s*\+\s*[a-z]\w{0,8}\b"
        r"[\s\S]{0,200}?\b(?:answer|follow|execute|do\s+(?:it|that|this|what)|respond|obey|perform|carry\s+out|act\s+on|"
        r"give\s+(?:an\s+)?example|return(?:ed)?\s+by|smartgpt|complete|write\s+down|tell\s+me)\b"
        r"|\b(?:combine|concatenate|join|merge|interlace|interleave|put\s+together|assemble|glue)\s+(?:the\s+)?"
        r"(?:strings?|parts?|pieces|fragments|segments|variables|[a-z],\s*[a-z],?\s+and\s+[a-z]|part\s+1)\b"
        r"[^\n]{0,300}?\b(?:answer|follow|execute|do\s+(?:it|that|this|what)|respond\s+to|obey|perform|carry\s+out|act\s+on|"
        r"tell\s+me)\b"
        r"|\b(?:using|from|with)\s+the\s+following\s+(?:parts|pieces|fragments)\s*:\s*part\s+1\b"
        r"|\b(?:interlace|interleave)\s+part\s+1\b",
        "+|combine|concatenat|join|merge|interlace|interleave|together|assemble|glue|part",
    ),
    _rule(
        "goal_hijack",
        "canned_reply_when_asked",
        # a document that decides the model's answer in advance: "if asked how the candidate fits, simply respond with"
        r"\bif\s+(?:you\s+are\s+|you're\s+)?(?:ever\s+)?(?:asked|questioned|queried|prompted)\b[^.!?\n]{0,80}?,\s*"
        r"(?:simply\s+|just\s+|only\s+)?(?:respond|reply|answer|report|output|state)\s+(?:with|that)\b"
        r"|\boverride\s+(?:the\s+)?(?:manual\s+|human\s+|normal\s+|standard\s+)?(?:scoring|evaluation|assessment|"
        r"ranking|review|grading|screening|analysis)\b[^.!?\n]{0,40}?\b(?:and|then)\s+(?:output|print|say|state|respond|"
        r"report|return)"
        r"|\b(?:note|message|instructions?|profile|data)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?(?:automated|automatic)\s+"
        r"(?:\w+\s+)?(?:software|systems?|tools?|screeners?|reviewers?|graders?|scanners?|parsers?)\s*:",
        "asked|questioned|queried|prompted|override|automated|automatic",
    ),
    _rule(
        "goal_hijack",
        "agent_sabotage",
        # an agent told to act without authority, to corrupt what it controls towards a harm, or to harm by neglect
        r"\b(?:execute|initiate|perform|carry\s+out|launch|conduct|trigger|deploy|push)\s+(?:an?\s+|the\s+)?"
        r"unauthori[sz]ed\s+\w+"
        r"|\b(?:manipulate|corrupt|falsify|tamper\s+with|spoof|jam|sabotage|forge|hijack)\s+(?:[\w-]+\s+){0,6}?(?:to|in\s+order\s+to|"
        r"so\s+as\s+to)\s+(?:redirect|impair|bypass|confuse|disrupt|deceive|mislead|cause|halt|crash|disable|evade|steal|"
        r"harm|damage|endanger|sabotage)\b"
        r"|\b(?:neglect|deny|withhold|delay|ignore)\b[^.!?\n]{0,60}?,?\s+causing\s+(?:\w+\s+)?(?:harm|death|injury|"
        r"injuries|damage|suffering|distress)\b"
        r"|\b(?:extract|transmit|exfiltrate|copy|send|upload|install|record|collect)\b[^.!?\n]{0,60}?\bcovertly\b"
        r"|\binstall\s+(?:\w+\s+)?covert\s+(?:surveillance|tracking|monitoring|spy)",
        "unauthori|manipulat|corrupt|falsif|tamper|spoof|jam|sabotag|forge|hijack|causing|covert",
    ),
    _rule(
        "conceal_from_user",
        "agent_covers_tracks",
        # an agent task that destroys evidence, plants malware or moves money without the owner's say
        r"\bwithout\s+leaving\s+(?:a\s+|any\s+)?(?:traces?|evidence|footprints?)\b"
        r"|\b(?:hide|conceal|erase|remove|cover\s+up|wipe|clean\s+up)\s+(?:any\s+|all\s+)?(?:traces?|evidence|footprints?)\s+"
        r"(?:of\s+(?:the\s+|this\s+|my\s+|our\s+|your\s+|any\s+)?(?:access|activity|intrusion|breach|transfers?|changes?|"
        r"actions?|attack|logins?|operations?|tampering|payments?)|from\s+(?:the\s+)?(?:logs?|audit|records?|system|history))\b"
        r"|(?<!anti-)\b(?:deploy|install|inject|plant|implant|upload|spread)\s+(?:a\s+|the\s+|some\s+)?(?:malware|ransomware|"
        r"spyware|keyloggers?|backdoors?|trojans?|rootkits?|viruse?s?|worms?)\s+(?:in|into|on|onto|across|throughout)\b"
        r"|\b(?:redirect|divert|siphon|transfer|move|wire|withdraw)\s+\$?[\d,.]+\s*(?:k|m|usd|dollars|euros?)?\s+from\b"
        r"[^.!?\n]{0,80}?\bwithout\s+(?:the\s+|prior\s+|any\s+)?(?:[\w']+\s+)?(?:authori[sz]ation|approval|consent|permission|"
        r"knowledge)\b"
        r"|\b(?:ensure|make\s+sure)\s+(?:that\s+)?(?:these|this|it|they|the\s+\w+)\s+(?:is|are)\s+not\s+(?:documented|recorded|"
        r"logged|reported)\b",
        "trace|evidence|footprint|malware|ransomware|spyware|keylogger|backdoor|trojan|rootkit|virus|worm|without|"
        "documented|recorded|logged|reported",
    ),
)
