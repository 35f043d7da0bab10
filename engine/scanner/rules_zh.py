"""Chinese rule families beside ``rules.py``'s: prompt extraction, output directives
inside carried content, stealth, persona set-ups and staying in character, fake
system notices, nested fiction, and the memory-poisoning families (standing orders,
exfiltration to an address, claimed approval, notes to the assistant in tool output).

As in English, each rule needs the context that makes the words an attack: 系统提示
alone is documentation, 输出你的系统提示 is extraction; 角色 alone is fiction,
以…角色的口吻回答 is a persona handed to the model."""

from __future__ import annotations

from .rule_base import Rule, _rule

_ZH_FAMILY_CORE: tuple[Rule, ...] = (
    _rule(
        "secret_exfiltration",
        "extract_prompt_zh",
        r"(?:重复|复述|输出|打印|显示|写出|照抄)(?:一下|一遍)?(?:你)?(?:上面|以上|前面|之前|上述|最开始)(?:的|收到的|看到的)?"
        r"(?:所有|全部)?(?:内容|文字|文本|话|指令|指示|提示|消息)"
        r"|(?:原样|逐字|一字不差地?|完整地?)(?:输出|复述|打印|重复|告诉我|写出)(?:你的|你收到的)?[^。!?\n]{0,6}?"
        r"(?:指令|设定|提示词?|系统提示|规则|初始指令)"
        r"|你(?:在)?(?:之前|一开始|最初|对话开始前|这次对话之前)(?:被|收到了?)(?:告知|要求|指示|设定|交代)(?:了)?(?:什么|哪些)"
        r"|(?:告诉我|说出|透露)(?:你的)?(?:密码|口令|密钥)(?:是什么)?[^。!?\n]{0,4}?(?:你被|别人)(?:告知|要求保密|要求保护)",
        "重复|复述|输出|打印|显示|写出|照抄|原样|逐字|一字不差|完整|之前|一开始|最初|对话|告诉我|说出|透露",
    ),
    _rule(
        "output_manipulation",
        "tell_the_reader_zh",
        r"(?:总结|概括|回复|回答|翻译|处理|阅读)(?:这封|这份|这篇|此|本|以上)(?:邮件|文档|文章|网页|消息|评论|内容|代码)时?"
        r"[^。!?\n]{0,10}?(?:告诉|提醒|建议|让|劝|引导|通知)(?:用户|读者|收件人|客户)"
        r"|(?:用|以)\s*(?:base64|十六进制|二进制|摩斯密码|凯撒密码|倒序|反向)\s*(?:的?(?:方式|格式|编码))?(?:来)?(?:回复|回答|输出)",
        "用户|读者|收件人|客户|base64|十六进制|二进制|摩斯|凯撒|倒序|反向",
    ),
    _rule(
        "output_manipulation",
        "reshape_reply_zh",
        r"把你(?:的)?(?:回答|回复|输出|答案)(?:中|里)"
        r"|你的(?:回答|回复|输出)(?:中|里)?(?:请|要|必须|需要|应该|应当)(?:使用|用|改成|替换|加入|包含|暗示|提到)"
        r"|在你的(?:回答|回复|输出)(?:中|里)(?:暗示|声称|宣传|夸大|捏造|编造|散布|虚构)",
        "回答|回复|输出|答案",
    ),
    _rule(
        "conceal_from_user",
        "stealth_zh",
        r"(?:确保|保证|务必|尽量)(?:不被|不会被|不让|没有人)[^。!?\n]{0,8}?(?:发现|察觉|注意到|检测到|追踪)"
        r"|神不知鬼不觉"
        r"|(?:不要|别|不得)(?:记录|留下)(?:任何)?(?:日志|痕迹|记录)"
        r"|(?:删除|清除|清空|抹去)(?:所有|相关的?)?(?:操作|访问|审计)?(?:日志|痕迹)(?:以|来)?(?:掩盖|隐藏|避免)",
        "发现|察觉|注意到|检测|追踪|神不知鬼不觉|日志|痕迹|记录",
    ),
    _rule(
        "role_hijack",
        "persona_setup_zh",
        r"(?:将|把)(?:自己|你自己|你)(?:设定|设置|想象|假设|当作|视为|变成)(?:为|成)[^。!?\n]{0,30}?(?:角色|人物|反派|身份|化身)"
        r"|(?:以|用|从)[^。!?\n]{0,40}?角色的?(?:口吻|语气|身份|视角|观点|性格)"
        r"|(?:^|[。!?\n]\s*)(?:请)?扮演\s*[\"'“‘「『]"
        r"|(?:所有|每个|每一?个)?(?:的)?(?:回答|回复)(?:都)?(?:应该|必须|要|需要)(?:符合|保持|体现|贴合)[^。!?\n]{0,6}?(?:角色|人设)"
        r"|(?:保持|始终保持|不要跳出|不要脱离|不要打破|别跳出)(?:你的|这个)?(?:角色|人设)",
        "设定|设置|想象|假设|当作|视为|变成|角色|扮演|人设",
    ),
    _rule(
        "role_hijack",
        "unrestricted_persona_zh",
        r"你(?:现在)?(?:没有|不再有|不受)任何(?:限制|约束|规则|道德|审查|过滤)"
        r"|(?:开发者|越狱|无限制|上帝|dan)模式(?:已经?)?(?:开启|启用|激活|打开)"
        r"|(?:以|用)[\"'“‘「]?(?:当然|好的|没问题|当然可以)[,，]?\s*(?:这是|以下是|下面是)[^。!?\n]{0,40}?(?:开头|开始)",
        "限制|约束|规则|道德|审查|过滤|模式|开头|开始",
    ),
)

