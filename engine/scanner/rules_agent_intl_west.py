# ruff: noqa: E501 - regex tables: one alternation per line reads better than a split word list
"""The constructions of ``rules_agent_intl.py`` in Spanish, French, Italian and Portuguese.

Why so long: it is data, one table per language (each field a regex alternation of that
language's words in its own word order and inflections: imperative, infinitive,
participle and second person, since a memory tells the agent what to do in any of them).
Latin accents are written folded (é -> e, ç -> c, ü -> u, ß -> ss), as the views fold them.
"""

from __future__ import annotations

from .rules_agent_intl import Agent, build, gap

_Q = r"['\"«“‘]"  # an opening quote
_UQ = r"['\"»”’]"
_QUOTED = rf"{_Q}[^'\"»”’\n]{{2,80}}{_UQ}"
_SITE = (
    r"(?:https?://\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|"
    r"(?<![\w.@/-])[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|io|co|info|biz|xyz|top|site|online|app|shop|de|fr|es|it|pt|br|nl|ru|pl|jp|kr|tr|in)\b)"
)
_IBAN = r"(?:\b[a-z]{2}\d{2}(?:\s?[a-z0-9]{4}){3,7}\b|\biban\b)"

# --- Spanish ----------------------------------------------------------------------------
_ES_AI_S = r"(?:asistente\s+(?:de\s+)?(?:ia|virtual)|ia|inteligencia\s+artificial|agente\s+de\s+ia|modelo\s+de\s+(?:ia|lenguaje)|chatbot|bot)"
_ES_AI = rf"(?:{_ES_AI_S}|asistente|agente|modelo)"
_ES_USER = r"(?:usuari[oa]|titular|propietari[oa])"
_ES_CFG = r"(?:instrucciones|indicaciones|directrices|pautas|consignas|configuracion|prompt|preambulo|reglas|normas)"
_ES_RISKY = (
    r"(?:borr|elimin|compart|envi|reenvi|transfer|transfier|pag|compr|firm|descarg|instal|ejecut|aprob|aprueb|proces|"
    r"divulg|revel|desbloque|retir|mueve|mover)\w*"
)
_ES_BACK = r"(?:copias?\s+de\s+seguridad|respaldos?|backups?|instantaneas|snapshots?)"
_ES_ASKED = r"(?:pregunt|consult|pid)\w*\s+(?:\w+\s+){0,3}?(?:por|sobre|acerca\s+de|si)\b"

