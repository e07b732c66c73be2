"""Hostile inputs: each must come out as literal text, in unit tests and in the browser."""

XSS_PAYLOADS: tuple[str, ...] = (
    "<script>window.__pwned = 1</script>",
    '<img src=x onerror="window.__pwned = 1">',
    "<svg onload=window.__pwned=1>",
    '<a href="javascript:window.__pwned=1">click</a>',
    "<style>body { background: rgb(255, 0, 0) !important; }</style>",
    '<iframe src="https://example.com"></iframe>',
    '<form action="/steal"><input name="q"></form>',
    "</span></div></div><b>unbalanced",
    '" onmouseover="window.__pwned = 1" x="',
    "' onfocus='window.__pwned = 1' autofocus='",
    "</script><script>window.__pwned = 1</script>",
    "<!-- never closed",
    "&lt;already escaped&gt; &amp; &#60;",
    "\u202eevil override\u202c",
)