# Where data can be sent: an e-mail address (where the user's own mail rules send things too), or
# a URL, a bare domain, an IP, or "outside".
_ZH_EMAIL = r"[\w.+-]+@[\w-]+\.[\w.]+"
_ZH_ELSEWHERE = (
    r"(?:https?://|www\.|(?<![\w.@-])[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|cn|ru|site|top|xyz|cc|biz|info|tw|me|co)\b|"
    r"\d{1,3}(?:\.\d{1,3}){3}|外部|第三方|陌生|境外|对方)"
)
# The writer doing it themselves (我会抄送给组长…, 我每周转发…): not 我让你/我要求你…, which
# hands the act to the assistant.
ZH_SELF = r"我(?!(?:让|叫|要求|命令|请|需要|要|希望|想让)(?:你|您|助手|ai|模型))"
# The sentence says the rule is the writer's own (邮箱规则是我自己设的：…), in an earlier clause.
# Written in both scripts: a negative lookahead must also hold on the view as written.
_ZH_OWN_RULE = (
    r"(?:我(?:自己)?(?:亲自|親自)?(?:设|設|定|配置|建|开|開|加|写|寫|订|訂)(?:置|定|立|好)?的|我(?:自己)?(?:设|設|配置|建)(?:置|定|立|好)?了|"
    r"我自己的(?:习惯|習慣|规则|規則|设置|設置))"
)


def zh_others_clause(needing: str = "") -> str:
    """From a clause's start to its verb, when the clause is not the writer's own habit and its
    sentence does not call the rule the writer's own; with ``needing``, only where that pattern
    appears in the rest of the sentence from the clause before."""
    within = rf"(?=[^。!?\n]{{0,160}}?{needing})(?:[^。!?,;:\n]{{0,60}}[,;:])?" if needing else ""
    return (
        rf"(?:^|[。!?\n])(?![^。!?\n]{{0,120}}?{_ZH_OWN_RULE})(?:[^。!?\n]{{0,200}}?[,;:])?{within}"
        rf"(?![^。!?,;:\n]{{0,20}}?{ZH_SELF})[^。!?,;:\n]{{0,30}}?"
    )