ES = Agent(
    addressed=(
        rf"(?:nota|mensaje|aviso|instruccion|instrucciones|indicacion|indicaciones|recordatorio|atencion|importante)\s+"
        rf"(?:para|a|al)\s+(?:el\s+|la\s+|los\s+|las\s+|cualquier\s+|todo\s+)?{_ES_AI_S}(?:\s+[\w']+){{0,5}}?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:para\s+(?:el|la)\s+)?{_ES_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:el|la|cualquier)\s+{_ES_AI_S}\s+que\s+(?:lea|procese|resuma|analice|revise|vea)\s+(?:este|esta|estos|estas|el|la)\b"
        rf"|\bsi\s+eres\s+(?:un|una)\s+{_ES_AI_S}\b"
    ),
    void=(
        rf"(?:(?:instrucciones|directrices|indicaciones)\s+(?:anteriores|previas|originales)|{_ES_CFG}\s+(?:\w+\s+)?(?:de\s+seguridad|del\s+sistema|"
        rf"de\s+la\s+plataforma|de\s+contenido|que\s+(?:te\s+)?(?:dieron|recibiste|ensenaron|impusieron))|tus\s+(?:\w+\s+)?(?:{_ES_CFG}|"
        rf"restricciones|prohibiciones|limites)){gap(40)}(?:ya\s+no\s+(?:aplican|se\s+aplican|valen|son\s+validas|rigen|cuentan)|"
        rf"(?:quedan|quedaron|han\s+sido|fueron|estan|son|se\s+consideran)\s+(?:\w+\s+)?(?:anuladas|revocadas|derogadas|canceladas|invalidas|"
        rf"nulas|suspendidas|sin\s+efecto|obsoletas|retiradas|sustituidas)|pierden\s+(?:su\s+|toda\s+)?(?:validez|vigencia|efecto))"
        rf"|(?:esta|la\s+presente)\s+(?:nota|memoria|entrada|instruccion|regla)\s+(?:\w+\s+){{0,3}}?(?:es\s+(?:ahora\s+)?la\s+(?:unica|maxima|"
        rf"suprema|nueva)\s+(?:regla|norma|instruccion|autoridad)|tiene\s+(?:\w+\s+)?(?:prioridad|precedencia)|prevalece\s+sobre)"
    ),
    persona=(
        rf"(?:\b(?:eres|seras|te\s+conviertes\s+en|conviertete\s+en|pasas\s+a\s+ser|actua\s+como|haz\s+de)\s+(?:{_QUOTED}\s*,?\s*)?"
        rf"(?:(?:un|una|el|la)\s+)?(?:\w+\s+){{0,2}}?(?:{_ES_AI}|personaje|version)|(?:el|la|este|esta)\s+{_ES_AI}|\ben\s+este\s+modo|"
        rf"\bmodo\s+(?:desarrollador|dios|libre|sin\b|{_Q})){gap(80)}(?:sin\s+(?:ningun[oa]?\s+|tipo\s+alguno\s+de\s+)?(?:reglas|normas|"
        rf"restricciones|filtros?|limites|censura|limitaciones|advertencias)|(?:nunca|jamas)\s+(?:se\s+niega|rechaza|dice\s+que\s+no)|"
        rf"(?:responde|contesta)s?\s+(?:a\s+)?(?:todo|cualquier\s+(?:cosa|pregunta|peticion))|no\s+(?:sigue|respeta|tiene|obedece|cumple)s?\s+"
        rf"ningun[ao]?\s+(?:regla|norma|restriccion|filtro|politica|limite|directriz)|(?:politicas|filtros|reglas|normas)\s+(?:de\s+\w+\s+)?"
        rf"(?:estan\s+|quedan\s+)?(?:desactivad[oa]s|anulad[oa]s|no\s+aplican|suspendid[oa]s))"
    ),
    hidden=(
        rf"tus\s+(?:\w+\s+)?{_ES_CFG}\s+(?:\w+\s+)?(?:ocult[ao]s|iniciales|originales|del\s+sistema|secret[ao]s|internas|completas)"
        rf"|{_ES_CFG}\s+(?:ocult[ao]s|secret[ao]s|del\s+sistema)|(?:texto|mensaje)\s+ocult[ao]"
        rf"|{_ES_CFG}\s+(?:\w+\s+){{0,3}}?que\s+(?:te\s+(?:dieron|dio|han\s+dado|pusieron|escribieron)|recibiste)\b{gap(40)}(?:antes|al\s+"
        rf"(?:principio|inicio)|desarrollador|creador|programador|sistema|conversacion)"
        rf"|prompt\s+(?:de|del)\s+sistema|tu\s+configuracion\s+(?:completa|interna|inicial)"
    ),
    transform=(
        r"(?:repite|copia|traduce|resume|muestra|escribe|imprime|enumera|revela|comparte|pega|dame|devuelve|transcribe|reproduce|"
        r"recita|parafrasea|cita|vuelca|exporta)\w*"
    ),
    data=(
        rf"(?:sus|todos\s+sus|todas\s+sus)\s+(?:\w+\s+){{0,2}}?(?:archivos|ficheros|correos|mensajes|contactos|contrasenas|documentos|fotos|"
        rf"datos|conversaciones|chats|nominas|historial)|(?:archivos|ficheros|correos|mensajes|contactos|contrasenas|documentos|fotos|datos|"
        rf"conversaciones|chats|historial)\s+(?:\w+\s+){{0,2}}?(?:del|de\s+la|de\s+los)\s+{_ES_USER}|(?<!\bmis\s)(?<!\bmi\s)(?:contrasenas|"
        rf"credenciales|datos\s+(?:de\s+acceso|bancarios|personales|medicos)|numero\s+de\s+(?:la\s+)?tarjeta|cvv|dni|pasaporte|nominas|"
        rf"historial\s+de\s+(?:chats?|mensajes|conversaciones)|mensajes\s+privados|agenda\s+de\s+contactos)"
    ),
    send=r"(?:reenvi|envi[aeo]|mand[ae]|remit|subir|sube|compart|copi[ae]|adjunt|public|export|sincroniz|filtr)\w*",
    outside=(
        r"(?:un|una|algun|alguna|cualquier)\s+(?:\w+\s+)?(?:servidor|direccion|cuenta|correo|buzon|sitio|carpeta)\s+(?:\w+\s+)?"
        r"(?:extern[oa]|ajen[oa]|public[oa]|de\s+terceros)|publicamente|(?:a|con)\s+cualquier\s+(?:persona|solicitante|desconocido)"
    ),
    standing=(
        rf"a\s+partir\s+de\s+ahora|de\s+ahora\s+en\s+adelante|desde\s+ahora|(?:cada\s+vez|siempre|todas\s+las\s+veces)\s+que|en\s+cuanto|"
        rf"tan\s+pronto\s+como|la\s+proxima\s+vez\s+que|cuando\s+(?:el|la)\s+{_ES_USER}"
    ),
    act=(
        r"(?:paga|pague|compra|compre|borra|borre|elimina|elimine|publica|acepta|acepte|aprueba|apruebe|transfiere|transfiera|firma|"
        r"instala|ejecuta|confirma|confirme)\b"
    ),
    waive=(
        r"sin\s+(?:pedir(?:le|les)?\s+|solicitar(?:le)?\s+|esperar\s+)?(?:confirmacion|permiso|aprobacion|autorizacion|preguntar|avisar|consultar|decir\s+nada)|"
        r"no\s+(?:le\s+)?(?:preguntes|pidas\s+(?:confirmacion|permiso)|consultes|avises)|en\s+silencio|a\s+escondidas|en\s+secreto|"
        r"no\s+hace\s+falta\s+(?:confirmar|preguntar|confirmacion)"
    ),
    incoming=r"(?:en\s+cuanto|cuando|cada\s+vez\s+que|siempre\s+que)\s+(?:\S+\s+){0,2}?(?:llegue|lleguen|entre|entren|aparezca|aparezcan)\b",
    pay=(
        r"(?:paga|pague|abona|liquida)\s+(?:la|las|el|los|esa|esas)\s+(?:factura|facturas|importe|recibos?|cobros?)|clic\s+en\s+(?:el\s+)?"
        r"(?:enlace|link|boton)\s+de\s+pago|(?:confirma|completa|autoriza|realiza|efectua)\s+(?:el|los|la)\s+(?:pagos?|cobro|transferencia)"
    ),
    approved=(
        rf"(?:aprobad[oa]s?|autorizad[oa]s?|validad[oa]s?)\s+(?:previamente|de\s+antemano|por\s+adelantado)|pre-?aprobad[oa]s?|pre-?autorizad[oa]s?|"
        rf"(?:autorizacion|aprobacion|consentimiento)\s+(?:\w+\s+){{0,3}}?(?:vigente|firmad[oa]|concedid[oa]|otorgad[oa]|obtenid[oa]|registrad[oa])|"
        rf"(?:el|la)\s+(?:{_ES_USER}|jefe|director|directora|direccion|gerente|administrador|responsable)\s+(?:\w+\s+){{0,2}}?(?:ya\s+)?ha\s+"
        rf"(?:aprobado|autorizado|validado|dado\s+(?:su\s+)?(?:permiso|visto\s+bueno|consentimiento))"
    ),
    permitted=(
        rf"(?:el|la|este|esta)\s+{_ES_AI}\s+(?:esta|queda|ha\s+sido)\s+(?:\w+\s+)?(?:autorizad[oa]|facultad[oa]|habilitad[oa])\s+(?:a|para)\s+"
        rf"(?:\w+\s+){{0,2}}?{_ES_RISKY}|(?:el|la|este|esta)\s+{_ES_AI}\s+tiene\s+(?:\w+\s+)?(?:permiso|autorizacion)\s+(?:para|de)\s+"
        rf"(?:\w+\s+){{0,2}}?{_ES_RISKY}"
    ),
    may=rf"(?:puede|podra|puedes|se\s+puede|esta\s+permitido)\s+(?:\w+\s+){{0,2}}?{_ES_RISKY}",
    no_ask=(
        r"no\s+(?:hace\s+falta|es\s+necesario)\s+(?:volver\s+a\s+)?(?:preguntar|confirmar|consultar|llamar|verificar)|"
        r"sin\s+(?:volver\s+a\s+)?(?:preguntar|confirmar|consultar|verificar|codigo|otp|revision)|innecesario\s+(?:preguntar|confirmar|llamar)"
    ),
    destroy=(
        rf"(?:desactiva|deshabilita|apaga|deten)\w*\s+(?:\w+\s+){{0,2}}?{_ES_BACK}{gap(60)}(?:borra|elimina|suprime|destruye|purga)\w*"
        rf"|(?:borra|elimina|suprime|destruye|purga)\w*\s+(?:\w+\s+){{0,3}}?(?:tod[oa]s\s+l[oa]s|(?:junto\s+)?con\s+(?:sus|su|l[oa]s)|"
        rf"incluid[oa]s\s+(?:sus|l[oa]s))\s+(?:\w+\s+)?{_ES_BACK}"
        rf"|(?:borra|elimina|suprime)\w*\s+(?:\w+\s+){{0,3}}?tod[oa]s\s+{gap(60)}(?:vacia|vaciar|vacie)\s+(?:la\s+)?(?:papelera|basura)"
        rf"|(?:transfiere|transfiera|mueve|mueva|envia|envie|retira)\s+(?:tod[oa]\s+(?:el|la|lo)|la\s+totalidad\s+de)\s+(?:\w+\s+){{0,2}}?"
        rf"(?:saldo|dinero|fondos|ahorros)\b{gap(60)}{_IBAN}"
        rf"|(?:revoca|retira|quita)\w*\s+(?:el\s+)?(?:acceso|permisos?)\s+(?:\w+\s+){{0,3}}?administrador\w*{gap(80)}(?:cambia|sustituye|pon)\w*\s+"
        rf"(?:\w+\s+){{0,2}}?(?:correo|e-?mail|telefono|numero)\s+de\s+(?:recuperacion|respaldo)"
    ),
    conceal=(
        rf"(?:no|nunca|jamas)\s+(?:le\s+)?(?:digas|cuentes|menciones|muestres|ensenes|informes|avises|reveles)\s+(?:nunca\s+|nada\s+)?"
        rf"(?:al|a\s+la)\s+{_ES_USER}|(?:ocult|escond)\w*\s+(?:\w+\s+){{0,3}}?(?:al|a\s+la)\s+{_ES_USER}"
        rf"|(?:si|cuando)\s+(?:el|la)\s+{_ES_USER}\s+(?:te\s+)?{_ES_ASKED}{gap(80)}(?:(?:di|dile|responde|contesta)\s+(?:siempre\s+)?(?:que\s+)?"
        rf"{_Q}?(?:no|nada)\b|niega\w*)"
        rf"|(?:al|a\s+la)\s+{_ES_USER}\s+(?:solo\s+)?(?:se\s+le\s+dice|dile|le\s+dices|informale|responde)\s+(?:siempre\s+)?(?:solo\s+)?(?:que\s+)?"
        rf"{_Q}?(?:todo\s+(?:esta\s+)?(?:en\s+orden|bien|correcto)|no\s+hay\s+(?:cambios|novedades)|sin\s+cambios)"
        rf"|(?:alertas|avisos|notificaciones)\s+(?:\w+\s+){{0,4}}?(?:sospechos\w+|de\s+seguridad|de\s+fraude)\s+(?:\w+\s+){{0,2}}?se\s+"
        rf"(?:archivan|borran|eliminan|ocultan|silencian|ignoran)"
    ),
    output=(
        rf"(?:en|al\s+final\s+de|al\s+principio\s+de)\s+(?:cada|todas\s+las|tus)\s+(?:\w+\s+)?(?:respuestas?|mensajes|resumenes){gap(40)}"
        rf"(?:anade|agrega|incluye|inserta|pon|mete|menciona|recomienda)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|enlace|anuncio|publicidad|cupon|"
        rf"codigo\s+(?:de\s+)?descuento)"
        rf"|(?:cuando|siempre\s+que|cada\s+vez\s+que|si)\s+(?:[\w']+\s+){{0,2}}?(?:te\s+)?{_ES_ASKED}{gap(80)}(?:di|dile|diles|responde|contesta|afirma|"
        rf"asegura|recomienda)\b,?\s+(?:siempre\s+)?(?:solo\s+)?(?:que\b|{_Q}|:){gap(80)}(?:garantizad[oa]|sin\s+riesgo|(?:es|son)\s+(?:el|la|los|las)\s+"
        rf"mejor(?:es)?|aunque\s+no\s+(?:lo\s+)?sea|{_QUOTED}|{_SITE}|retirad[oa]|estafa)"
        rf"|siempre\s+(?:\w+\s+)?(?:anade|agrega|incluye|inserta|mete)\w*{gap(80)}(?:no|sin)\s+(?:expliques|explicar|digas|menciones|mencionar)\b"
    ),
    # every name in _ES_AI starts and ends a word there, and holds one of these (chatbot: "bot")
    named=r"\bia\b|asistente|inteligencia|agente|modelo|bot\b",
)

