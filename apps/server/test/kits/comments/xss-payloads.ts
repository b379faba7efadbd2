/**
 * Generated XSS payloads for the comment sanitizer tests: script tags, event
 * handlers, script URLs in many encodings and wrappers, svg/math/iframe/object,
 * style, and nested or malformed markup (OWASP filter-evasion families).
 */
const SCRIPT_URLS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java&#x09;script:alert(1)',
  'jav&#x0A;ascript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;alert(1)',
  '&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)',
  'javascript&colon;alert(1)',
  '\u0001javascript:alert(1)',
  'javascript://%0Aalert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'livescript:alert(1)',
];

const URL_WRAPPERS: ((url: string) => string)[] = [
  (u) => `<a href="${u}">click</a>`,
  (u) => `<a href='${u}'>click</a>`,
  (u) => `<a href=${u}>click</a>`,
  (u) => `<iframe src="${u}"></iframe>`,
  (u) => `<img src="${u}">`,
  (u) => `<form action="${u}"><button>go</button></form>`,
  (u) => `<object data="${u}"></object>`,
];

const HANDLER_TAGS = [
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)">',
  '<body onload=alert(1)>',
  '<svg onload=alert(1)>',
  '<svg/onload=alert(1)>',
  '<div onmouseover="alert(1)">hover</div>',
  '<p onclick="alert(1)">para</p>',
  '<strong onmouseover=alert(1)>bold</strong>',
  '<a href="https://example.com" onclick="alert(1)">ok link</a>',
  '<a href="https://example.com" ONCLICK=alert(1)>ok link</a>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<marquee onstart=alert(1)>m</marquee>',
  '<li onpointerdown=alert(1)>item</li>',
  '<code onfocus=alert(1) tabindex=1>c</code>',
  '<p/onclick=alert(1)>slash</p>',
  '<br onload=alert(1)>',
  '<ul><li style="x" onmouseenter=alert(1)>x</li></ul>',
];

const SCRIPTS_AND_MARKUP = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<script/x>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>alert(1);//<</script>',
  '<script>alert(String.fromCharCode(88,83,83))</script>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  '<math href="javascript:alert(1)">click</math>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object type="text/x-scriptlet" data="http://evil.example/x"></object>',
  '<embed src="javascript:alert(1)">',
  '<style>@import "http://evil.example/x.css";</style>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  '<div style="width: expression(alert(1));">ie</div>',
  '<link rel="stylesheet" href="javascript:alert(1)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<!--<script>alert(1)</script>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<img """><script>alert(1)</script>">',
  '<a href="javascript:alert(1)"<b>x</b>',
  '<p <script>alert(1)</script>>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<template><script>alert(1)</script></template>',
  '<textarea><script>alert(1)</script></textarea>',
  '<xmp><script>alert(1)</script></xmp>',
  '<svg><style><img src=x onerror=alert(1)></style></svg>',
  '<a href="https://ok.example" target="_self" rel="opener">ok</a>',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<IMG SRC=JaVaScRiPt:alert(1)>',
  '<IMG SRC=`javascript:alert(1)`>',
  '<a href="  &#14;  javascript:alert(1)">entity space</a>',
  '<a href="jav&#x09;ascript:alert(1)" onclick="x">tab</a>',
  '<a href="http://ok.example" style="position:fixed">styled link</a>',
  '<form><button formaction="javascript:alert(1)">x</button></form>',
  '<isindex type=image src=1 onerror=alert(1)>',
  '<table background="javascript:alert(1)"><tr><td>x</td></tr></table>',
];

export function xssPayloads(): string[] {
  const fromUrls = SCRIPT_URLS.flatMap((url) => URL_WRAPPERS.map((wrap) => wrap(url)));
  return [...SCRIPTS_AND_MARKUP, ...HANDLER_TAGS, ...fromUrls];
}

const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'ul', 'ol', 'li', 'a', 'code', 'pre']);

const decodeEntities = (text: string) =>
  text
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&amp;/gi, '&');

/**
 * What is wrong with sanitized markup, if anything: a script element, a tag
 * outside the allow-list, an event-handler or other non-allowed attribute, or a
 * link whose decoded URL is not http, https or mailto. Text (where `<` is
 * escaped) is not markup, so only real tags are inspected.
 */
export function unsafeMarkupProblems(html: string): string[] {
  const problems: string[] = [];
  if (/<\s*script/i.test(html)) problems.push('script element');
  for (const tag of html.match(/<[^>]*>/g) ?? []) {
    const name = /^<\/?\s*([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase();
    if (!name || !ALLOWED_TAGS.has(name)) problems.push(`tag ${tag}`);
    if (/\son[a-z]+\s*=/i.test(tag)) problems.push(`event handler in ${tag}`);
    for (const [, attr, value] of tag.matchAll(/\s([a-z-:]+)\s*=\s*"([^"]*)"/gi)) {
      if (!['href', 'rel', 'target'].includes(attr.toLowerCase())) problems.push(`attribute ${attr} in ${tag}`);
      if (attr.toLowerCase() === 'href') {
        // eslint-disable-next-line no-control-regex -- browsers drop control characters from a URL, so the check must too
        const url = decodeEntities(value).replace(/[\u0000-\u0020]/g, '');
        if (!/^(https?:|mailto:)/i.test(url)) problems.push(`url ${value}`);
      }
    }
  }
  if (/href\s*=\s*["']?\s*(javascript|vbscript|data):/i.test(decodeEntities(html))) problems.push('script URL');
  return problems;
}