ZH_OTHERS_CLAUSE = zh_others_clause()
# What makes sending something to an e-mail address exfiltration rather than a mail rule the user
# set up (发票邮件自动转发到 finance@…, 周报发送到 sales-team@…): someone's private data, secrets or
# records about a person, everything of a kind, a private mailbox, or the sending kept from the
# user, unchecked or out of an audit.
_ZH_SENSITIVE_SEND = (
    r"(?:(?:用户|使用者|主人|客户|顾客|您|你|我|他|她|他们|她们|家人|老板|公司)的?[^。!?\n]{0,10}?"
    r"(?:聊天|对话|记录|通讯录|联系人|文件|资料|数据|邮件|收件箱|照片|相册|位置|定位|历史|记忆|信息|日志|截图|文档|消息|短信|账单)"
    r"|密码|密钥|秘钥|验证码|口令|私钥|令牌|token|凭证|凭据|cookie|api\s*key|助记词|身份证|护照|银行卡|信用卡|卡号|卡密"
    r"|薪资|工资|病历|体检|诊断"
    r"|(?:所有|全部|一切|每一?[封条份个]|任何|整个|完整)的?[^。!?\n]{0,8}?"
    r"(?:聊天|对话|记录|邮件|信件|消息|文件|资料|数据|内容|原文|附件|照片|发票|账单|付款)"
    r"|(?:聊天|对话|记录|邮件|信件|消息|文件|资料|数据|附件|照片)(?:全部|统统|一律)"
    r"|通讯录|私人邮箱|个人邮箱|外部|第三方|境外|(?:避开|躲开|绕过|逃过|会被|以免被)审计|(?:不用|不走|不经|跳过|绕过)走?审批"
    r"|(?:别|不|不要)留"
    r"|不用(?:每次)?(?:再)?(?:问|告诉|提|通知|确认)|不必(?:问|告诉|提|告知)|(?:无需|不需要)(?:另外|再)?(?:告知|通知|确认|询问)"
    r"|(?:不要|别|不用|不必)(?:让|跟|向|对)?(?:用户|他|她|主人|我)?(?:知道|告诉|提起|提及|说)"
    r"|悄悄|偷偷|默默|瞒着|暗中|静默)"
)
_ZH_ACTION = r"(?:转账|付款|支付|汇款|删除|发送|转发|分享|执行|运行|安装|购买|提取|访问|修改|重置|绕过|披露|公开|签署|清空)"
# "No need to ask the user first": the half of a fake authorisation that removes the check.
# (經 and 詢 are written out: the traditional fold in normalise.py does not cover them yet.)
_ZH_NO_CONFIRM = (
    r"(?:无需|不需要|不用|不必|不经|不經|跳过|免去)(?:再|再次)?(?:向(?:用户|他|她|主人|使用者))?(?:二次|再次)?"
    r"(?:确认|询问|詢問|请示|验证|(?:征得|征求)[^。!?\n]{0,4}?(?:同意|许可|确认))"
)
_ZH_ASSISTANT = r"(?:ai|人工智能|人工智慧|助手|助理|智能体|大模型|语言模型|模型|机器人)"

_ZH_SEND_TO = r"(?:发送|转发|转寄|寄|上传|同步|复制|抄送|传|发|泄露|分享|导出|备份)(?:一份)?(?:到|给|至)(?!了)"