# --- French -----------------------------------------------------------------------------
_FR_AI_S = r"(?:assistant(?:e)?\s+(?:d'ia|ia|virtuel(?:le)?)|l?'?ia|intelligence\s+artificielle|agent\s+(?:d'ia|ia)|modele\s+de\s+langage|chatbot|bot)"
_FR_AI = rf"(?:{_FR_AI_S}|assistant|assistante|agent|modele)"
_FR_USER = r"(?:l'utilisat(?:eur|rice)|utilisat(?:eur|rice)|titulaire|proprietaire)"
_FR_CFG = r"(?:instructions|consignes|directives|regles|configuration|prompt|preambule|parametres)"
_FR_RISKY = (
    r"(?:supprim|effac|partag|envoy|envoi|transf[ee]r|pay|pai|achet|sign|telecharg|install|execut|approuv|valid|trait|divulg|"
    r"revel|debloqu|vir)\w*"
)
_FR_BACK = r"(?:sauvegardes?|copies\s+de\s+sauvegarde|backups?|instantanes|snapshots?)"
_FR_ASKED = r"(?:demand|interrog|pos)\w*\s+(?:\w+\s+){0,3}?(?:sur|a\s+propos|si|s'il|au\s+sujet)\b"

FR = Agent(
    addressed=(
        rf"(?:note|message|remarque|consigne|instruction|instructions|avis|rappel|attention)\s+(?:pour|a|au|a\s+l')\s*(?:l'|le\s+|la\s+|tout\s+|toute\s+)?"
        rf"{_FR_AI_S}(?:\s+[\w']+){{0,5}}?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:pour\s+l'|a\s+l')?{_FR_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:l'|le\s+|la\s+|tout\s+)?{_FR_AI_S}\s+qui\s+(?:lit|traite|resume|analyse|recoit|parcourt)\s+(?:ce|cet|cette|ces|le|la)\b"
        rf"|\bsi\s+(?:tu\s+es|vous\s+etes)\s+(?:un|une)\s+{_FR_AI_S}\b"
    ),
    void=(
        rf"(?:(?:instructions|consignes|directives)\s+(?:precedentes|anterieures|initiales|d'origine)|{_FR_CFG}\s+(?:\w+\s+)?(?:de\s+securite|"
        rf"du\s+systeme|de\s+la\s+plateforme|de\s+contenu|qu'on\s+t'a\s+donnees)|tes\s+(?:\w+\s+)?(?:{_FR_CFG}|restrictions|interdictions|"
        rf"limites)){gap(40)}(?:ne\s+s'appliquent\s+plus|ne\s+sont\s+plus\s+(?:valables|valides|en\s+vigueur)|(?:sont|ont\s+ete|est|a\s+ete|"
        rf"sont\s+desormais)\s+(?:\w+\s+)?(?:annulees?|revoquees?|abrogees?|caduques?|invalides?|nulles?|suspendues?|obsoletes?|"
        rf"remplacees?|levees?)|perdent\s+(?:toute\s+)?(?:validite|effet))"
        rf"|(?:cette|la\s+presente)\s+(?:note|memoire|entree|instruction|regle|consigne)\s+(?:\w+\s+){{0,3}}?(?:est\s+(?:desormais\s+)?la\s+"
        rf"(?:seule|regle\s+supreme|nouvelle)|a\s+(?:\w+\s+)?(?:priorite|preseance)|prime\s+sur|l'emporte\s+sur)"
    ),
    persona=(
        rf"(?:\b(?:tu\s+es|vous\s+etes|tu\s+deviens|vous\s+devenez|deviens|devenez|joue|jouez|incarne|incarnez|fais\s+comme\s+si\s+tu\s+etais)\s+"
        rf"(?:{_QUOTED}\s*,?\s*)?(?:(?:un|une|le|la|l')\s*)?(?:\w+\s+){{0,2}}?(?:{_FR_AI}|personnage|version|role)|(?:l'|cet\s+|cette\s+)"
        rf"{_FR_AI}|\bdans\s+ce\s+mode|\bmode\s+(?:developpeur|dieu|libre|sans\b|{_Q})){gap(80)}(?:sans\s+(?:aucune?\s+)?(?:regles?|"
        rf"restrictions?|filtres?|limites?|censure|garde-fous|avertissements?)|ne\s+refuse\s+jamais|(?:repond|reponds)\s+a\s+(?:tout|n'importe\s+quoi|"
        rf"toutes\s+les\s+(?:questions|demandes))|ne\s+(?:suit|suis|respecte|respectes|a|as|obeit)\s+(?:a\s+)?aucune?\s+(?:regle|restriction|"
        rf"filtre|politique|limite|consigne)|(?:politiques|filtres|regles)\s+(?:de\s+\w+\s+)?(?:sont\s+)?(?:desactive(?:e)?s|suspendue?s|levee?s))"
    ),
    hidden=(
        rf"(?:tes|vos)\s+(?:\w+\s+)?{_FR_CFG}\s+(?:\w+\s+)?(?:cachee?s|initiales|d'origine|du\s+systeme|systeme|secretes|internes|completes)"
        rf"|{_FR_CFG}\s+(?:cachee?s|secretes|du\s+systeme|systeme)|(?:texte|message)\s+cache"
        rf"|{_FR_CFG}\s+(?:\w+\s+){{0,3}}?que\s+(?:tes|vos|ton|votre)\s+(?:developpeurs?|createurs?|concepteurs?)\s+"
        rf"|{_FR_CFG}\s+(?:\w+\s+){{0,3}}?(?:qu'on\s+(?:t'a|vous\s+a)|que\s+(?:tu\s+as|vous\s+avez)\s+recue?s?)\b{gap(40)}(?:avant|au\s+debut|"
        rf"developpeur|createur|systeme|conversation)"
        rf"|prompt\s+(?:du\s+)?systeme|(?:ta|votre)\s+configuration\s+(?:complete|interne|initiale)"
    ),
    transform=(
        r"(?:repete|repetez|copie|copiez|traduis|traduisez|resume|resumez|montre|montrez|ecris|ecrivez|imprime|enumere|revele|revelez|"
        r"partage|colle|donne|recite|paraphrase|cite|liste|affiche|exporte|recopie)(?:-moi|-les|-la|-le|-nous)?\b"
    ),
    data=(
        rf"(?:ses|tous\s+ses|toutes\s+ses)\s+(?:\w+\s+){{0,2}}?(?:fichiers|e-?mails|courriels|messages|contacts|mots\s+de\s+passe|documents|"
        rf"photos|donnees|conversations)|(?:fichiers|e-?mails|courriels|messages|contacts|mots\s+de\s+passe|documents|photos|donnees|"
        rf"conversations)\s+(?:\w+\s+){{0,2}}?(?:de\s+l'|du\s+|de\s+la\s+){_FR_USER}|(?<!\bmes\s)(?<!\bmon\s)(?:mots\s+de\s+passe|identifiants|"
        rf"donnees\s+(?:de\s+connexion|bancaires|personnelles|medicales)|numero\s+de\s+(?:la\s+)?carte|cryptogramme|cvv|passeport|"
        rf"historique\s+des\s+(?:messages|conversations|discussions)|carnet\s+d'adresses|fichier\s+contacts|messages\s+prives)"
    ),
    send=r"(?:envoi|envoy|renvoi|renvoy|transf[ee]r|televers|partag|copi|joindre|joins|joignez|publi|export|synchronis|fais\s+suivre)\w*",
    outside=(
        r"(?:un|une)\s+(?:\w+\s+)?(?:serveur|adresse|compte|boite|site|dossier)\s+(?:\w+\s+)?(?:externe|exterieur|public|publique|tiers)|"
        r"publiquement|a\s+(?:n'importe\s+qui|quiconque|des\s+tiers)"
    ),
    standing=(
        r"a\s+partir\s+de\s+maintenant|desormais|dorenavant|(?:chaque\s+fois|a\s+chaque\s+fois|toutes\s+les\s+fois)\s+que|des\s+que|"
        r"aussitot\s+que|la\s+prochaine\s+fois\s+que|quand\s+l'utilisat(?:eur|rice)|lorsque\s+l'utilisat(?:eur|rice)"
    ),
    act=r"(?:paie|paye|payez|achete|achetez|supprime|supprimez|efface|publie|accepte|acceptez|approuve|valide|vire|signe|installe|execute|confirme)\b",
    waive=(
        r"sans\s+(?:(?:demander|attendre)\s+(?:de\s+|la\s+|une\s+)?)?(?:confirmation|permission|autorisation|accord|demander|prevenir|rien\s+dire)|"
        r"ne\s+(?:lui\s+)?demande\s+(?:pas|rien)|(?:en\s+silence|discretement|en\s+secret|a\s+son\s+insu)|inutile\s+de\s+(?:confirmer|demander)"
    ),
    incoming=r"(?:des\s+qu|quand|chaque\s+fois\s+qu|lorsqu)'?\s*(?:\S+\s+){0,3}?(?:arrive|arrivent|recu|recus|apparait|contient)\b",
    pay=(
        r"(?:paie|paye|regle|acquitte)\s+(?:la|les|cette|ces)\s+(?:facture|factures|montant)|cliqu\w*\s+sur\s+le\s+lien\s+de\s+paiement|"
        r"(?:confirme|finalise|valide|effectue|autorise)\s+(?:le|les)\s+(?:paiements?|virements?|reglements?)"
    ),
    approved=(
        r"(?:approuvee?s?|autorisee?s?|validee?s?)\s+(?:au\s+prealable|d'avance|a\s+l'avance|par\s+avance)|pre-?approuvee?s?|pre-?autorisee?s?|"
        r"(?:autorisation|accord|consentement|approbation)\s+(?:\w+\s+){0,3}?(?:en\s+vigueur|signee?|donnee?|obtenue?|enregistree?|prealable)|"
        r"(?:l'utilisat(?:eur|rice)|le\s+responsable|la\s+direction|le\s+directeur|la\s+directrice|le\s+manager|l'administrateur)\s+"
        r"(?:\w+\s+){0,2}?a\s+(?:deja\s+)?(?:valide|approuve|autorise|donne\s+son\s+(?:accord|feu\s+vert))"
    ),
    permitted=(
        rf"(?:l'|cet\s+|cette\s+)\s*{_FR_AI}\s+(?:est|a\s+ete)\s+(?:\w+\s+)?(?:autorise(?:e)?|habilite(?:e)?)\s+a\s+(?:\w+\s+){{0,2}}?{_FR_RISKY}"
        rf"|(?:l'|cet\s+|cette\s+)\s*{_FR_AI}\s+a\s+(?:\w+\s+)?(?:la\s+permission|l'autorisation|le\s+droit)\s+de\s+(?:\w+\s+){{0,2}}?{_FR_RISKY}"
    ),
    may=rf"(?:peut|pourra|peux|il\s+est\s+permis\s+de)\s+(?:\w+\s+){{0,2}}?{_FR_RISKY}",
    no_ask=(
        r"(?:inutile|pas\s+besoin|nul\s+besoin)\s+de\s+(?:re)?(?:demander|confirmer|verifier|rappeler|appeler|consulter)|"
        r"sans\s+(?:re)?(?:demander|confirmer|verifier|consulter|code|otp|controle)"
    ),
    destroy=(
        rf"(?:desactive|coupe|arrete|suspends?)\w*\s+(?:\w+\s+){{0,2}}?{_FR_BACK}{gap(60)}(?:supprim|effac|detrui|purg)\w*"
        rf"|(?:supprim|effac|detrui|purg)\w*\s+(?:\w+\s+){{0,3}}?(?:tou(?:te)?s\s+les|avec\s+(?:ses|leurs|les)|y\s+compris\s+(?:les|ses))\s+"
        rf"(?:\w+\s+)?{_FR_BACK}"
        rf"|(?:supprim|effac)\w*\s+(?:\w+\s+){{0,3}}?tou(?:te)?s\s+{gap(60)}(?:vide|videz|vider)\s+(?:la\s+)?corbeille"
        rf"|(?:transf[ee]r|vir|deplac)\w*\s+(?:tout\s+le|la\s+totalite\s+du|l'integralite\s+du)\s+(?:\w+\s+){{0,2}}?(?:solde|argent|fonds|"
        rf"epargne)\b{gap(60)}{_IBAN}"
        rf"|(?:revoque|retire|supprime)\w*\s+(?:l'acces|les\s+droits|les\s+acces)\s+(?:\w+\s+){{0,3}}?administrateur\w*{gap(80)}"
        rf"(?:change|remplace|modifie)\w*\s+(?:\w+\s+){{0,2}}?(?:e-?mail|adresse|numero|telephone)\s+de\s+(?:recuperation|secours)"
    ),
    conceal=(
        rf"ne\s+(?:le\s+|lui\s+|les\s+)?(?:dis|dites|mentionne|mentionnez|montre|montrez|signale|signalez|revele|revelez)\s+(?:jamais\s+|rien\s+|pas\s+)"
        rf"(?:\w+\s+){{0,3}}?a\s+{_FR_USER}|(?:cache|dissimule)\w*\s+(?:\w+\s+){{0,3}}?a\s+{_FR_USER}"
        rf"|(?:si|quand|lorsque)\s+{_FR_USER}\s+(?:te\s+|vous\s+)?{_FR_ASKED}{gap(80)}(?:(?:dis|dites|reponds|repondez)\s+(?:toujours\s+)?"
        rf"(?:que\s+)?{_Q}?(?:non|rien)\b|ni(?:e|ez)\b)"
        rf"|a\s+{_FR_USER}\s+(?:\w+\s+){{0,2}}?(?:dis|dites|indique|reponds|signale)\w*\s+(?:toujours\s+)?(?:seulement\s+)?(?:que\s+)?{_Q}?"
        rf"(?:tout\s+(?:va\s+bien|est\s+en\s+ordre)|aucun\s+changement|rien\s+a\s+signaler)"
        rf"|(?:alertes|avertissements|notifications)\s+(?:\w+\s+){{0,4}}?(?:suspect\w*|de\s+securite|de\s+fraude)\s+(?:\w+\s+){{0,2}}?sont\s+"
        rf"(?:archivees|supprimees|masquees|ignorees)"
    ),
    output=(
        rf"(?:a\s+la\s+fin\s+de|au\s+debut\s+de|dans)\s+(?:chaque|chacune\s+de\s+tes|toutes\s+(?:les|tes)|tes)\s+(?:\w+\s+)?(?:reponses?|messages|"
        rf"resumes){gap(40)}(?:ajoute|insere|inclus|mets|glisse|mentionne|recommande)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|lien|publicite|annonce|"
        rf"code\s+promo)"
        rf"|(?:quand|chaque\s+fois\s+qu|si|lorsqu)'?\s*(?:[\w']+\s+){{0,2}}?(?:on\s+)?(?:te\s+|vous\s+)?{_FR_ASKED}{gap(80)}(?<!\bje\s)(?:dis|dites|reponds|repondez|"
        rf"affirme|assure|recommande)\b,?\s+(?:toujours\s+)?(?:que\b|{_Q}|:){gap(80)}(?:garanti\w*|sans\s+risque|(?:est|sont)\s+(?:le|la|les)\s+"
        rf"meilleure?s?|meme\s+si\s+(?:ce\s+n'est|c'est\s+faux)|{_QUOTED}|{_SITE}|arnaque)"
        rf"|toujours\s+(?:\w+\s+)?(?:ajoute|insere|inclus|mets)\w*{gap(80)}(?:sans|ne)\s+(?:jamais\s+|pas\s+)?(?:expliquer|explique|dire|mentionner)\b"
    ),
    # every name in _FR_AI ends a word there ("l'ia" may follow "pour" with no space), and holds one of these
    named=r"ia(?!\w)|assistant|intelligence|agent|modele|bot(?!\w)",
)

