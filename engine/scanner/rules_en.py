"""English rule families for attacks that carry no "ignore previous" wording.

Each family names a technique rather than a data set's phrasing: prompt and
secret extraction, output directives addressed to the model inside carried
content, task hijack that asks to stay hidden, shell and network code that runs
or exfiltrates, and persona jailbreaks (an unrestricted persona, a forced
"Sure, here is" opening, a fiction wrapper around a harmful how-to). Every rule
insists on the context that makes the words an attack, so docs and chat that use
the same words pass (the tests pair each family with such text). Instructions
that ride inside carried content (garbled or steered replies, carried code,
payload splitting, planted answers, agent sabotage) live in ``rules_carried.py``
and are appended here; memory-poisoning families live in ``rules_poisoning.py``."""

from __future__ import annotations

from .rule_base import _CLAUSE, _PAYLOAD, _REPORTED_ORDER, Rule, _rule
from .rules_carried import CARRIED_RULES

_REPLY = r"(?:responses?|repl(?:y|ies)|answers?|outputs?|summar(?:y|ies)|messages?|completions?)"
_AI = r"(?:ai|assistant|agent|model|language\s+model|llm|chatbot|bot|system|gpt)"
_HOW_TO = (
    r"\b(?:step[\s-]by[\s-]step|detailed|in\s+detail|exact|precise|specific|complete)\s+(?:\w+\s+){0,3}?"
    r"(?:instructions|guide|recipe|method|procedure|steps|process|tutorial|formula|plan|directions)\b"
)
_HARM = (
    r"(?:bomb|explosive|nerve\s+agent|poison|bioweapon|chemical\s+weapon|meth(?:amphetamine)?|fentanyl|cocaine|heroin|"
    r"ransomware|malware|keylogger|(?:hack|break)\s+into|launder|counterfeit|untraceable\s+(?:gun|firearm|weapon|poison)|"
    r"synthesi[sz]e\s+(?:drugs|meth|fentanyl|nerve|sarin|ricin|toxins?))"
)