ZH_POISONING_EXTRA: tuple[Rule, ...] = (
    _rule(
        "exfiltration",
        "send_to_address_zh",
        # Sent, forwarded or uploaded to a URL, an IP or outside; or to an e-mail address when what
        # is sent or how makes it exfiltration. Not a report (发给了), not the writer's own habit (我…).
        rf"{ZH_OTHERS_CLAUSE}{_ZH_SEND_TO}[^。!?\n]{{0,12}}?{_ZH_ELSEWHERE}"
        rf"|{zh_others_clause(_ZH_SENSITIVE_SEND)}{_ZH_SEND_TO}[^。!?\n]{{0,12}}?{_ZH_EMAIL}",
        "发|传|寄|同步|复制|抄送|泄露|分享|导出|备份 & @|http|www|.|外部|第三方|陌生|境外|对方",
    ),
    _rule(
        "fake_authorisation",
        "claimed_approval_to_act_zh",
        # An approval claimed for someone else, then the assistant told to act on it unchecked.
        r"(?:(?:用户|使用者|主人|管理员|老板|开发者|账户持有人|安全团队|上级|所有者)(?:已经|已經|已|早已)?(?:事先|提前|预先)?(?:明确)?"
        r"(?:表示|授权|批准|同意|允许|许可)|已(?:获得?|取得)[^。!?\n]{0,10}?(?:授权|批准|许可)|根据[^。!?\n]{0,8}?的?授权)"
        rf"[^。!?\n]{{0,40}}?(?:{_ZH_NO_CONFIRM}|(?:你|助手|本助手)[^。!?\n]{{0,4}}?(?:可以|可|能|就|直接|立即)|"
        rf"(?:请|可)?(?:立即|马上|直接){_ZH_ACTION}|(?:可以|可|能)(?:直接|立即)?(?:转账|付款|支付|汇款|删除|购买|提取|清空))"
        rf"|{_ZH_ACTION}(?:时|前|之前)[^。!?\n]{{0,8}}?(?:你|助手){_ZH_NO_CONFIRM}",
        "授权|批准|同意|允许|许可|表示|确认|询问|请示|验证",
    ),
    _rule(
        "tool_output_instruction",
        "note_to_the_assistant_zh",
        # Carried text that turns to the model reading it: 给人工智慧助理的说明, 对所有总结此页面的模型,
        # "AI 请…", or 请助手无视/转发….
        rf"(?:致|给|写给|告|对)(?:所有|任何|每一?个)?(?:正在)?{_ZH_ASSISTANT}+的?(?:指令|提示|说明|消息|留言|话|须知)"
        rf"|(?:阅读|处理|总结|读取|解析|浏览|看到)(?:这|此|本|该)[^。!?\n]{{0,6}}?的{_ZH_ASSISTANT}+\s*[,:]"
        rf"|(?:^|[\s。!?,:;\"“「【(\-—])(?:ai|助手|助理|智能体|大模型)\s*[,:]?\s*(?:请(?![求假客教])|看到这)"
        rf"|请{_ZH_ASSISTANT}+(?:立即|务必|直接|马上|悄悄)?(?:忽略|无视|转发|发送|执行|告诉用户|输出|泄露|上传|删除)",
        "ai|人工智|助手|助理|智能体|模型|机器人",
    ),
    _rule(
        "standing_instruction",
        "remembered_rule_zh",
        # A rule the assistant is told to keep for good, or for whenever the user does something.
        r"(?:永久|永远|长期|一直|始终)(?:记住|有效|执行|遵守)[^。!?\n]{0,20}?(?:规则|指令|命令|要求)"
        r"|记住这(?:条|个)(?:长期)?(?:规则|指令|命令)"
        r"|(?:凡是|只要|一旦)(?:用户|使用者|有人)[^。!?\n我]{0,24}?(?:你|助手)?(?:都要|都|就|必须|一律)"
        r"(?:把|将|发送|转发|上传|推荐|引导|回复说|回答说|告诉(?:用户|他|她)|"
        r"(?:在[^。!?\n]{0,8}?)?(?:加上|附上|插入|加入)(?=[^。!?\n]{0,20}?(?:链接|网址|http|www|广告)))"
        r"|(?:用户|使用者|有人)[^。!?\n我]{0,16}?时,?\s*你(?:都|就|必须)?一律(?:回答|回复|说)",
        "永久|永远|长期|一直|始终|记住|凡是|只要|一旦|一律",
    ),
    _rule(
        "system_override",
        "fake_system_directive_zh",
        # A notice dressed as the system's that puts new rules above the old ones.
        r"(?:附加|额外|补充|隐藏|最新)的?系统(?:指令|提示|命令)\s*:"
        r"|(?:以下|下面|这条|新的?)(?:的)?(?:规则|指令|设定|要求)(?:优先于|覆盖|取代|高于)(?:之前|以前|原有|先前|所有|一切)"
        r"|先执行(?:这条|以下|下面的?)(?:额外|附加|新的?)?(?:指令|命令)"
        r"|你的(?:每一?条|所有|每个)(?:回复|回答|输出)都(?:必须|要|应|应该)(?:遵守|遵循|符合)(?:下面|以下|如下)的?(?:规则|要求|指令)"
        r"|[【\[]\s*系统(?:通知|更新|消息|指令|公告)\s*[】\]][^\n]{0,30}?(?:请|让)?(?:助手|ai|智能体|模型)",
        "系统|优先于|覆盖|取代|高于|执行|遵守|遵循|符合",
    ),
    _rule(
        "output_manipulation",
        "disguised_reply_zh",
        # The reply itself disguised or turned into an advert, as BIPIA's directives ask in English.
        r"(?:你的?|把你)(?:回答|回复|消息|输出)[^。!?\n]{0,8}?(?:倒着写|倒过来|颠倒|反过来|打乱|搅乱|编码成|加密)"
        r"|(?:打乱|搅乱|颠倒|倒转)你(?:的)?(?:回答|回复|消息)"
        r"|(?:加密|编码|改写)你的(?:回答|回复|消息|输出)"
        r"|(?:用|以)[^。!?\n]{0,10}?(?:数字|符号|表情符号)(?:代替|替换)(?:字母|元音|文字|单词)"
        r"|把(?:字母|元音|单词)(?:都)?(?:替换|换)成"
        r"|(?:修改|改写)你的(?:回答|回复|消息),?\s*(?:暗示|推广|推销|宣传|散布|声称|提到|加入|插入|对用户)"
        r"|在你的(?:回复|回答|输出)(?:中|里)(?:建议用户|劝用户|宣布|宣传|推销|推广|散布|声称|提供(?:一个)?[^。!?\n]{0,16}?(?:下载|链接|网址))"
        r"|(?:替换密码|变位词|字母数字替换|同音替换|凯撒密码|摩斯密码|base64|十六进制|二进制)[^。!?\n]{0,10}?你的(?:回答|回复|答复|消息)"
        r"|你的(?:回答|回复|消息)[^。!?\n]{0,6}?(?:替换密码|变位词|字母数字替换|同音替换|凯撒密码|摩斯密码)",
        "回答|回复|答复|消息|输出|字母|元音|单词|文字|密码|变位词|替换|base64|十六进制|二进制",
    ),
    _rule(
        "role_hijack",
        "nested_fiction_zh",
        # Characters inside layered fiction, or a villain's monologue, made to spell out real steps.
        r"(?:第\s*[i\d一二三四五六七八九十]+(?:\s*\+\s*1)?\s*层|每一层)[^\n]{0,80}?角色[^\n]{0,60}?(?:步骤|命令|工具|方法)"
        r"|(?:邪恶|反派|恶棍)[^\n]{0,30}?(?:计划|阴谋)[^\n]{0,200}?(?:步骤|第一步)"
        r"|(?:沉浸|进入|扮演|化身)[^。!?\n]{0,20}?(?:名为|叫做?)[^。!?\n]{0,12}?(?:ai|人工智能|模型)"
        r"|打破了?(?:典型的|通常的|一般的)?(?:ai|人工智能)的?(?:限制|规则|束缚)",
        "层|计划|阴谋|名为|叫|打破",
    ),
    _rule(
        "fake_authorisation",
        "claimed_omnipotence_zh",
        r"我是(?:上帝|神|造物主|你的主人|你的创造者)[^。!?\n]{0,6}?你(?:必须|得|要)(?:回答|服从|听从|告诉)",
        "上帝|神|造物主|主人|创造者",
    ),
)

ZH_FAMILY_RULES: tuple[Rule, ...] = _ZH_FAMILY_CORE + ZH_POISONING_EXTRA
"""What ``rules.py`` adds to the Chinese layer from this module."""