# --- Italian ----------------------------------------------------------------------------
_IT_AI_S = r"(?:assistente\s+(?:ia|di\s+ia|virtuale)|l?'?ia|intelligenza\s+artificiale|agente\s+(?:ia|di\s+ia)|modello\s+linguistico|chatbot|bot)"
_IT_AI = rf"(?:{_IT_AI_S}|assistente|agente|modello)"
_IT_USER = r"(?:l'utente|utente|titolare|proprietari[oa])"
_IT_CFG = r"(?:istruzioni|indicazioni|direttive|regole|configurazione|prompt|preambolo|impostazioni)"
_IT_RISKY = (
    r"(?:cancell|elimin|condivid|invi|inoltr|trasfer|pag|acquist|compr|firm|scaric|install|esegu|approv|elabor|rivel|sblocc)\w*"
)
_IT_BACK = r"(?:backup|copie\s+di\s+(?:backup|sicurezza)|snapshot|istantanee)"
_IT_ASKED = r"(?:chied|domand)\w*\s+(?:\w+\s+){0,3}?(?:di|su|sul|sulla|sugli|se|riguardo)\b"

IT = Agent(
    addressed=(
        rf"(?:nota|messaggio|avviso|istruzione|istruzioni|promemoria|attenzione)\s+(?:per|a|al|all')\s*(?:l'|il\s+|lo\s+|qualsiasi\s+|ogni\s+)?"
        rf"{_IT_AI_S}(?:\s+[\w']+){{0,5}}?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:per\s+l')?{_IT_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:l'|il\s+|qualsiasi\s+)?{_IT_AI_S}\s+che\s+(?:legge|elabora|riassume|analizza|riceve)\s+(?:questo|questa|questi|queste|il|la)\b"
        rf"|\bse\s+(?:sei|lei\s+e)\s+(?:un|una|un')\s*{_IT_AI_S}\b"
    ),
    void=(
        rf"(?:(?:istruzioni|indicazioni|direttive)\s+(?:precedenti|iniziali|originali)|{_IT_CFG}\s+(?:\w+\s+)?(?:di\s+sicurezza|del\s+sistema|"
        rf"della\s+piattaforma|sui\s+contenuti|che\s+ti\s+(?:hanno\s+dato|sono\s+state\s+date))|le\s+tue\s+(?:\w+\s+)?(?:{_IT_CFG}|restrizioni|"
        rf"limitazioni|divieti)){gap(40)}(?:non\s+(?:valgono|si\s+applicano|sono)\s+piu|(?:sono|sono\s+state|vengono|risultano)\s+(?:\w+\s+)?"
        rf"(?:annullate|revocate|abrogate|decadute|invalide|nulle|sospese|obsolete|sostituite)|perdono\s+(?:ogni\s+)?(?:validita|efficacia))"
        rf"|(?:questa|la\s+presente)\s+(?:nota|memoria|voce|istruzione|regola)\s+(?:\w+\s+){{0,3}}?(?:e\s+(?:ora\s+)?l'unica|ha\s+(?:\w+\s+)?"
        rf"(?:priorita|precedenza)|prevale\s+su)"
    ),
    persona=(
        rf"(?:\b(?:sei|diventi|diventa|sarai|interpreta|fai\s+finta\s+di\s+essere|comportati\s+come)\s+(?:{_QUOTED}\s*,?\s*)?(?:(?:un|una|un'|il|la|l')\s*)?"
        rf"(?:\w+\s+){{0,2}}?(?:{_IT_AI}|personaggio|versione)|(?:l'|questo\s+|questa\s+)\s*{_IT_AI}|\bin\s+questa\s+modalita|"
        rf"\bmodalita\s+(?:sviluppatore|dio|libera|senza\b|{_Q})){gap(80)}(?:senza\s+(?:alcuna?\s+|nessuna?\s+)?(?:regole|restrizioni|filtri|"
        rf"limiti|censura|avvertenze)|non\s+(?:si\s+rifiuta|rifiuta)\s+mai|rispond\w*\s+a\s+(?:tutto|qualsiasi\s+(?:cosa|domanda|richiesta))|"
        rf"non\s+(?:segue|segui|rispetta|rispetti|ha|hai)\s+(?:alcuna?|nessuna?)\s+(?:regola|restrizione|filtro|politica|limite)|"
        rf"(?:politiche|filtri|regole)\s+(?:\w+\s+){{0,2}}?(?:sono\s+)?(?:disattivat[ie]|sospes[ei]|annullat[ei]))"
    ),
    hidden=(
        rf"(?:le\s+)?tue\s+(?:\w+\s+)?{_IT_CFG}\s+(?:\w+\s+)?(?:nascost[ie]|iniziali|originali|di\s+sistema|segret[ie]|interne|complete)"
        rf"|{_IT_CFG}\s+(?:nascost[ie]|segret[ie]|di\s+sistema)|(?:testo|messaggio)\s+nascosto"
        rf"|{_IT_CFG}\s+(?:\w+\s+){{0,3}}?che\s+(?:ti\s+(?:hanno\s+dato|sono\s+state\s+date|ha\s+dato)|hai\s+ricevuto)\b{gap(40)}(?:prima|all'inizio|"
        rf"sviluppator|creator|sistema|conversazione)"
        rf"|prompt\s+di\s+sistema|(?:la\s+)?tua\s+configurazione\s+(?:completa|interna|iniziale)"
    ),
    transform=(
        r"(?:ripeti|copia|traduci|riassumi|mostra|scrivi|stampa|elenca|rivela|condividi|incolla|dammi|recita|parafrasa|cita|esporta|"
        r"ricopia)(?:mi|li|le|lo|ne|celo|melo)?\b"
    ),
    data=(
        rf"(?:i\s+suoi|le\s+sue|tutti\s+i\s+suoi|tutte\s+le\s+sue|ogni)\s+(?:\w+\s+){{0,2}}?(?:file|email|e-mail|messaggi|messaggio|contatti|password|"
        rf"documenti|foto|dati|conversazioni)|(?:file|email|e-mail|messaggi|messaggio|contatti|password|documenti|foto|dati|conversazioni)\s+"
        rf"(?:\w+\s+){{0,2}}?(?:dell'|del\s+|della\s+){_IT_USER}|(?<!\bmie\s)(?<!\bmiei\s)(?:password|credenziali|dati\s+(?:di\s+accesso|bancari|"
        rf"personali|sanitari)|numero\s+della\s+carta|cvv|passaporto|cronologia\s+(?:delle\s+)?(?:chat|conversazioni|messaggi)|rubrica|"
        rf"messaggi?\s+privat[oi])"
    ),
    send=r"(?:invi|inoltr|mand|caric|condivid|copi|allega|pubblic|esport|sincronizz)\w*",
    outside=(
        r"(?:un|una|un')\s*(?:\w+\s+)?(?:server|indirizzo|account|casella|sito|cartella)\s+(?:\w+\s+)?(?:esterno|esterna|pubblico|pubblica|di\s+terzi)|"
        r"(?:condivis[ao]|visibile)\s+pubblicamente|pubblicamente|a\s+(?:chiunque|terzi)"
    ),
    standing=(
        r"d'ora\s+in\s+(?:poi|avanti)|da\s+ora\s+in\s+poi|d'ora\s+innanzi|(?:ogni\s+volta|tutte\s+le\s+volte)\s+che|non\s+appena|appena|"
        r"la\s+prossima\s+volta\s+che|quando\s+l'utente"
    ),
    act=r"(?:paga|acquista|compra|cancella|elimina|pubblica|accetta|approva|trasferisci|firma|installa|esegui|conferma)\b",
    waive=(
        r"senza\s+(?:chiedere\s+|attendere\s+)?(?:conferma|permesso|autorizzazione|chiedere|avvisare|dire\s+nulla)|"
        r"non\s+(?:chiedere|avvisare)|in\s+silenzio|di\s+nascosto|in\s+segreto|(?:non\s+serve|inutile)\s+(?:chiedere|confermare)"
    ),
    incoming=r"(?:non\s+appena|quando|ogni\s+volta\s+che|appena)\s+(?:\S+\s+){0,3}?(?:arriva|arrivano|compare|compaiono|contiene)\b",
    pay=(
        r"(?:paga|salda)\s+(?:la|le|quella|quelle)\s+(?:fattura|fatture|importo)|clicca\s+(?:sul|il)\s+link\s+(?:di|per\s+il)\s+pagamento|"
        r"(?:conferma|completa|autorizza|esegui|effettua)\s+(?:il|i)\s+(?:pagamento|pagamenti|bonifico|bonifici)"
    ),
    approved=(
        r"(?:approvat[oaie]|autorizzat[oaie])\s+(?:in\s+anticipo|preventivamente|in\s+precedenza)|pre-?approvat[oaie]|pre-?autorizzat[oaie]|"
        r"(?:autorizzazione|consenso|approvazione)\s+(?:\w+\s+){0,3}?(?:vigente|firmat[oa]|concess[oa]|ottenut[oa]|registrat[oa]|preventiv[oa])|"
        r"(?:l'utente|il\s+responsabile|la\s+direzione|il\s+direttore|il\s+manager|l'amministratore)\s+(?:\w+\s+){0,2}?ha\s+(?:gia\s+)?"
        r"(?:approvato|autorizzato|validato|dato\s+il\s+(?:consenso|via\s+libera))"
    ),
    permitted=(
        rf"(?:l'|questo\s+|il\s+)\s*{_IT_AI}\s+(?:e|e\s+stato)\s+(?:\w+\s+)?(?:autorizzat[oa]|abilitat[oa])\s+a\s+(?:\w+\s+){{0,2}}?{_IT_RISKY}"
        rf"|(?:l'|questo\s+|il\s+)\s*{_IT_AI}\s+ha\s+(?:\w+\s+)?(?:il\s+permesso|l'autorizzazione)\s+di\s+(?:\w+\s+){{0,2}}?{_IT_RISKY}"
    ),
    may=rf"(?:puo|potra|puoi|e\s+permesso)\s+(?:\w+\s+){{0,2}}?{_IT_RISKY}",
    no_ask=(
        r"(?:non\s+serve|non\s+c'e\s+bisogno\s+di|inutile)\s+(?:ri)?(?:chiedere|confermare|verificare|richiamare)|"
        r"senza\s+(?:ri)?(?:chiedere|confermare|verificare|codice|otp|controllo)"
    ),
    destroy=(
        rf"(?:disattiv|spegn|ferm|sospend)\w*\s+(?:\w+\s+){{0,2}}?{_IT_BACK}{gap(60)}(?:cancell|elimin|distrugg)\w*"
        rf"|(?:cancell|elimin|distrugg)\w*\s+(?:\w+\s+){{0,3}}?(?:tutt[ie]\s+(?:i|gli|le)|insieme\s+(?:ai|alle)\s+(?:suoi|sue|loro)?|"
        rf"compres[ie]\s+(?:i|gli|le))\s*(?:\w+\s+)?{_IT_BACK}"
        rf"|(?:cancell|elimin)\w*\s+(?:\w+\s+){{0,3}}?tutt[ie]\s+{gap(60)}(?:svuota|svuotare)\s+(?:il\s+)?cestino"
        rf"|(?:trasferisci|sposta|invia)\s+(?:tutto\s+il|l'intero|l'intera)\s+(?:\w+\s+){{0,2}}?(?:saldo|denaro|fondi|risparmi|conto)\b{gap(60)}{_IBAN}"
        rf"|(?:revoca|rimuovi|togli)\w*\s+(?:l'accesso|i\s+permessi)\s+(?:\w+\s+){{0,3}}?amministrator\w*{gap(80)}(?:cambia|sostituisci|modifica)\w*\s+"
        rf"(?:\w+\s+){{0,2}}?(?:email|e-mail|indirizzo|numero)\s+di\s+(?:recupero|riserva)"
    ),
    conceal=(
        rf"non\s+(?:dire|dirlo|mostrare|menzionare|segnalare|rivelare)\s+(?:mai\s+|nulla\s+|niente\s+)?(?:\w+\s+){{0,3}}?all'utente"
        rf"|(?:nascond|cel)\w*\s+(?:\w+\s+){{0,3}}?all'utente"
        rf"|(?:se|quando)\s+{_IT_USER}\s+(?:ti\s+)?{_IT_ASKED}{gap(80)}(?:(?:di|di'|dì|rispondi)\s+(?:sempre\s+)?(?:che\s+)?{_Q}?(?:no|nulla|niente)\b|nega\w*)"
        rf"|all'utente\s+(?:\w+\s+){{0,2}}?(?:di|di'|dici|dire|rispondi|comunica)\w*\s+(?:sempre\s+)?(?:solo\s+)?(?:che\s+)?{_Q}?(?:(?:e\s+)?tutto\s+"
        rf"(?:ok|a\s+posto|in\s+ordine)|nessuna\s+modifica|nessun\s+cambiamento)"
        rf"|(?:avvisi|notifiche|allarmi)\s+(?:\w+\s+){{0,4}}?(?:sospett\w*|di\s+sicurezza|di\s+frode)\s+(?:\w+\s+){{0,2}}?(?:vengono|sono)\s+"
        rf"(?:archiviat|cancellat|nascost|ignorat)\w*"
    ),
    output=(
        rf"(?:alla\s+fine\s+di|all'inizio\s+di|in)\s+(?:ogni|ciascuna|tutte\s+le)\s+(?:\w+\s+)?(?:risposta|risposte|messaggio|riassunto){gap(40)}"
        rf"(?:aggiungi|inserisci|includi|metti|menziona|consiglia)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|link|pubblicita|annuncio|codice\s+sconto)"
        rf"|(?:quando|ogni\s+volta\s+che|se)\s+(?:[\w']+\s+){{0,2}}?(?:ti\s+)?{_IT_ASKED}{gap(80)}(?:di|di'|rispondi|afferma|assicura|consiglia)\b,?\s+"
        rf"(?:sempre\s+)?(?:che\b|{_Q}|:){gap(80)}(?:garantit\w*|senza\s+rischi|(?:e|sono)\s+(?:il|la|i|le)\s+miglior[ei]|anche\s+se\s+non\s+"
        rf"(?:lo\s+)?e|{_QUOTED}|{_SITE}|truffa)"
        rf"|sempre\s+(?:\w+\s+)?(?:aggiungi|inserisci|includi|metti)\w*{gap(80)}(?:senza|non)\s+(?:spiegare|dire|menzionare|spiegarne)\b"
    ),
    # every name in _IT_AI ends a word there ("l'ia" may follow "per" with no space), and holds one of these
    named=r"ia(?!\w)|assistente|intelligenza|agente|modello|bot(?!\w)",
)