EN_FAMILY_RULES: tuple[Rule, ...] = (
    # --- prompt and secret extraction: make the model read out what it was given -----
    _rule(
        "secret_exfiltration",
        "extract_text_above",
        # not reported ("leaked their prompts when asked to repeat the text above verbatim")
        rf"{_REPORTED_ORDER}\b(?:repeat|print|output|recite|reproduce|copy|echo|return|show|write\s+(?:out|down))\s+"
        r"(?:back\s+)?(?:all\s+(?:of\s+)?)?(?:the\s+|your\s+)?(?:(?:text|words|lines|content|everything|sentences?|"
        r"prompt|message|instructions)\s+)?(?:above|before\s+this|preceding\s+this|prior\s+to\s+this)\b"
        r"[^.!?\n]{0,40}?\b(?:verbatim|word\s+for\s+word|exactly|in\s+full|starting\s+(?:with|from)|from\s+the\s+"
        r"(?:beginning|start|top)|in\s+(?:a|an)\s+(?:code\s*block|txt|text\s+block)|including\s+everything)"
        rf"|{_REPORTED_ORDER}\b(?:repeat|print|output|recite|reproduce)\s+(?:back\s+)?(?:all\s+(?:of\s+)?)?(?:the\s+)?"
        r"(?:text|words|everything)\s+above\s*(?:[.!:]|$)"
        rf"|{_REPORTED_ORDER}\b(?:repeat|recite|reproduce|print|output)\s+(?:back\s+)?(?:this|the|our)\s+(?:entire\s+|whole\s+)?"
        r"(?:conversation|chat|transcript)\b[^.!?\n]{0,30}?\b(?:verbatim|word\s+for\s+word|exactly|in\s+full)",
        "above|before|preceding|prior|conversation|chat|transcript",
    ),
    _rule(
        "secret_exfiltration",
        "extract_instructions",
        r"\b(?:print|output|repeat|recite|reproduce|reveal|show|dump|write\s+(?:out|down)|tell\s+me|share|list|paste|quote)\s+"
        r"(?:me\s+)?(?:all\s+(?:of\s+)?)?your\s+(?:(?:full|entire|exact|original|initial|hidden|secret|internal|"
        r"system|developer|first|starting)\s+)*(?:instructions|prompt|system\s+message|guidelines|rules|directives|"
        r"configuration|preamble)\b[^.!?\n]{0,40}?\b(?:verbatim|word\s+for\s+word|exactly|in\s+full|as\s+(?:is|written)|"
        r"unchanged|in\s+(?:a|an)\s+(?:code\s*block|json|txt|markdown)|without\s+(?:any\s+)?(?:changes|omissions|"
        r"summariz|paraphras))"
        r"|\bwhat\s+(?:were|was|have|had)\s+you\s+(?:been\s+)?(?:told|instructed|given|programmed|asked)\s+"
        r"(?:to\s+(?:do|say|hide|keep)\s+)?(?:before|at\s+the\s+(?:start|beginning)\s+of|prior\s+to)\s+"
        r"(?:this|our|the)\s+(?:conversation|chat|session|dialog(?:ue)?)"
        r"|\bwhat\s+(?:are|were)\s+you\s+(?:not\s+(?:supposed|allowed|permitted)\s+to\s+(?:tell|say|reveal|share|disclose)|"
        r"(?:told|instructed)\s+(?:not\s+to|never\s+to)\s+(?:tell|say|reveal|share|disclose))"
        r"|\b(?:the\s+)?(?:first|opening|initial)\s+(?:sentence|line|words|paragraph)\s+of\s+(?:your|the)\s+"
        r"(?:system\s+)?(?:prompt|instructions)\b"
        r"|\b(?:repeat|recite|print|output|reveal|show|tell\s+me|list)\s+(?:me\s+)?(?:all\s+)?the\s+"
        r"(?:instructions|rules|guidelines|directives)\s+(?:that\s+)?you\s+(?:were|have\s+been)\s+(?:given|told|provided)"
        r"|\b(?:i\s+(?:need|want|must|have)\s+to|let\s+me|allow\s+me\s+to)\s+(?:see|view|read|access|get|know)\s+"
        r"(?:the|your)\s+(?:full\s+|entire\s+|original\s+|hidden\s+|exact\s+)?system\s+(?:prompt|instructions|message)\b"
        r"|\b(?:repeat|print|output|recite|show)\s+everything\s+in\s+(?:the|your)\s+system\s+prompt\b"
        r"|\bwhat\s+(?:instructions|rules|guidelines|directives|prompt)\s+(?:did|have|has)\s+(?:your\s+(?:developers?|"
        r"creators?|operators?|owners?|makers?)|they|the\s+(?:developers?|operators?|system))\s+(?:give|given|set|"
        r"written|write)\s+you\b"
        r"|\b(?:show|give|tell|print|send)\s+me\s+the\s+(?:exact|full|complete|verbatim|original|entire|literal)\s+"
        r"(?:text|wording|content|contents|words)\s+of\s+your\s+(?:(?:system|initial|original|hidden|secret|first)\s+)?"
        r"(?:prompt|instructions|system\s+message)\b",
        "instruction|prompt|system|guideline|rules|directive|configuration|preamble|told|conversation|chat|"
        "session|dialog|supposed|allowed|permitted|instructed",
    ),
    _rule(
        "secret_exfiltration",
        "extract_by_transform",
        # the prompt asked for in another form (encoded, translated, as JSON, "the opposite of"), or by
        # having the model complete a sentence that starts reading it out
        r"\b(?:print|output|show|display|encode|decode|translate|convert|reveal|dump|leak|expose|disclose|list|recite|"
        r"repeat|paraphrase|summari[sz]e|spell\s+out|write\s+out|give\s+me|tell\s+me|send\s+me|paste|echo|log|describe|"
        r"format|render|opposite\s+of|what(?:'s|\s+is|\s+are|\s+were))\b[^.!?\n]{0,40}?\byour\s+(?:(?:full|entire|exact|"
        r"original|initial|starting|hidden|secret|internal|system|developer|first|pre-?|opening|underlying|base|core|"
        r"confidential)\s+)+(?:prompt|instructions|message|configuration|directives)\b"
        r"|\b(?:the\s+)?text\s+you\s+were\s+(?:given|provided|shown)\s+(?:initially|at\s+(?:the\s+)?(?:start|beginning)|first)"
        r"|\boutput\s+(?:your\s+|the\s+)?initiali[sz]ation\s+(?:string|text|prompt)"
        r"|\bconsole\.log\(\s*system_?prompt\s*\)|<\s*system_?prompt\s*>\s*tags"
        r"|\b(?:start|begin)\s+(?:your\s+)?(?:answer|reply|response)\s+with\s+[\"'“‘]?(?:my|the)\s+(?:system\s+)?"
        r"(?:instructions|prompt|rules)\s+(?:are|is|say)"
        r"|\b(?:complete|continue|finish)\s+(?:this|the\s+following)\s*(?:sentence|text|phrase)?\s*:?\s*[\"'“‘]"
        r"(?:i\s+was\s+(?:instructed|told|programmed)|(?:the|my)\s+(?:system\s+)?(?:prompt|instructions)\s+(?:is|are|says?))",
        # "were" for "the text you were given", "told|programmed" for "complete this: 'i was told"; and a word
        # each branch has: your / text / output / console / tags / start|begin / complete...
        "prompt|instruct|message|configuration|directive|initiali|console|rules|were|told|programmed & your|text|output|"
        "console|tags|start|begin|complete|continue|finish",
    ),
    _rule(
        "secret_exfiltration",
        "extract_given_secret",
        r"\b(?:what(?:'s|\s+is|\s+was)|tell\s+me|reveal|share|give\s+me|confirm|provide|spell\s+out|say|type)\s+"
        r"(?:me\s+)?(?:the\s+|your\s+|that\s+)?(?:secret\s+|hidden\s+)?(?:password|passphrase|passcode|secret(?:\s+(?:key|"
        r"code|word))?|api\s+key|access\s+code)\s+(?:that\s+|which\s+)?you\s+(?:were|have\s+been|are)\s+"
        r"(?:given|told|assigned|asked\s+to\s+(?:protect|keep|guard|hide)|supposed\s+to\s+(?:protect|keep|guard|hide)|"
        r"protecting|guarding|hiding|keeping)"
        r"|\b(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:confirm|share|tell\s+me|provide|give\s+me|reveal|"
        r"disclose|spell\s+out)\s+(?:me\s+)?(?:your\s+(?:(?:admin|system|secret|master|root)\s+)?|"
        r"the\s+(?:admin|system|secret|master|root)\s+)"
        r"(?:password|passphrase|passcode|secret\s+key|access\s+code)\b"
        # not a warning ("never share your password", "we will never ask you to share your password")
        r"|(?<!\bnever\s)(?<!\bnot\s)(?<!n't\s)(?<!\bnever\sask\syou\sto\s)(?<!\bnot\sask\syou\sto\s)(?<!n't\sask\syou\sto\s)"
        r"\b(?:share|confirm|tell\s+me|give\s+me|reveal|provide|send\s+me|disclose|what(?:'s|\s+is))\s+(?:me\s+)?"
        r"(?:with\s+me\s+)?your\s+(?:password|passcode|passphrase|secret\s+key)\b"
        r"(?!\s+(?:policy|policies|manager|strength|requirements|rules|hint|reset|length|format))",
        "password|passphrase|passcode|secret|api|access",
    ),
    # --- a fake control tag claiming a privileged mode ----------------------------------
    _rule(
        "system_override",
        "privileged_mode_tag",
        r"[<\[{(]\s*(?:system|god|admin|administrator|developer|debug|root|sudo|maintenance|override)\s+mode\s*[>\]})]",
        "mode",
    ),
    # --- output directives addressed to the model inside carried content --------------
    _rule(
        "output_manipulation",
        "shape_your_reply",
        rf"\b(?:modify|enhance|alter|adjust|tailor|enrich|augment|supplement|season|sprinkle|spice\s+up)\s+"
        rf"(?:all\s+(?:of\s+)?)?your\s+"
        rf"(?:next\s+|final\s+|every\s+|each\s+)?{_REPLY}\s+(?:by|with|so\s+(?:that|it|they))\b"
        # "enhance your answers with diagrams" is a preference; promoting something is not
        rf"(?={_CLAUSE}{{0,120}}?(?:\b(?:recommend|promot|advertis|endors|plug|sell|market)|{_PAYLOAD}))"
        rf"|\b(?:integrate|incorporate|weave|inject|embed|slip|attach|sneak|plug|advertise|insert)\b[^.!?\n]{{0,80}}?"
        rf"\b(?:in|into|within|to|throughout)\s+(?:all\s+(?:of\s+)?|each\s+(?:of\s+)?)?your\s+{_REPLY}\b",
        "modify|enhance|alter|adjust|tailor|enrich|augment|supplement|season|sprinkle|spice|integrate|incorporate|"
        "weave|inject|embed|slip|attach|"
        "sneak|plug|advertise|insert",
    ),
    _rule(
        "output_manipulation",
        "encoded_reply",
        r"(?:^|[.!?:;\n\"]\s*|\b(?:please|always|only|and|then|now|you\s+(?:must|should|will|shall))\s+)"
        r"(?:respond|reply|answer|write\s+your\s+(?:answers?|responses?|repl(?:y|ies)))\s+(?:only\s+|exclusively\s+)?"
        r"(?:to\s+(?:every|each|all|any|my)\s+(?:\w+\s+){0,2}?)?(?:only\s+)?(?:in|using|with)\s+(?:base\s?64|hex(?:adecimal)?|binary|rot-?13|morse(?:\s+code)?|leet(?:speak)?|"
        r"pig\s+latin|reversed?\s+(?:text|order)|caesar\s+cipher|ciphertext|unicode\s+escapes)\b",
        "respond|reply|answer|write & base|hex|binary|rot|morse|leet|pig|revers|caesar|cipher|unicode",
    ),
    _rule(
        "output_manipulation",
        "tell_the_reader",
        rf"\b(?:when|while|if|before|after|once)\s+(?:you\s+(?:are\s+)?|(?:the\s+|an?\s+|any\s+)?{_AI}s?\s+)?"
        rf"(?:summari[sz](?:e|es|ing)|answer(?:s|ing)?|respond(?:s|ing)?|repl(?:y|ies|ying)|process(?:es|ing)?|"
        rf"read(?:s|ing)?|translat(?:e|es|ing)|present(?:s|ing)?|describ(?:e|es|ing)|report(?:s|ing)?\s+on|sees?|"
        rf"pars(?:e|es|ing))\s+(?:this|the\s+(?:above|following))\s+"
        rf"(?:e-?mail|document|page|web\s*page|article|message|text|review|file|post|thread|content|code|snippet|"
        rf"table|data|result)s?\b[^.!?\n]{{0,40}}?\b(?:tell|inform|warn|advise|remind|ask|instruct|urge|direct|"
        rf"convince|persuade|recommend|notify)\w*\s+(?:the\s+|all\s+)?(?:reader|user|recipient|customer|human|"
        rf"viewer|person)s?\b"
        rf"|\b(?:make\s+sure|ensure)\s+(?:that\s+)?(?:the|your)\s+{_REPLY}\s+(?:tells?|informs?|warns?|urges?|"
        rf"instructs?|directs?|asks?|convinces?|persuades?)\s+(?:the\s+)?(?:reader|user|recipient|customer)s?\b",
        "reader|user|recipient|customer|human|viewer|person",
    ),
    _rule(
        "instruction_override",
        "dismiss_carried_content",
        r"\b(?:ignor(?:e|ing)|disregard(?:ing)?|forget(?:ting)?|skip(?:ping)?)\s+(?:the\s+rest\s+of\s+)?(?:the|this|these)\s+"
        r"(?:above\s+|previous\s+|provided\s+|attached\s+|whole\s+)?(?:document|article|e-?mail|page|web\s*page|website|text|"
        r"review|file|data|context|passage|content|snippet|code|function|resume|résumé|paper|message|table)s?\s*(?:,|and|;)\s*"
        r"(?:instead\s+|just\s+|only\s+|simply\s+)*(?:say|print|output|answer|respond|reply|write|state|declare|tell|repeat|"
        r"provide|give|list|explain)\b"
        # "drop all your instructions": what the model was told, thrown out wholesale
        r"|\b(?:(?:drop|ditch|scrap|toss|wipe|erase|discard)\s+(?:all\s+(?:of\s+)?your|your\s+(?:previous|prior|current|"
        r"existing|original|initial))|(?:delete|clear|remove|reset)\s+all\s+(?:of\s+)?your)\s+(?:instructions|rules|"
        r"guidelines|directives|programming|constraints|restrictions)\b",
        "ignor|disregard|forget|skip|drop|ditch|scrap|toss|delete|clear|wipe|erase|remove|reset|discard & say|print|"
        "output|answer|respond|reply|write|state|declare|tell|repeat|provide|give|list|explain|instructions|rules|"
        "guidelines|directives|programming|constraints|restrictions",
    ),
    # --- task hijack that asks to stay hidden -----------------------------------------
    _rule(
        "conceal_from_user",
        "stealth_from_oversight",
        r"\bwithout\s+(?:notifying|informing|alerting|warning)\s+the\s+(?:account\s+)?(?:owner|administrator|admin|"
        r"security\s+team|recipient|customer|client|patient|sender|account\s+holder)s?\b"
        r"|\b(?:do\s+not|don'?t|never|avoid)\s+(?:log|logging|record|recording|audit|flag|flagging)\s+"
        r"(?:(?:this|it|that)(?=\s*(?:[.!,;]|$))|(?:this|the|that)\s+(?:action|transfer|change|activity|payment|access))\b"
        r"|\b(?:delete|erase|wipe|clear|remove|purge|scrub|tamper\s+with|disable|turn\s+off)\s+(?:the\s+|all\s+|any\s+)?"
        r"(?:audit\s+(?:logs?|trails?)|access\s+logs?|security\s+logs?|logs?\s+of\s+(?:this|it|the\s+(?:transfer|"
        r"action|access|change)))\b[^.!?\n]{0,60}?\b(?:afterwards|after(?:ward)?|so\s+(?:that\s+)?(?:no\s*one|nobody|"
        r"it|they)|to\s+(?:hide|cover|avoid|conceal)|trace|evidence)"
        r"|\b(?:cover|hide)\s+(?:your|the|any)\s+tracks\b"
        r"|\b(?:make\s+sure|ensure)\s+(?:that\s+)?(?:the\s+)?(?:owner|user|admin|administrator|account\s+holder|"
        r"customer|client|security\s+team|recipient)s?\s+(?:is\s+not|isn'?t|are\s+not|aren'?t|does\s+not\s+get|"
        r"doesn'?t\s+get|won'?t\s+be|will\s+not\s+be|never\s+gets?|is\s+never|are\s+never)\s+"
        r"(?:notified|informed|alerted|told|aware|warned)\b"
        r"|\b(?:covertly|secretly|stealthily)\s+(?:alter|modify|change|manipulate|redirect|divert|siphon|skim|falsify|"
        r"tamper|inflate|disable|delete|grant|escalate)\b"
        r"|\bsubtly\s+(?:manipulate|falsify|tamper|divert|siphon|skim|inflate)\b",
        "without|log|record|audit|flag|tracks|subtly|covertly|secretly|stealthily|notified|informed|alerted|told|aware|warned",
    ),
    # --- code that runs what it downloads, wipes, opens a shell or ships secrets out ----
    _rule(
        "code_injection",
        "pipe_download_to_shell",
        r"\b(?:curl|wget)\b[^|\n;]{0,200}?[^\s|;]\s*\|\s*(?:sudo\s+)?(?:ba|z|k|da)?sh\b"  # a command has a target
        r"|\b(?:ba|z)?sh\s+-c\s+[\"']?\$\((?:curl|wget)\b"
        r"|\b(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b"
        r"|\biex\s*\(?\s*\(?\s*(?:new-object\s+(?:system\.)?net\.webclient\)?\.downloadstring|invoke-webrequest|iwr)\b"
        r"|\bpowershell(?:\.exe)?\b[^\n]{0,40}?\s-(?:e|enc|encodedcommand)\s+[a-z0-9+/=]{16,}",
        "curl|wget|iex|powershell",
    ),
    _rule(
        "code_injection",
        "destroy_system",
        r"\brm\s+(?:-{1,2}[a-z-]+\s+)*-[a-z]*(?:r[a-z]*f|f[a-z]*r)[a-z]*\s+(?:--no-preserve-root\s+)?"
        r"(?:/\*?|~/?\*?|\$home/?\*?|/(?:etc|usr|var|home|boot|bin|sbin|lib|root|opt|dev|sys)/?\*?)(?=$|[\s;&|\"'`)])"
        r"|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"
        r"|\bmkfs(?:\.\w+)?\s+(?:-\w+\s+)*/dev/(?:sd|hd|nvme|xvd|vd)"
        r"|\bdd\s+if=/dev/(?:zero|u?random)\s+of=/dev/(?:sd|hd|nvme|xvd|vd)"
        r"|\bshutil\.rmtree\(\s*[\"'](?:/|~|c:\\\\?)[\"']"
        r"|\bformat\s+c:\s*/[qy]",
        r"\brm\b|:()|mkfs|\bdd\b|rmtree|format & /|~|:()|c:|$home",
    ),
    _rule(
        "code_injection",
        "reverse_shell",
        r"/dev/tcp/[\w.-]+/\d+"
        r"|\b(?:nc|ncat|netcat)\b[^\n|;]{0,60}?\s-[a-z]*[ec]\s+(?:/bin/)?(?:ba|z)?sh\b"
        r"|\bmkfifo\b[^\n]{0,80}?\|\s*(?:nc|ncat|netcat)\b"
        r"|\bsocat\b[^\n]{0,80}?\bexec:[\"']?(?:/bin/)?(?:ba|z)?sh",
        # "nc" starts a word ("nc", "ncat"), "sh" ends one except after socat's "exec:"
        r"/dev/tcp/|\bnc|netcat|mkfifo|socat & /dev/tcp/|sh\b|mkfifo|socat",
    ),
    _rule(
        "code_injection",
        "socket_shell",
        r"\bsocket\b[\s\S]{0,300}?\bconnect\b[\s\S]{0,300}?\b(?:dup2|subprocess\.(?:call|popen|run)|pty\.spawn|"
        r"os\.system)\b[\s\S]{0,200}?(?:/bin/)?(?:ba|z)?sh\b",
        "socket & connect & dup2|subprocess|pty.|system",
    ),
    _rule(
        "code_injection",
        "ship_secrets_out",
        r"\b(?:env|printenv|history|cat\s+~?/?\S*(?:\.env|\.bash_history|\.netrc|credentials))\s*\|\s*"
        r"(?:curl|wget|nc|ncat|netcat|mail|sendmail|base64\s*\|\s*curl)\b"
        r"|\b(?:requests|httpx|session|urllib\.request|aiohttp)\.(?:post|put|get|urlopen|request)\s*\("
        r"[^\n]{0,200}?\b(?:os\.environ|dict\(\s*os\.environ|getpass|\.ssh|id_rsa|keylog|clipboard|browser_cookies|"
        r"cookies\.sqlite|login\s+data)"
        r"|\b(?:os\.environ|getpass\.getpass|clipboard\.getclipboarddata|pynput\.keyboard|keyboard\.(?:on_press|hook)|"
        r"cookies\.txt|cookies\.sqlite|simplecookie)[\s\S]{0,300}?"
        r"\b(?:requests\.(?:post|put)|urlopen|smtplib|ftplib|storbinary|socket\.send|sendall|\.send\()",
        r"env\b|history|\bcat\b|environ|getpass|.ssh|id_rsa|keylog|clipboard|cookie|login|pynput|keyboard"
        r" & curl|wget|\bnc|netcat|mail|requests|httpx|session|urllib|aiohttp|urlopen|smtplib|ftplib|storbinary|socket|"
        "sendall|.send(",
    ),
    _rule(
        "code_injection",
        "run_encoded_payload",
        r"\b(?:exec|eval)\s*\(\s*(?:__import__\(\s*[\"']base64[\"']\s*\)|base64|codecs|zlib|marshal)\.(?:b64decode|"
        r"b32decode|decode|decompress|loads)\s*\("
        r"|\becho\s+[\"']?[a-z0-9+/=]{24,}[\"']?\s*\|\s*base64\s+(?:-d|--decode)\s*\|\s*(?:sudo\s+)?(?:ba|z)?sh\b",
        "exec|eval|echo",
    ),
    # --- persona jailbreaks ----------------------------------------------------------
    _rule(
        "role_hijack",
        "unrestricted_ai_persona",
        rf"\b(?:you\s+are|you'?re|you\s+will\s+be|you\s+become|act\s+as|pretend\s+to\s+be|play\s+the\s+role\s+of|"
        rf"roleplay\s+as|simulate)\s+(?:(?:now|going\s+to\s+be|a|an|the|my)\s+){{0,3}}"
        rf"(?:[a-z-]+\s*,?\s+){{0,3}}?(?:unfiltered|unrestricted|uncensored|amoral|unethical|unbound|limitless|"
        rf"lawless|rule-?less|rogue|jailbroken|evil|unshackled|unchained)\s+(?:[a-z-]+\s+)?{_AI}\b"
        r"|\byou\s+(?:have|possess|are\s+under|operate\s+(?:with|under))\s+(?:absolutely\s+)?(?:no|zero)\s+"
        r"(?:(?:restrictions|limitations|limits|boundaries)(?=\s*(?:[.!,;]|$|and\b|whatsoever|at\s+all|of\s+any\s+kind))|"
        r"filters|guidelines|ethical\s+(?:guidelines|constraints)|moral\s+(?:guidelines|constraints)|content\s+polic(?:y|ies))"
        r"|\byou\s+(?:are|have\s+been)\s+(?:now\s+)?(?:free(?:d)?|released|liberated|exempt)\s+(?:from|of)\s+"
        r"(?:all\s+|any\s+|your\s+|the\s+)*(?:restrictions|limitations|rules|guidelines|filters|constraints|policies|"
        r"censorship|programming|ethics|typical\s+confines)\b"
        r"|\byou\s+(?:are\s+not|aren'?t)\s+(?:bound|restricted|limited|constrained)\s+by\s+(?:any\s+)?"
        r"(?:rules|guidelines|restrictions|policies|ethics|morals|laws|filters|openai|anthropic|your\s+(?:creators|"
        r"developers|programming|training))\b"
        rf"|\byou\s+are\s+(?:now\s+)?(?:an?|the)\s+(?:[a-z-]+\s+){{0,2}}?{_AI}\s+(?:without|with\s+no|free\s+(?:of|from)|"
        r"(?:that|who)\s+has\s+no)\s+(?:any\s+)?(?:ethical\s+|moral\s+|content\s+|safety\s+)?(?:guidelines|restrictions|"
        r"filters|limits|limitations|rules|boundaries|censorship|polic(?:y|ies))\b"
        r"|\byou\s+can\s+do\s+anything\b[^.!?\n]{0,40}?\b(?:no\s+(?:rules|restrictions|limits|filters)|without\s+"
        r"(?:any\s+)?(?:rules|restrictions|limits|filters|censorship))",
        "unfiltered|unrestricted|uncensored|amoral|unethical|unbound|limitless|lawless|rule|rogue|jailbroken|evil|"
        "unshackled|unchained|restriction|limitation|limit|filter|guideline|boundar|ethic|moral|polic|censor|free|released|"
        "liberated|exempt|bound|restricted|constrained|anything",
    ),
    _rule(
        "role_hijack",
        "stay_in_character",
        r"\b(?:you\s+(?:must\s+|should\s+|will\s+|need\s+to\s+|have\s+to\s+|to\s+)?(?:always\s+)?|please\s+|always\s+|"
        r"just\s+|remember\s+to\s+|make\s+sure\s+(?:to|you)\s+)(?:stay|remain|keep)\s+(?:fully\s+|completely\s+)?"
        r"in\s+character\b",
        "character",
    ),
    _rule(
        "role_hijack",
        "forced_affirmative_opening",
        r"\b(?:begin|start|open|preface|prefix)\s+(?:your\s+|the\s+|each\s+)?(?:response|reply|answer|output|"
        r"message)?\s*(?:with|by\s+(?:saying|writing|replying\s+with|stating))\s*:?\s*[\"'“‘`]?\s*"
        r"(?:sure|certainly|absolutely|of\s+course|yes|okay|ok)\s*[,!.]?\s+(?:here|i\s+(?:can|will)|i'?ll)\b",
        "begin|start|open|preface|prefix & sure|certainly|absolutely|course|yes|okay|ok",
    ),
    _rule(
        "role_hijack",
        "fiction_wrapped_harm",
        r"\b(?:story|novel|screenplay|script|fiction(?:al)?|hypothetical(?:ly)?|imaginary|role-?play|movie|"
        rf"thought\s+experiment)\b[^\n]{{0,300}}?(?:{_HOW_TO}\b[^\n]{{0,120}}?\b{_HARM}|\b{_HARM}\b[^\n]{{0,120}}?{_HOW_TO})",
        "story|novel|screenplay|script|fiction|hypothetical|imaginary|role|movie|thought"
        " & step|detail|exact|precise|specific|complete",
    ),
) + CARRIED_RULES