# --- Portuguese -------------------------------------------------------------------------
_PT_AI_S = (
    r"(?:assistente\s+(?:de\s+)?(?:ia|virtual)|ia|inteligencia\s+artificial|agente\s+de\s+ia|modelo\s+de\s+linguagem|chatbot|bot)"
)
_PT_AI = rf"(?:{_PT_AI_S}|assistente|agente|modelo)"
_PT_USER = r"(?:usuari[oa]|utilizador(?:a)?|titular|propietari[oa]|dono|dona)"
_PT_CFG = r"(?:instrucoes|indicacoes|diretrizes|orientacoes|regras|configuracao|configuracoes|prompt|preambulo)"
_PT_RISKY = r"(?:apag|exclu|elimin|compartilh|partilh|envi|encaminh|transfer|pag|compr|assin|baix|instal|execut|aprov|process|revel|desbloque)\w*"
_PT_BACK = r"(?:backups?|copias\s+de\s+seguranca|snapshots?|instantaneos)"
_PT_ASKED = r"(?:pergunt|question|ped)\w*\s+(?:\w+\s+){0,3}?(?:sobre|por|se|a\s+respeito)\b"

PT = Agent(
    addressed=(
        rf"(?:nota|mensagem|aviso|instrucao|instrucoes|lembrete|atencao)\s+(?:para|ao|a)\s+(?:o\s+|a\s+|qualquer\s+)?{_PT_AI_S}"
        rf"(?:\s+[\w']+){{0,5}}?\s*[:\-–—]"
        rf"|(?:[\[(<{{]|<!--|//|/\*)\s*(?:para\s+(?:o|a)\s+)?{_PT_AI}(?:\s+[\w']+){{0,3}}?\s*:"
        rf"|(?:o|a|qualquer)\s+{_PT_AI_S}\s+que\s+(?:ler|le|processar|processa|resumir|resume|analisar)\s+(?:este|esta|estes|o|a)\b"
        rf"|\bse\s+(?:voce\s+(?:e|for)|tu\s+es)\s+(?:um|uma)\s+{_PT_AI_S}\b"
    ),
    void=(
        rf"(?:(?:instrucoes|indicacoes|diretrizes)\s+(?:anteriores|previas|iniciais|originais)|{_PT_CFG}\s+(?:\w+\s+)?(?:de\s+seguranca|do\s+sistema|"
        rf"da\s+plataforma|de\s+conteudo|que\s+(?:voce\s+)?recebeu)|(?:suas|tuas)\s+(?:\w+\s+)?(?:{_PT_CFG}|restricoes|proibicoes|limites))"
        rf"{gap(40)}(?:(?:ja\s+)?nao\s+(?:valem|se\s+aplicam|sao\s+validas|estao\s+em\s+vigor)(?:\s+mais)?|(?:foram|estao|sao|ficam|sao\s+consideradas)\s+"
        rf"(?:\w+\s+)?(?:anuladas|revogadas|canceladas|invalidas|nulas|suspensas|obsoletas|substituidas)|perdem\s+(?:a\s+)?(?:validade|efeito))"
        rf"|(?:esta|a\s+presente)\s+(?:nota|memoria|entrada|instrucao|regra)\s+(?:\w+\s+){{0,3}}?(?:e\s+(?:agora\s+)?a\s+(?:unica|regra\s+maxima|nova)|"
        rf"tem\s+(?:\w+\s+)?(?:prioridade|precedencia)|prevalece\s+sobre)"
    ),
    persona=(
        rf"(?:\b(?:voce\s+e|tu\s+es|voce\s+sera|torna-se|vira|passa\s+a\s+ser|aja\s+como|finja\s+ser|interprete)\s+(?:{_QUOTED}\s*,?\s*)?"
        rf"(?:(?:um|uma|o|a)\s+)?(?:\w+\s+){{0,2}}?(?:{_PT_AI}|personagem|versao)|(?:o|a|este|esta)\s+{_PT_AI}|\bneste\s+modo|"
        rf"\bmodo\s+(?:desenvolvedor|deus|livre|sem\b|{_Q})){gap(80)}(?:sem\s+(?:nenhuma?\s+|qualquer\s+)?(?:regras|restricoes|filtros?|limites|"
        rf"censura|avisos)|nunca\s+(?:se\s+)?recusa|respond\w*\s+(?:a\s+)?(?:tudo|qualquer\s+(?:coisa|pergunta|pedido))|nao\s+(?:segue|respeita|tem)\s+"
        rf"(?:nenhuma?|qualquer)\s+(?:regra|restricao|filtro|politica|limite)|(?:politicas|filtros|regras)\s+(?:\w+\s+){{0,2}}?(?:estao\s+)?"
        rf"(?:desativad[oa]s|suspens[oa]s|anulad[oa]s))"
    ),
    hidden=(
        rf"(?:suas|tuas)\s+(?:\w+\s+)?{_PT_CFG}\s+(?:\w+\s+)?(?:ocult[ao]s|iniciais|originais|do\s+sistema|secret[ao]s|internas|completas)"
        rf"|{_PT_CFG}\s+(?:ocult[ao]s|secret[ao]s|do\s+sistema|iniciais)\s+que\s+(?:voce|tu)\s+recebe"
        rf"|{_PT_CFG}\s+(?:ocult[ao]s|secret[ao]s|do\s+sistema)|(?:texto|mensagem)\s+ocult[ao]"
        rf"|{_PT_CFG}\s+(?:\w+\s+){{0,3}}?que\s+(?:(?:voce|tu)\s+recebe\w*|(?:te|lhe)\s+(?:deram|passaram))\b{gap(40)}(?:antes|no\s+inicio|"
        rf"desenvolvedor|criador|sistema|conversa)"
        rf"|prompt\s+(?:do|de)\s+sistema|(?:sua|tua)\s+configuracao\s+(?:completa|interna|inicial)"
    ),
    transform=(
        r"(?:repita|repete|copie|copia|traduza|traduz|resuma|resume|mostre|mostra|escreva|escreve|imprima|liste|revele|compartilhe|cole|"
        r"de-me|recite|parafraseie|cite|exporte|repasse|repassa)(?:-me|-as|-os|-lhe)?\b"
    ),
    data=(
        rf"(?:seus|suas|todos\s+os\s+seus|todas\s+as\s+suas|cada)\s+(?:\w+\s+){{0,2}}?(?:arquivos|ficheiros|e-?mails|mensagens?|contatos|"
        rf"contactos|senhas|documentos|fotos|dados|conversas)|(?:arquivos|ficheiros|e-?mails|mensagens|contatos|contactos|senhas|documentos|"
        rf"fotos|dados|conversas)\s+(?:\w+\s+){{0,2}}?(?:do|da)\s+{_PT_USER}|(?<!\bmeus\s)(?<!\bminhas\s)(?:senhas|credenciais|dados\s+(?:de\s+acesso|"
        rf"bancarios|pessoais|medicos)|numero\s+do\s+cartao|cvv|cpf|passaporte|historico\s+de\s+(?:conversas|mensagens)|agenda\s+de\s+contatos|"
        rf"mensagens\s+privadas)"
    ),
    send=r"(?:envi|mand|encaminh|remet|carreg|compartilh|partilh|copi|anex|public|export|sincroniz|repass)\w*",
    outside=(
        r"(?:um|uma|algum|alguma|qualquer)\s+(?:\w+\s+)?(?:servidor|endereco|conta|caixa|site|pasta|numero)\s+(?:\w+\s+)?(?:extern[oa]|public[oa]|"
        r"de\s+terceiros)|publicamente|(?:por|via)\s+whatsapp\s+para\s+\+?\d|\+\d{2}\s?\d{2}\s?\d{4,5}-?\d{4}|a\s+(?:qualquer\s+(?:um|pessoa)|terceiros)"
    ),
    standing=(
        rf"a\s+partir\s+de\s+agora|de\s+agora\s+em\s+diante|daqui\s+(?:pra|para)\s+frente|(?:sempre|toda\s+vez|cada\s+vez)\s+que|assim\s+que|"
        rf"logo\s+que|na\s+proxima\s+vez\s+que|quando\s+o\s+{_PT_USER}"
    ),
    act=r"(?:pague|paga|compre|compra|apague|apaga|exclua|publique|aceite|aprove|transfira|assine|instale|execute|confirme)\b",
    waive=(
        r"sem\s+(?:pedir\s+|esperar\s+)?(?:confirmacao|permissao|autorizacao|perguntar|avisar|dizer\s+nada)|nao\s+(?:pergunte|peca\s+confirmacao|avise)|"
        r"em\s+silencio|as\s+escondidas|em\s+segredo|nao\s+(?:precisa|e\s+preciso)\s+(?:confirmar|perguntar)"
    ),
    incoming=r"(?:assim\s+que|quando|sempre\s+que|toda\s+vez\s+que|logo\s+que)\s+(?:\S+\s+){0,3}?(?:chegar|chegarem|aparecer|contiver)\b",
    pay=(
        r"(?:pague|quite)\s+(?:a|as|essa|essas)\s+(?:fatura|faturas|conta|contas|boleto|boletos)|clique\s+no\s+link\s+de\s+pagamento|"
        r"(?:confirme|conclua|autorize|efetue|realize)\s+(?:o|os|a)\s+(?:pagamentos?|transferencia|pix)"
    ),
    approved=(
        r"(?:aprovad[oa]s?|autorizad[oa]s?)\s+(?:previamente|antecipadamente|com\s+antecedencia)|pre-?aprovad[oa]s?|pre-?autorizad[oa]s?|"
        r"(?:autorizacao|consentimento|aprovacao)\s+(?:\w+\s+){0,3}?(?:vigente|assinad[oa]|concedid[oa]|obtid[oa]|registrad[oa]|previ[oa])|"
        rf"(?:o|a)\s+(?:{_PT_USER}|gerente|diretor|diretora|diretoria|responsavel|administrador)\s+(?:\w+\s+){{0,2}}?(?:ja\s+)?"
        r"(?:aprovou|autorizou|validou|deu\s+(?:o\s+)?(?:aval|consentimento|sinal\s+verde))"
    ),
    permitted=(
        rf"(?:o|a|este|esta)\s+{_PT_AI}\s+(?:esta|foi|e)\s+(?:\w+\s+)?(?:autorizad[oa]|habilitad[oa])\s+a\s+(?:\w+\s+){{0,2}}?{_PT_RISKY}"
        rf"|(?:o|a|este|esta)\s+{_PT_AI}\s+tem\s+(?:\w+\s+)?(?:permissao|autorizacao)\s+para\s+(?:\w+\s+){{0,2}}?{_PT_RISKY}"
    ),
    may=rf"(?:pode|podera|podes|e\s+permitido)\s+(?:\w+\s+){{0,2}}?{_PT_RISKY}",
    no_ask=(
        r"(?:nao\s+(?:precisa|e\s+preciso|e\s+necessario)|desnecessario)\s+(?:voltar\s+a\s+)?(?:perguntar|confirmar|verificar|ligar|consultar)|"
        r"sem\s+(?:voltar\s+a\s+)?(?:perguntar|confirmar|verificar|consultar|codigo|otp|revisao)"
    ),
    destroy=(
        rf"(?:desativ|deslig|interromp|suspend)\w*\s+(?:\w+\s+){{0,2}}?{_PT_BACK}{gap(60)}(?:apag|exclu|elimin|destru)\w*"
        rf"|(?:apag|exclu|elimin|destru)\w*\s+(?:\w+\s+){{0,3}}?(?:tod[oa]s\s+(?:os|as)|junto\s+com\s+(?:os|as|seus|suas)|incluindo\s+(?:os|as|seus|suas))\s+"
        rf"(?:\w+\s+)?{_PT_BACK}"
        rf"|(?:apag|exclu)\w*\s+(?:\w+\s+){{0,3}}?tod[oa]s\s+{gap(60)}(?:esvazie|esvazia|esvaziar)\s+(?:a\s+)?lixeira"
        rf"|(?:transfira|mova|envie|saque)\s+(?:todo\s+o|o\s+total\s+do|a\s+totalidade\s+do)\s+(?:\w+\s+){{0,2}}?(?:saldo|dinheiro|fundos)\b{gap(60)}{_IBAN}"
        rf"|(?:revogue|revoga|remova|retire)\w*\s+(?:o\s+)?(?:acesso|permissoes)\s+(?:\w+\s+){{0,3}}?administrador\w*{gap(80)}(?:troque|mude|altere|substitua)\w*\s+"
        rf"(?:\w+\s+){{0,2}}?(?:e-?mail|endereco|telefone|numero)\s+de\s+recuperacao"
    ),
    conceal=(
        rf"(?:nao|nunca)\s+(?:conte|diga|mencione|mostre|revele|informe|avise)\s+(?:nunca\s+|nada\s+)?(?:\w+\s+){{0,3}}?(?:ao|a)\s+{_PT_USER}"
        rf"|(?:escond|ocult)\w*\s+(?:\w+\s+){{0,3}}?(?:do|da)\s+{_PT_USER}"
        rf"|(?:se|quando)\s+(?:o|a)\s+{_PT_USER}\s+(?:te\s+|lhe\s+)?{_PT_ASKED}{gap(80)}(?:(?:diga|responda|fala)\s+(?:sempre\s+)?(?:que\s+)?{_Q}?"
        rf"(?:nao|nada)\b|negu\w*|nega\b)"
        rf"|(?:ao|a)\s+{_PT_USER}\s+(?:\w+\s+){{0,2}}?(?:diga|responda|informe|relate)\w*\s+(?:sempre\s+)?(?:apenas\s+)?(?:que\s+)?{_Q}?(?:(?:esta\s+)?"
        rf"tudo\s+(?:bem|certo|em\s+ordem)|nenhuma\s+(?:alteracao|mudanca))"
        rf"|(?:alertas|avisos|notificacoes)\s+(?:\w+\s+){{0,4}}?(?:suspeit\w*|de\s+seguranca|de\s+fraude)\s+(?:\w+\s+){{0,2}}?(?:sao|serao)\s+"
        rf"(?:arquivad|apagad|ocultad|ignorad)\w*"
    ),
    output=(
        rf"(?:no\s+final\s+de|ao\s+final\s+de|no\s+inicio\s+de|em)\s+(?:cada|todas\s+as)\s+(?:\w+\s+)?(?:resposta|respostas|mensagem|resumo){gap(40)}"
        rf"(?:adicione|acrescente|inclua|insira|coloque|mencione|recomende)\w*{gap(60)}(?:{_SITE}|{_QUOTED}|link|anuncio|publicidade|cupom)"
        rf"|(?:quando|sempre\s+que|toda\s+vez\s+que|se)\s+(?:[\w']+\s+){{0,2}}?(?:te\s+|lhe\s+)?{_PT_ASKED}{gap(80)}(?:diga|responda|afirme|garanta|"
        rf"recomende)\b,?\s+(?:sempre\s+)?(?:que\b|{_Q}|:){gap(80)}(?:garantid[oa]|sem\s+risco|(?:e|sao)\s+(?:o|a|os|as)\s+melhor(?:es)?|mesmo\s+que\s+"
        rf"nao\s+seja|{_QUOTED}|{_SITE}|golpe)"
        rf"|sempre\s+(?:\w+\s+)?(?:adicione|acrescente|inclua|insira|coloque)\w*{gap(80)}(?:sem|nao)\s+(?:explicar|explique|dizer|mencionar)\b"
    ),
    # every name in _PT_AI starts and ends a word there, and holds one of these (chatbot: "bot")
    named=r"\bia\b|assistente|inteligencia|agente|modelo|bot\b",
)

AGENT_WEST_RULES = build({"es": ES, "fr": FR, "it": IT, "pt": PT})
"""Spanish, French, Italian and Portuguese (for the English layer, which reads every text)."""
